/**
 * `backlink-query seed`: writes a deterministic sample database.
 *
 * @module
 * @internal
 */
import { existsSync, rmSync } from 'node:fs';
import { EXIT, type Command } from '../../cli/command.js';
import { dateOption, integerOption, parseArgs } from './args.js';
import { databaseOptionsHelp, describeLocation, filesOf, loadDepsOrExplain, openStoreOrExplain, storeLocation } from './open-store.js';
import { DEFAULT_SAMPLE_DB, DEFAULT_SAMPLE_LINKS, seedWithProgress } from './sample-database.js';

const HELP = `Usage: backlink-query seed [--links N] [--seed S] [--db FILE | --database-url URL] [--now DATE] [--force]

Writes a deterministic sample link graph and keyword metrics into the store, through the same bulk
path as \`import\`. The same --links, --seed and --now always give the same data.

Options:
  --links N            number of links (default ${DEFAULT_SAMPLE_LINKS.toLocaleString('en-US')})
  --seed S             seed of the random source (default 1)
${databaseOptionsHelp(DEFAULT_SAMPLE_DB)}
  --now DATE           the date the data is "as of" (default: today, 00:00 UTC)
  --force              replace the files of --db or sqlite:FILE if they already hold links
`;

const OPTIONS = { links: { value: true }, seed: { value: true }, db: { value: true }, 'database-url': { value: true }, now: { value: true }, force: { value: false }, help: { value: false } };

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
    const location = storeLocation(parsed.options, io.env, DEFAULT_SAMPLE_DB);
    if (typeof location === 'string') return usage(io, location);
    const deps = await loadDepsOrExplain(io, 'seed', location);
    if (!deps) return EXIT.failure;
    if (parsed.options['force'] && existsSync(filesOf(location)[0] ?? '')) {
      for (const file of filesOf(location)) rmSync(file, { force: true });
    }
    const store = await openStoreOrExplain(io, location, deps.tldts);
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
    } finally {
      await store.close();
    }
  },
};

function usage(io: { stderr: { write(text: string): unknown } }, message: string): number {
  io.stderr.write(`${message}\n\n${HELP}`);
  return EXIT.usage;
}
