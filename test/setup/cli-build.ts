/**
 * The CLI the tests run as a process, built once per vitest run from the current sources.
 *
 * Through tsx, every start of the CLI compiles and loads its modules one by one: about 1.7 s here,
 * against 0.4 s for one bundle, and the suite starts the CLI some hundreds of times. The global
 * setup bundles `src/cli/main.ts` with esbuild (the compiler tsx uses, and tsup for dist/), with
 * Chevrotain inside as in dist/ and every other package left external as under tsx, into `.tmp/cli-under-test-<pid>/` of the clone: from there
 * Node finds the clone's node_modules, and `package.json` two folders up. `playground` beside it
 * links the clone's `dist/playground/`, as in dist/. The folder goes at the teardown; one left by
 * a run that was killed goes at the next run's start.
 *
 * In watch mode nothing is built (a bundle would go stale as the sources change): the tests run
 * the sources through tsx, as `cliCommand()` (test/helpers/cli-command.ts) says.
 *
 * @module
 */
import { mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { chevrotainStubs } from '../../scripts/chevrotain-stubs.js';
import { nativeLodash } from '../../scripts/native-lodash.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PREFIX = 'cli-under-test-';

/**
 * Every package stays external (loaded from node_modules, as under tsx) but Chevrotain, bundled
 * as dist/ bundles it (tsup.config.ts): loading it from node_modules with lodash-es's hundreds of
 * modules takes a second on its own. The two plugins before this one resolve Chevrotain's lodash-es
 * and internals first.
 */
const packagesButChevrotain: Plugin = {
  name: 'packages-but-chevrotain',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (/^(chevrotain|@chevrotain\/)/.test(args.path) ? undefined : { path: args.path, external: true }));
  },
};

/** Whether process `pid` is alive. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Builds the CLI; returns its entry script and the folder's removal. */
export async function buildCliUnderTest(): Promise<{ script: string; remove: () => void }> {
  const parent = join(ROOT, '.tmp');
  mkdirSync(parent, { recursive: true });
  for (const name of readdirSync(parent)) {
    const pid = Number(name.slice(PREFIX.length));
    if (name.startsWith(PREFIX) && Number.isInteger(pid) && !alive(pid)) rmSync(join(parent, name), { recursive: true, force: true });
  }
  const dir = join(parent, `${PREFIX}${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  await build({
    entryPoints: { main: join(ROOT, 'src/cli/main.ts') },
    outdir: dir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    plugins: [nativeLodash, chevrotainStubs, packagesButChevrotain],
    sourcemap: true,
    logLevel: 'error',
  });
  // Dangling until `npm run build` makes dist/playground/: then the server says it is not built, as from the sources.
  symlinkSync(join(ROOT, 'dist', 'playground'), join(dir, 'playground'));
  return { script: join(dir, 'main.js'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
