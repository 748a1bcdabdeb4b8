/**
 * `backlink-query seed`: writes a deterministic sample database.
 *
 * @module
 * @internal
 */
import { existsSync, rmSync } from 'node:fs';
import { EXIT, type Command } from '../../cli/command.js';
import { loadServerDeps, MissingDependencyError } from '../deps.js';
import { dateOption, integerOption, parseArgs } from './args.js';
import { DEFAULT_SAMPLE_DB, DEFAULT_SAMPLE_LINKS, hasLinks, openDatabase, seedWithProgress } from './sample-database.js';

const HELP = `Usage: backlink-query seed [--links N] [--seed S] [--db FILE] [--now DATE] [--force]

Writes a deterministic sample link graph and keyword metrics into a SQLite database.
The same --links, --seed and --now always give the same data.

Options:
  --links N    number of links (default ${DEFAULT_SAMPLE_LINKS.toLocaleString('en-US')})
  --seed S     seed of the random source (default 1)
  --db FILE    database file (default ${DEFAULT_SAMPLE_DB})
  --now DATE   the date the data is "as of" (default: today, 00:00 UTC)
  --force      replace the file if it already holds links
`;

const OPTIONS = { links: { value: true }, seed: { value: true }, db: { value: true }, now: { value: true }, force: { value: false }, help: { value: false } };

/** The `seed` command. @internal */
export const seedCommand: Command = {
  name: 'seed',
  summary: 'Write a deterministic sample database (links, referring domains, keyword metrics)',
  help: HELP,
  async run(args, io) {
    const parsed = parseArgs(args, OPTIONS);
    if (!parsed.ok) return usage(io, parsed.error);
    if (parsed.options['help']) return io.stdout.write(HELP), EXIT.ok;
    const links = integerOption(parsed.options, 'links', DEFAULT_SAMPLE_LINKS, 1);
    const seed = integerOption(parsed.options, 'seed', 1);
    const now = dateOption(parsed.options, 'now');
    if (typeof links === 'string') return usage(io, links);
    if (typeof seed === 'string') return usage(io, seed);
    if (typeof now === 'string') return usage(io, now);
    const file = typeof parsed.options['db'] === 'string' ? parsed.options['db'] : DEFAULT_SAMPLE_DB;
    let deps;
    try {
      deps = await loadServerDeps();
    } catch (error) {
      if (error instanceof MissingDependencyError) return io.stderr.write(`${error.message}\n`), EXIT.failure;
      throw error;
    }
    if (parsed.options['force'] && existsSync(file)) for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    const store = await openDatabase(file);
    try {
      if (hasLinks(store)) {
        io.stderr.write(`${file} already holds links; pass --force to replace it.\n`);
        return EXIT.failure;
      }
      await seedWithProgress(store, deps.tldts, io, { links, seed, now });
      io.stdout.write(`${file}\n`);
      return EXIT.ok;
    } finally {
      await store.close();
    }
  },
};

function usage(io: { stderr: { write(text: string): unknown } }, message: string): number {
  io.stderr.write(`${message}\n\n${HELP}`);
  return EXIT.usage;
}
