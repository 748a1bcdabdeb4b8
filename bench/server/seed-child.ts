/**
 * Seeds one benchmark database, in its own process (so the benchmark's memory stays its own and a
 * 10M seed's footprint can be read): the library's `seedSample` through the store's bulk writer,
 * the path `backlink-query seed` takes. Progress goes to stderr as plain lines; the last line on
 * stdout is a JSON {@link SeedReport}.
 *
 *   node --import tsx bench/server/seed-child.ts --store sqlite --location FILE --links N --seed 1 --now 2026-06-15
 *   node --import tsx bench/server/seed-child.ts --store clickhouse --location 'clickhouse://127.0.0.1:P1,127.0.0.1:P2/bench_links_N?ledger=FILE' ...
 */
import { performance } from 'node:perf_hooks';
import { loadServerDeps } from '../../src/server/deps.js';
import { seedSample } from '../../src/server/sample/generate.js';
import type { Store } from '../../src/server/store/store.js';

/** What the child prints when done. */
export interface SeedReport {
  readonly links: number;
  readonly targets: number;
  readonly referringDomains: number;
  readonly keywordSnapshots: number;
  readonly topTarget: string;
  /** Whole seed, from opening the empty store to the last rollup. */
  readonly seconds: number;
  /** Drawing and writing the links (without keywords, indexes and rollups). */
  readonly linksSeconds: number;
  /** Peak resident memory of the seeding process. */
  readonly maxRssBytes: number;
}

function option(name: string): string {
  const i = process.argv.indexOf(`--${name}`);
  const value = i === -1 ? undefined : process.argv[i + 1];
  if (value === undefined) throw new Error(`seed-child: --${name} is required.`);
  return value;
}

async function main(): Promise<void> {
  const store = option('store');
  const location = option('location');
  const links = Number(option('links'));
  const seed = Number(option('seed'));
  const now = new Date(`${option('now')}T00:00:00Z`);
  const { tldts } = await loadServerDeps();
  const label = `[seed ${store} ${links.toLocaleString('en-US')}]`;
  let opened: Store;
  let checkpoint = async () => {};
  if (store === 'embedded') {
    const { openEmbeddedStore } = await import('../../src/server/store/engines/embedded/embedded-store.js');
    const embedded = await openEmbeddedStore({ file: location, parser: tldts });
    checkpoint = async () => {
      embedded.db.pragma('wal_checkpoint(TRUNCATE)');
      await embedded.columns.checkpoint();
    };
    opened = embedded;
  } else if (store === 'sqlite') {
    const { openSqliteStore } = await import('../../src/server/store/engines/sqlite/sqlite-store.js');
    const sqlite = await openSqliteStore({ file: location, parser: tldts });
    checkpoint = async () => void sqlite.db.pragma('wal_checkpoint(TRUNCATE)');
    opened = sqlite;
  } else if (store === 'postgres') {
    const { openPostgresStore } = await import('../../src/server/store/engines/postgres/postgres-store.js');
    opened = await openPostgresStore({ url: location, parser: tldts });
  } else if (store === 'clickhouse') {
    // `backlink-query seed --database-url clickhouse://...`: the CLI's own parsing and opening (shards, database, ledger).
    const { openStoreAt } = await import('../../src/server/store/open.js');
    const { clickhouseLocation } = await import('../../src/cli/server/location.js');
    const where = clickhouseLocation(location);
    if (typeof where === 'string') throw new Error(`seed-child: ${where}`);
    opened = await openStoreAt(where, tldts);
  } else throw new Error(`seed-child: unknown store ${store}`);
  if (await opened.hasLinks()) throw new Error(`${label} the database already holds links.`);
  const started = performance.now();
  let lastReport = started;
  let linksSeconds = 0;
  let heartbeat: NodeJS.Timeout | undefined;
  const rssMb = () => Math.round(process.memoryUsage.rss() / 1e6);
  const onProgress = (done: number, total: number) => {
    const t = performance.now();
    if (done === total) {
      linksSeconds = (t - started) / 1000;
      process.stderr.write(`${label} ${done.toLocaleString('en-US')} links written in ${linksSeconds.toFixed(1)} s; keywords, indexes and rollups next\n`);
      // seedSample reports no progress while the indexes and rollups are built: say it is alive.
      heartbeat = setInterval(() => {
        process.stderr.write(`${label} indexes and rollups: ${((performance.now() - t) / 1000).toFixed(0)} s so far, rss ${rssMb()} MB\n`);
      }, 30_000);
    } else if (t - lastReport >= 10_000) {
      lastReport = t;
      const rate = Math.round(done / ((t - started) / 1000));
      process.stderr.write(`${label} ${done.toLocaleString('en-US')} links (${Math.floor((100 * done) / total)}%), ${rate.toLocaleString('en-US')} links/s, rss ${rssMb()} MB\n`);
    }
  };
  const stats = await seedSample(opened, tldts, { links, seed, now, onProgress }).finally(() => clearInterval(heartbeat));
  const seconds = (performance.now() - started) / 1000;
  await checkpoint();
  await opened.close();
  const report: SeedReport = {
    links: stats.links,
    targets: stats.targets,
    referringDomains: stats.referringDomains,
    keywordSnapshots: stats.keywordSnapshots,
    topTarget: stats.topTarget,
    seconds,
    linksSeconds,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
  };
  process.stderr.write(`${label} done in ${seconds.toFixed(1)} s (${Math.round(links / seconds).toLocaleString('en-US')} links/s), peak rss ${Math.round(report.maxRssBytes / 1e6)} MB\n`);
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`seed-child failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
