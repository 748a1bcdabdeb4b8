/**
 * Opening the database for the commands, and filling it with sample data when asked.
 *
 * @module
 * @internal
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CliIo } from '../../cli/command.js';
import type { DomainParser } from '../deps.js';
import { seedSample, type SampleStats } from '../sample/generate.js';
import { openSqliteStore, type SqliteStore } from '../store/sqlite/sqlite-store.js';
import { progressBar } from './progress.js';

/** Where `serve --sample` and `seed` keep the sample database by default. @internal */
export const DEFAULT_SAMPLE_DB = '.backlink-query/sample.db';
/** Links in the sample database `serve --sample` creates. @internal */
export const DEFAULT_SAMPLE_LINKS = 50_000;

/** Opens (creating the folder of) a database file. @internal */
export async function openDatabase(file: string): Promise<SqliteStore> {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  return openSqliteStore({ file });
}

/** Whether the store already holds links. @internal */
export function hasLinks(store: SqliteStore): boolean {
  return store.db.prepare('SELECT 1 FROM links LIMIT 1').get() !== undefined;
}

/** Seeds with a progress bar and reports the time taken on stderr. @internal */
export async function seedWithProgress(
  store: SqliteStore,
  parser: DomainParser,
  io: CliIo,
  options: { links: number; seed: number; now?: Date | undefined },
): Promise<SampleStats & { seconds: number }> {
  io.stderr.write(`Creating sample data: ${options.links.toLocaleString('en-US')} links, seed ${options.seed}...\n`);
  const bar = progressBar(io.stderr, 'links');
  const started = performance.now();
  const stats = await seedSample(store, parser, { ...options, ...(options.now ? { now: options.now } : {}), onProgress: bar.update });
  bar.end();
  const seconds = (performance.now() - started) / 1000;
  io.stderr.write(
    `Sample data ready in ${seconds.toFixed(1)} s: ${stats.links.toLocaleString('en-US')} links to ${stats.targets} targets from ` +
      `${stats.referringDomains.toLocaleString('en-US')} referring domains, ${stats.keywordSnapshots.toLocaleString('en-US')} keyword snapshots.\n`,
  );
  return { ...stats, seconds };
}
