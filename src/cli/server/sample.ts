/**
 * The sample database of `seed` and `serve --sample`: where it lives by default, and seeding it
 * with progress on stderr.
 *
 * @module
 * @internal
 */
import { existsSync, statSync } from 'node:fs';
import { seedSample, type DomainParser, type SampleStats, type Store, type StoreLocation } from '../../server/index.js';
import { filesOf } from './location.js';
import type { CliIo } from '../command.js';
import { finishPhases, phaseProgress } from '../progress.js';
import { painter } from '../style.js';

/** Where `serve --sample` and `seed` keep the sample database by default. @internal */
export const DEFAULT_SAMPLE_DB = '.backlink-query/sample.db';
/** Links in the sample database `serve --sample` creates. @internal */
export const DEFAULT_SAMPLE_LINKS = 50_000;

/**
 * Seeds with progress through each phase on stderr (writing links, writing keyword metrics, then
 * the store's indexing, rollups and finishing) and reports the time taken.
 *
 * @internal
 */
export async function seedWithProgress(
  store: Store,
  parser: DomainParser,
  io: CliIo,
  options: { links: number; seed: number; now?: Date | undefined },
): Promise<SampleStats & { seconds: number }> {
  io.stderr.write(`Creating sample data: ${options.links.toLocaleString('en-US')} links, seed ${options.seed}...\n`);
  const progress = phaseProgress(io.stderr, { paint: painter(io.stderr, io.env) });
  const finish = finishPhases(progress);
  const started = performance.now();
  progress.phase('writing links', 'links');
  const stats = await seedSample(store, parser, {
    ...options,
    ...(options.now ? { now: options.now } : {}),
    onProgress: progress.update,
    onPhase: (phase) => (phase === 'keywords' ? progress.phase('writing keyword metrics') : finish.begin()),
    onRollups: finish.onProgress,
  });
  progress.end();
  const seconds = (performance.now() - started) / 1000;
  io.stderr.write(
    `Sample data ready in ${seconds.toFixed(1)} s: ${stats.links.toLocaleString('en-US')} links to ${stats.targets} targets from ` +
      `${stats.referringDomains.toLocaleString('en-US')} referring domains, ${stats.keywordSnapshots.toLocaleString('en-US')} keyword snapshots.\n`,
  );
  return { ...stats, seconds };
}

/**
 * Where a new sample database was written and how much room it takes, so a first `serve --sample`
 * does not fill a folder unannounced: `Sample database: .backlink-query/sample.db and
 * .backlink-query/sample.db.duckdb (SIZE; delete them to remove it).`, as docs/server.md shows it.
 * `undefined` for a database without files here (in memory, PostgreSQL).
 *
 * @internal
 */
export function sampleFilesNote(location: StoreLocation): string | undefined {
  if ((location.kind !== 'embedded' && location.kind !== 'sqlite') || location.file === ':memory:') return undefined;
  const files = filesOf(location).filter((file) => existsSync(file));
  if (files.length === 0) return undefined;
  // The size counts the open database's journal files too; the names are the files that stay.
  const bytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
  const names = [location.file, `${location.file}.duckdb`].filter((file) => files.includes(file));
  const size = `${(bytes / 1_000_000).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} MB`;
  return `Sample database: ${names.join(' and ')} (${size}; delete ${names.length === 1 ? 'it' : 'them'} to remove it).\n`;
}
