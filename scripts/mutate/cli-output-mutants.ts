/**
 * Mutants of the command line's output and of `serve`'s process: a reader that stops early
 * (`| head`), the json written row by row, counts in the singular, fractions in the table, the
 * server stopping on a signal sent to npm or its shell, the banner's example and `npm start`.
 *
 * @internal
 * @module
 */
import type { Mutant } from './mutant.js';

const PIPE = ['test/cli/pipe.test.ts'];
const READABLE = ['test/cli/readable.test.ts'];
/** npx backlink-query serve, and serve's banner, as processes. */
const NPX = ['test/cli/npx-serve.test.ts'];
const BANNER = ['test/cli/serve-banner.test.ts'];

export const CLI_OUTPUT_MUTANTS: readonly Mutant[] = [
  {
    name: 'cli-pipe-keeps-paging',
    area: 'cli',
    file: 'src/cli/operation-command.ts',
    find: 'if (outputClosed(io.stdout)) return progress.done();',
    replace: 'if (false) return progress.done();',
    tests: PIPE,
    project: 'all',
  },
  {
    name: 'cli-pipe-epipe-thrown',
    area: 'cli',
    file: 'src/cli/node-io.ts',
    find: 'if (!closedReader(error)) throw error;',
    replace: 'throw error;',
    tests: PIPE,
    project: 'all',
  },
  {
    name: 'cli-pipe-no-wait-for-flush',
    area: 'cli',
    file: 'src/cli/node-io.ts',
    find: "if (typeof stream.once !== 'function' || !(stream.writableLength! > 0) || stream.destroyed === true) return Promise.resolve();",
    replace: 'return Promise.resolve();',
    tests: PIPE,
    project: 'all',
  },
  {
    name: 'cli-json-rows-unindented',
    area: 'cli',
    file: 'src/cli/output.ts',
    find: "JSON.stringify(row, null, 2).replace(/\\n/g, '\\n  ')",
    replace: 'JSON.stringify(row, null, 2)',
    tests: PIPE,
    project: 'all',
  },
  {
    name: 'cli-count-always-plural',
    area: 'cli',
    file: 'src/cli/style.ts',
    find: 'count === 1 ? noun : `${noun}s`',
    replace: '`${noun}s`',
    tests: PIPE,
    project: 'all',
  },
  {
    name: 'cli-table-fraction-unrounded',
    area: 'cli',
    file: 'src/cli/table.ts',
    find: 'value.toFixed(TABLE_DECIMALS)',
    replace: 'String(value)',
    tests: READABLE,
    project: 'all',
  },
  {
    name: 'serve-shell-sigint-unheard',
    area: 'cli',
    file: 'src/cli/server/serve.ts',
    find: "if (!resumed && wakesOf(parent) !== undefined) return stop('SIGINT');",
    replace: 'if (false) return;',
    tests: NPX,
    project: 'all',
  },
  {
    name: 'serve-banner-fixed-target',
    area: 'cli',
    file: 'src/cli/server/serve.ts',
    find: "const query = target === undefined ? '<domain>' : encodeURIComponent(target);",
    replace: "const query = 'example.com';",
    tests: BANNER,
    project: 'all',
  },
];
