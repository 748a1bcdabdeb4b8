/**
 * The deterministic sample generator: the same `links`, `seed` and `now` give the same database
 * on every machine. Heavy-tailed links per target and per referring domain, IPs clustered in
 * class-C subnets, three years of first/last seen, lost links, and keyword metrics.
 *
 * @module
 */
import { formatTimestamp } from '../clock.js';
import type { DomainParser } from '../deps.js';
import type { GraphWriter, Store } from '../store/store.js';
import type { DomainInput, KeywordSnapshotInput, LinkInput, TargetPageInput } from './dataset.js';
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
  /**
   * Called as each phase after the links begins: `keywords` (the keyword metrics are written), then
   * `finish` (the writer's finish: the store's indexes, then the rollups).
   */
  readonly onPhase?: (phase: 'keywords' | 'finish') => void;
  /** Called during `finish` with the domains whose rollups are built so far (the writer's `onProgress`). */
  readonly onRollups?: (done: number, total: number) => void;
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
 * Fills an empty store with sample data, through the store's bulk writer (the path `import` takes).
 *
 * @example
 * ```ts
 * const store = await openSqliteStore({ file: 'sample.db' });
 * await seedSample(store, tldts, { links: 10_000, seed: 7 });
 * ```
 */
export async function seedSample(store: Store, parser: DomainParser, options: SampleOptions = {}): Promise<SampleStats> {
  void parser; // the store derives registrable domains with its own parser
  const writer = await store.writer();
  const graph = await writeGraph(writer, options);
  options.onPhase?.('keywords');
  const snapshots = graph.keywordSnapshots();
  await inBatches(writer.keywords, snapshots);
  options.onPhase?.('finish');
  await writer.finish(options.onRollups ? { onProgress: options.onRollups } : {});
  const { links, targets, referringDomains, topTarget } = graph.stats;
  return { links, targets, referringDomains, keywordSnapshots: snapshots.length, topTarget };
}

/** The sample without its keyword metrics, which {@link seedSampleGraph} leaves to its caller. */
export interface SampleGraph {
  /** What was written (the keyword snapshots are not). */
  readonly stats: Omit<SampleStats, 'keywordSnapshots'>;
  /**
   * The keyword snapshots {@link seedSample} writes for the same options, drawn on the first call
   * (the same array after it), for the caller to write with `GraphWriter.keywords`.
   */
  keywordSnapshots(): readonly KeywordSnapshotInput[];
}

/**
 * Fills an empty store with the sample's links, domains and pages as {@link seedSample} does,
 * without the keyword metrics (about 67,000 snapshots whatever `links`; what they cost:
 * bench/RESULTS.md, section "Starting the test service"): they are drawn when asked for, after
 * everything else, from the random source where {@link seedSample} draws them, so the same options
 * give the same snapshots. The test service (`backlink-query/testing`) writes them on its first
 * keyword read.
 *
 * @example
 * ```ts
 * const graph = await seedSampleGraph(store, { links: 1_000 });
 * const writer = await store.writer();
 * await writer.keywords(graph.keywordSnapshots());
 * await writer.finish();
 * ```
 */
export async function seedSampleGraph(store: Store, options: Omit<SampleOptions, 'onPhase'> = {}): Promise<SampleGraph> {
  const writer = await store.writer();
  const graph = await writeGraph(writer, options);
  await writer.finish(options.onRollups ? { onProgress: options.onRollups } : {});
  return graph;
}

/** The links, domains and pages through `writer` (not finished), and the keyword snapshots to draw next. */
async function writeGraph(writer: GraphWriter, options: SampleOptions): Promise<SampleGraph> {
  const total = options.links ?? 100_000;
  const now = options.now ?? new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  const random = new Random(options.seed ?? 1);
  const world = makeWorld(random, total);
  const domains: DomainInput[] = world.targets.map((site, i) => ({ domain: site.domain, ip_address: `192.0.2.${i % 250}`, country: 'US', domain_score: site.score }));
  await inBatches(writer.domains, [...domains, ...world.referrers]);
  await inBatches(writer.pages, world.targets.flatMap((site) => sitePages(site, random)));
  await writeLinks(writer, world, random, now.getTime(), total, options.onProgress);
  // The keyword snapshots are the last draws of the random source: drawn later, they are the same.
  let snapshots: KeywordSnapshotInput[] | undefined;
  return {
    stats: { links: total, targets: world.targets.length, referringDomains: world.referrers.length, topTarget: world.targets[0]!.domain },
    keywordSnapshots: () => (snapshots ??= [...keywordSnapshots(random, formatTimestamp(now).slice(0, 7))]),
  };
}

async function inBatches<T>(write: (rows: readonly T[]) => Promise<void>, rows: readonly T[]): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await write(rows.slice(i, i + BATCH));
}

/** The links, drawn and written in batches: memory stays flat whatever the total. */
async function writeLinks(writer: GraphWriter, world: World, random: Random, now: number, total: number, onProgress: SampleOptions['onProgress']): Promise<void> {
  for (let done = 0; done < total; ) {
    const end = Math.min(total, done + BATCH);
    const batch: LinkInput[] = [];
    for (let i = done; i < end; i++) {
      const target = world.targets[world.targetPick.draw(random)]!;
      const path = target.paths[world.pathPick.draw(random)]!;
      batch.push(makeLink(random, target, path, world.referrers[world.referrerPick.draw(random)]!, now));
    }
    await writer.links(batch);
    done = end;
    onProgress?.(done, total);
  }
}

function sitePages(site: { hosts: readonly string[]; paths: readonly string[]; brand: string; score: number }, random: Random): TargetPageInput[] {
  const pages: TargetPageInput[] = [];
  for (const host of site.hosts.slice(0, 2)) {
    for (const path of site.paths) {
      pages.push({
        url: `https://${host}${path}`,
        title: `${site.brand} ${path === '/' ? 'home' : path.split('/').filter(Boolean).join(' ')}`,
        response_code: random.chance(0.95) ? 200 : 404,
        page_score: Math.max(0, Math.min(100, site.score - random.int(0, 40))),
        external_links_count: random.int(0, 60),
        internal_links_count: random.int(10, 300),
      });
    }
  }
  return pages;
}
