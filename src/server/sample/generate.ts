/**
 * The deterministic sample generator: the same `links`, `seed` and `now` give the same database
 * on every machine. Heavy-tailed links per target and per referring domain, IPs clustered in
 * class-C subnets, three years of first/last seen, lost links, and keyword metrics.
 *
 * @module
 */
import { formatTimestamp } from '../clock.js';
import type { DomainParser } from '../deps.js';
import type { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { datasetWriter, type DatasetWriter } from './dataset.js';
import { keywordSnapshots } from './keywords.js';
import { makeLink } from './links.js';
import { Random } from './random.js';
import { makeWorld, type World } from './world.js';

/** Options of {@link seedSample}. */
export interface SampleOptions {
  /** Number of links (default 100,000). */
  readonly links?: number;
  /** Seed of the random source (default 1). */
  readonly seed?: number;
  /** The instant the data is "as of" (default: today at 00:00 UTC). */
  readonly now?: Date;
  /** Called now and then with the links written so far. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** What was written. */
export interface SampleStats {
  readonly links: number;
  readonly targets: number;
  readonly referringDomains: number;
  readonly keywordSnapshots: number;
  /** The largest target, for the demo calls. */
  readonly topTarget: string;
}

const BATCH = 5_000;

/**
 * Fills an empty store with sample data.
 *
 * @example
 * ```ts
 * const store = await openSqliteStore({ file: 'sample.db' });
 * await seedSample(store, tldts, { links: 10_000, seed: 7 });
 * ```
 */
export async function seedSample(store: SqliteStore, parser: DomainParser, options: SampleOptions = {}): Promise<SampleStats> {
  const total = options.links ?? 100_000;
  const now = options.now ?? new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  const random = new Random(options.seed ?? 1);
  const world = makeWorld(random, total);
  const write = datasetWriter(store.db, parser);
  const db = store.db;
  // Seeding is a bulk load: a larger page cache and no fsync per transaction make it several times faster.
  const synchronous = db.pragma('synchronous', { simple: true });
  db.pragma('cache_size = -131072');
  db.pragma('synchronous = OFF');
  db.transaction(() => {
    world.targets.forEach((site, i) => write.domain({ domain: site.domain, ip_address: `192.0.2.${i % 250}`, country: 'US', domain_score: site.score }));
    for (const referrer of world.referrers) write.domain(referrer);
    for (const site of world.targets) writePages(site, write, random);
  })();
  writeLinks(db, write, world, random, now.getTime(), total, options.onProgress);
  let snapshots = 0;
  db.transaction(() => {
    for (const snapshot of keywordSnapshots(random, formatTimestamp(now).slice(0, 7))) {
      write.keyword(snapshot);
      snapshots++;
    }
  })();
  db.pragma(`synchronous = ${Number(synchronous)}`);
  db.pragma('optimize');
  return { links: total, targets: world.targets.length, referringDomains: world.referrers.length, keywordSnapshots: snapshots, topTarget: world.targets[0]!.domain };
}

/** The links, in batches; the link indexes are built once after the load, much faster than per row. */
function writeLinks(db: SqliteStore['db'], write: DatasetWriter, world: World, random: Random, now: number, total: number, onProgress: SampleOptions['onProgress']): void {
  const indexes = db.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'links' AND sql IS NOT NULL`).all() as { name: string; sql: string }[];
  for (const index of indexes) db.exec(`DROP INDEX "${index.name}"`);
  for (let done = 0; done < total; ) {
    const end = Math.min(total, done + BATCH);
    db.transaction(() => {
      for (let i = done; i < end; i++) {
        const target = world.targets[world.targetPick.draw(random)]!;
        const path = target.paths[world.pathPick.draw(random)]!;
        write.link(makeLink(random, target, path, world.referrers[world.referrerPick.draw(random)]!, now));
      }
    })();
    done = end;
    onProgress?.(done, total);
  }
  for (const index of indexes) db.exec(index.sql);
}

function writePages(site: { hosts: readonly string[]; paths: readonly string[]; brand: string; score: number }, write: DatasetWriter, random: Random): void {
  for (const host of site.hosts.slice(0, 2)) {
    for (const path of site.paths) {
      write.page({
        url: `https://${host}${path}`,
        title: `${site.brand} ${path === '/' ? 'home' : path.split('/').filter(Boolean).join(' ')}`,
        response_code: random.chance(0.95) ? 200 : 404,
        page_score: Math.max(0, Math.min(100, site.score - random.int(0, 40))),
        external_links_count: random.int(0, 60),
        internal_links_count: random.int(10, 300),
      });
    }
  }
}
