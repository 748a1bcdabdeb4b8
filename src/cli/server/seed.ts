/**
 * `backlink-query seed`: writes a deterministic sample database.
 *
 * @module
 * @internal
 */
import { existsSync, rmSync } from 'node:fs';
import { describeLocation, filesOf } from './location.js';
import { dateOption, integerOption, parseCommandArgs, type OptionTable } from '../args.js';
import { EXIT, type Command } from '../command.js';
import {
  DATABASE_OPTIONS,
  databaseOptionsHelp,
  describeStoreError,
  explainStoreError,
  loadDepsOrExplain,
  locationOf,
  MEMORY_LIMIT_OPTION,
  memoryLimitHelp,
  loadStoreOptions,
  openStoreOrExplain,
} from './database.js';
import { DEFAULT_SAMPLE_DB, DEFAULT_SAMPLE_LINKS, seedWithProgress } from './sample.js';

const HELP = `Usage: backlink-query seed [--links N] [--seed S] [--db FILE | --database-url URL] [--now DATE] [--force] [--memory-limit SIZE]

Writes a deterministic sample link graph and keyword metrics into the store, through the same bulk
path as \`import\`. The same --links, --seed and --now always give the same data.

Options:
  --links N            number of links (default ${DEFAULT_SAMPLE_LINKS.toLocaleString('en-US')})
  --seed S             seed of the random source (default 1)
${databaseOptionsHelp(DEFAULT_SAMPLE_DB)}
  --now DATE           the date the data is "as of" (default: today, 00:00 UTC)
  --force              replace the files of --db or sqlite:FILE if they already hold links
${memoryLimitHelp('the seed')}
`;

const OPTIONS = {
  links: { type: 'string' }, seed: { type: 'string' }, ...DATABASE_OPTIONS, now: { type: 'string' }, force: { type: 'boolean' }, ...MEMORY_LIMIT_OPTION, help: { type: 'boolean' },
} as const satisfies OptionTable;

/** The `seed` command. @internal */
export const seedCommand: Command = {
  name: 'seed',
  summary: 'Write a deterministic sample database (links, referring domains, keyword metrics)',
  help: HELP,
  options: OPTIONS,
  describeError: describeStoreError,
  async run(args, io) {
    const { values } = parseCommandArgs(args, OPTIONS, { positionals: false });
    if (values['help']) return io.stdout.write(HELP), EXIT.ok;
    const links = integerOption(values, 'links', 1) ?? DEFAULT_SAMPLE_LINKS;
    const seed = integerOption(values, 'seed', 0) ?? 1;
    const now = dateOption(values, 'now');
    const location = locationOf(values, io.env, DEFAULT_SAMPLE_DB);
    const storeOptions = loadStoreOptions(values, location.kind);
    const deps = await loadDepsOrExplain(io, 'seed', location);
    if (!deps) return EXIT.failure;
    if (values['force'] && existsSync(filesOf(location)[0] ?? '')) {
      for (const file of filesOf(location)) rmSync(file, { force: true });
    }
    const store = await openStoreOrExplain(io, location, deps.tldts, storeOptions);
    if (!store) return EXIT.unavailable;
    try {
      if (await store.hasLinks()) {
        const how = filesOf(location).length > 0 ? 'pass --force to replace it' : 'seed an empty database';
        io.stderr.write(`${describeLocation(location)} already holds links; ${how}.\n`);
        return EXIT.failure;
      }
      await seedWithProgress(store, deps.tldts, io, { links, seed, now });
      io.stdout.write(`${describeLocation(location)}\n`);
      return EXIT.ok;
    } catch (error) {
      if (!explainStoreError(io, location, error)) throw error;
      return EXIT.failure;
    } finally {
      await store.close();
    }
  },
};
