/**
 * The calls the benchmark makes: each operation's default call on the largest target, plus a
 * filtered, sorted `links` call. One definition serves the HTTP load (path and query string) and
 * the direct in-process run (the same query through the server's own validation).
 */
import { operations, type OperationName } from '../../src/catalogue/operations.js';
import { clockAt } from '../../src/server/clock.js';
import { makeWorld } from '../../src/server/sample/world.js';
import { Random } from '../../src/server/sample/random.js';
import type { Store } from '../../src/server/store/store.js';
import { toTarget } from '../../src/server/target.js';
import type { DomainParser } from '../../src/server/deps.js';

/** One benchmarked call. */
export interface BenchCall {
  /** The row name in the report. */
  readonly name: string;
  readonly operation: OperationName;
  /** Query parameters as a client sends them. */
  readonly query: Readonly<Record<string, string>>;
}

/** The filter and sort of the filtered `links` call. */
export const LINKS_FILTER = 'domain_score > 50 AND is_nofollow = false';

/** A keyword every sample database holds (KEYWORD_HEADS x KEYWORD_TAILS), in a country it has. */
export const SAMPLE_KEYWORD = { keyword: 'seo tools', country: 'US' } as const;

/** The targets the calls name: the largest first. */
export interface BenchTargets {
  /** The largest targets by backlinks, largest first (at least three). */
  readonly largest: readonly { readonly domain: string; readonly backlinks: number }[];
}

/** Path and query string of a call. */
export function callPath(call: BenchCall): string {
  return `${operations[call.operation].path}?${new URLSearchParams(call.query).toString()}`;
}

/**
 * The thirteen calls: the twelve operations' default calls (url = the largest target, scope
 * ROOT_DOMAIN; comparison on the two largest targets, matrix on the three largest, competitors of
 * the largest, metrics of a sample keyword in the US), and `links` filtered and sorted.
 */
export function benchCalls(targets: BenchTargets): BenchCall[] {
  const [top, second, third] = targets.largest.map((t) => t.domain);
  if (!top || !second || !third) throw new Error('The benchmark needs at least three targets.');
  const target = { url: top, scope: 'ROOT_DOMAIN' };
  return [
    { name: 'overview', operation: 'overview', query: target },
    { name: 'summary', operation: 'summary', query: target },
    { name: 'links', operation: 'links', query: target },
    {
      name: 'links (filtered, sorted)',
      operation: 'links',
      query: { ...target, filter: LINKS_FILTER, order_by: 'first_seen_at', direction: 'ASC' },
    },
    { name: 'ref-domains', operation: 'ref-domains', query: target },
    { name: 'ref-ips', operation: 'ref-ips', query: target },
    { name: 'pages', operation: 'pages', query: target },
    { name: 'anchors', operation: 'anchors', query: target },
    { name: 'score-profile', operation: 'score-profile', query: target },
    { name: 'competitors', operation: 'competitors', query: { domain: top } },
    { name: 'comparison (2 urls)', operation: 'comparison', query: { urls: `${top},${second}`, scope: 'ROOT_DOMAIN' } },
    { name: 'matrix (3 urls)', operation: 'matrix', query: { urls: `${top},${second},${third}`, scope: 'ROOT_DOMAIN' } },
    { name: 'metrics', operation: 'metrics', query: { ...SAMPLE_KEYWORD } },
  ];
}

/** The mixed load: the twelve operations' default calls (the filtered `links` call left out). */
export const mixedCalls = (calls: readonly BenchCall[]): BenchCall[] => calls.filter((call) => call.name !== 'links (filtered, sorted)');

/**
 * The largest targets of a sample database. The generator draws targets with a Zipf law over its
 * list of sites (the first site, example.com, is the most linked), so the first sites of the same
 * seed's world are the candidates; their backlink counts are read from the store (overview), and
 * the three largest are kept.
 */
export async function largestTargets(store: Store, parser: DomainParser, options: { links: number; seed: number; now: Date }): Promise<BenchTargets> {
  // seedSample draws its world first from a fresh Random(seed): the same world comes back here.
  const world = makeWorld(new Random(options.seed), options.links);
  const candidates = world.targets.slice(0, 10).map((site) => site.domain);
  const clock = clockAt(options.now);
  const counted: { domain: string; backlinks: number }[] = [];
  for (const domain of candidates) {
    const target = toTarget(domain, 'ROOT_DOMAIN', parser);
    if (!target) throw new Error(`The sample target ${domain} is not a valid target.`);
    const record = await store.overview(target, clock);
    counted.push({ domain, backlinks: record.backlinks_count });
  }
  counted.sort((a, b) => b.backlinks - a.backlinks || a.domain.localeCompare(b.domain));
  if (counted[0]!.backlinks === 0) throw new Error(`The database has no links to the sample's targets (${candidates.slice(0, 3).join(', ')}...): was it seeded with --seed ${options.seed}?`);
  return { largest: counted.slice(0, 3) };
}
