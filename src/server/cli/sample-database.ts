/**
 * Opening the database for the commands, and filling it with sample data when asked.
 *
 * @module
 * @internal
 */
import type { CliIo } from '../../cli/command.js';
import type { DomainParser } from '../deps.js';
import { seedSample, type SampleStats } from '../sample/generate.js';
import type { Store } from '../store/store.js';
import { progressBar } from './progress.js';

/** Where `serve --sample` and `seed` keep the sample database by default. @internal */
export const DEFAULT_SAMPLE_DB = '.backlink-query/sample.db';
/** Links in the sample database `serve --sample` creates. @internal */
export const DEFAULT_SAMPLE_LINKS = 50_000;


/** Seeds with a progress bar and reports the time taken on stderr. @internal */
export async function seedWithProgress(
  store: Store,
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
