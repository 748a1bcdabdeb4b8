/**
 * The rollup differential suite, shared by every store: generated data (with the fixture, and
 * links with unknown values: no IP, a referring domain without a record or a country) is answered
 * from the rollups and from the links grouped per call (the slow, obviously right path of `createSqlStore`
 * with `rollups: false`), for every operation, scope, generated filter and page, and the answers
 * must be equal; then links are re-imported changed (lost, moved in time, new ones) and the same
 * holds, importing the same links again changes nothing, and rewriting referring domains' data
 * (country, score) without any link keeps the answers equal too.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FilterNode } from '../../../../src/ast/nodes.js';
import { operations } from '../../../../src/catalogue/operations.js';
import { loadServerDeps } from '../../../../src/server/deps.js';
import { clockAt } from '../../../../src/server/clock.js';
import { seedSample } from '../../../../src/server/sample/generate.js';
import type { LinkInput } from '../../../../src/server/store/inputs.js';
import type { Clock, GroupedOperation, Page, Store } from '../../../../src/server/store/store.js';
import { toTarget, type Scope, type Target } from '../../../../src/server/target.js';
import { filterAstArbitrary, valuePools } from '../../../../src/testing/index.js';
import * as fx from '../../support/fixture.js';
import { loadFixture } from '../../support/helpers.js';

/** Two views of one database: answered from the rollups, and from the links. */
export interface StorePair {
  readonly rollups: Store;
  readonly links: Store;
  close(): Promise<void>;
}

const NOW = new Date('2026-06-15T00:00:00Z');
const GROUPED: readonly GroupedOperation[] = ['links', 'ref-domains', 'ref-ips', 'pages', 'anchors'];
/** Generated cases per operation and target; `ROLLUP_RUNS` overrides every store's own count. */
const RUNS_OVERRIDE = process.env['ROLLUP_RUNS'] === undefined ? undefined : Number(process.env['ROLLUP_RUNS']);

const scalarFields = (operation: string) =>
  Object.entries(operations[operation as 'links'].record)
    .filter(([, spec]) => !spec.type.endsWith('[]'))
    .map(([name]) => name);

async function compareAll(pair: StorePair, targets: readonly Target[], domains: readonly string[], seed: number, runs: number): Promise<void> {
  const clock: Clock = clockAt(NOW);
  for (const target of targets) {
    const label = `${target.scope} ${target.effectiveUrl}`;
    expect(await pair.rollups.overview(target, clock), `overview ${label}`).toEqual(await pair.links.overview(target, clock));
    expect(await pair.rollups.scoreProfile(target), `score-profile ${label}`).toEqual(await pair.links.scoreProfile(target));
    for (const [from, to, limit] of [[undefined, '2026-06', 12], [undefined, '2026-06', 100], ['2023-01', '2026-06', 7], ['2025-02', '2025-09', 3], [undefined, '2022-01', 12]] as const) {
      if (target.scope === 'SUBFOLDER') continue;
      const query = { target, from, to, limit };
      expect(await pair.rollups.summary(query), `summary ${label} ${from}..${to}`).toEqual(await pair.links.summary(query));
    }
    for (const operation of GROUPED) {
      const reference = await pair.links.grouped(operation, { target, page: { orderBy: scalarFields(operation)[0]!, direction: 'ASC', limit: 10_000, offset: 0 }, filter: null, clock });
      const pools = valuePools(reference.rows as Record<string, unknown>[]);
      const page = fc.record({
        orderBy: fc.constantFrom(...scalarFields(operation)),
        direction: fc.constantFrom('ASC' as const, 'DESC' as const),
        limit: fc.integer({ min: 1, max: 40 }),
        offset: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: reference.total + 5 })),
      });
      const filter = fc.option(filterAstArbitrary(operation, { pools, maxConditions: 6, maxDepth: 2 }), { freq: 3 });
      await fc.assert(
        fc.asyncProperty(page, filter, async (p: Page, f: FilterNode | null) => {
          const query = { target, page: p, filter: f, clock };
          expect(await pair.rollups.grouped(operation, query), `${operation} ${label}`).toEqual(await pair.links.grouped(operation, query));
        }),
        { seed, numRuns: runs },
      );
    }
  }
  const page: Page = { orderBy: 'similarity', direction: 'DESC', limit: 100, offset: 0 };
  for (const domain of domains) {
    expect(await pair.rollups.competitors({ domain, page }), `competitors ${domain}`).toEqual(await pair.links.competitors({ domain, page }));
  }
  const matrixTargets = targets.filter((t) => t.scope !== 'SUBFOLDER');
  const pools = valuePools([]);
  await fc.assert(
    fc.asyncProperty(
      fc.shuffledSubarray(matrixTargets, { minLength: 1, maxLength: 4 }),
      fc.constantFrom('matches_count', 'domain', 'domain_score', 'country'),
      fc.constantFrom('ASC' as const, 'DESC' as const),
      fc.integer({ min: 1, max: 60 }),
      fc.integer({ min: 0, max: 30 }),
      async (chosen, orderBy, direction, limit, offset) => {
        const filter = fc.sample(fc.option(filterAstArbitrary('matrix', { targets: chosen.length, pools, maxConditions: 4, maxDepth: 2 })), { numRuns: 1, seed: limit })[0] ?? null;
        const query = { targets: chosen, page: { orderBy, direction, limit, offset }, filter };
        expect(await pair.rollups.matrix(query)).toEqual(await pair.links.matrix(query));
      },
    ),
    { seed, numRuns: runs },
  );
}

/**
 * Unknown values, as an export without IPs stores them: links to example.com with an empty IP, from
 * a referring domain without a record (no known score) and from one whose record has no country on
 * alpha.org's IP (whose country, US, is the IP's only known one).
 */
const UNKNOWN_LINKS: LinkInput[] = [
  { ...fx.exampleLinks[0]!, source_url: 'https://no-ip.test/1', source_domain: 'no-ip.test', ip_address: '' },
  { ...fx.exampleLinks[1]!, source_url: 'https://no-ip.test/2', source_domain: 'no-ip.test', ip_address: '' },
  { ...fx.exampleLinks[0]!, source_url: 'https://no-country.test/', source_domain: 'no-country.test', ip_address: '198.51.100.1' },
  { ...fx.exampleLinks[2]!, source_url: 'https://no-country.test/x', source_domain: 'no-country.test', ip_address: '' },
];
const UNKNOWN_DOMAINS = [{ domain: 'no-country.test', ip_address: '', country: '', domain_score: 3 }];

/** Changed copies of links: some lost, some seen later, some with a new anchor (a new link). */
function changed(links: readonly LinkInput[]): LinkInput[] {
  return links.map((link, i) => {
    switch (i % 4) {
      case 0:
        return { ...link, is_lost: !link.is_lost, last_seen_at: '2025-03-10T00:00:00' };
      case 1:
        return { ...link, first_seen_at: '2026-06-01T10:00:00', last_seen_at: '2026-06-14T00:00:00', is_nofollow: !link.is_nofollow };
      case 2:
        return { ...link, anchor: `${link.anchor} (new)`, page_score: 99 };
      default:
        return { ...link, is_lost: true, last_seen_at: '2019-01-01T00:00:00' }; // last seen before first seen: never live
    }
  });
}

/** How long one store's suite may take, and how many cases it generates. */
export interface SuiteOptions {
  /** The test's time bound (a store that answers over HTTP takes minutes for the thousands of calls). */
  readonly timeoutMs?: number;
  /**
   * Generated pages and filters per operation and target, and matrix calls, in each of the four
   * comparisons (default 25; `ROLLUP_RUNS` overrides it).
   */
  readonly runs?: number;
}

/**
 * Registers the suite for one store.
 *
 * @param open a fresh, empty pair of views of one new database
 */
export function rollupSuite(name: string, open: () => Promise<StorePair>, options: SuiteOptions = {}): void {
  const runs = RUNS_OVERRIDE ?? options.runs ?? 25;
  describe(`rollups equal the links (${name})`, () => {
    it('on generated data, every operation, scope, filter and page; after a changed re-import; unchanged by the same import', async () => {
      const { tldts } = await loadServerDeps();
      const pair = await open();
      try {
        const stats = await seedSample(pair.rollups, tldts, { links: 2_500, seed: 11, now: NOW });
        await loadFixture(pair.rollups);
        const unknown = await pair.rollups.writer();
        await unknown.domains(UNKNOWN_DOMAINS);
        await unknown.links(UNKNOWN_LINKS);
        await unknown.finish();
        const top = stats.topTarget;
        const urls: [string, Scope][] = [
          [top, 'ROOT_DOMAIN'], [`www.${top}`, 'SUBDOMAIN'], [`blog.${top}`, 'SUBDOMAIN'], [`${top}/`, 'PAGE'], [`www.${top}/about`, 'PAGE'],
          [`${top}/`, 'SUBFOLDER'], ['example.com', 'ROOT_DOMAIN'], ['example.com/blog', 'SUBFOLDER'], ['example.com/?ref=1', 'PAGE'],
          ['blog.other.co.uk', 'SUBDOMAIN'], ['nothing-here.org', 'ROOT_DOMAIN'],
        ];
        const targets = urls.map(([url, scope]) => toTarget(url, scope, tldts)!);
        const domains = [top, 'example.com', 'rival.com', 'other.co.uk', 'nothing-here.org'];
        await compareAll(pair, targets, domains, 1, runs);

        const exampleTarget = toTarget('example.com', 'ROOT_DOMAIN', tldts)!;
        const exampleBefore = (await pair.links.overview(exampleTarget, clockAt(NOW))).backlinks_count;
        const writer = await pair.rollups.writer();
        await writer.links(changed([...fx.exampleLinks, ...fx.rivalLinks, ...fx.otherLinks]));
        const reimport = await writer.finish();
        expect(reimport.domains).toBe(3); // example.com, rival.com, other.co.uk
        await compareAll(pair, targets, domains, 2, runs);

        const clock = clockAt(NOW);
        const before = await Promise.all(targets.map((t) => pair.rollups.overview(t, clock)));
        const again = await pair.rollups.writer();
        await again.links(changed([...fx.exampleLinks, ...fx.rivalLinks, ...fx.otherLinks]));
        await again.finish();
        expect(await Promise.all(targets.map((t) => pair.rollups.overview(t, clock)))).toEqual(before);
        // Of the fixture's 7 example.com links, the changed copies of L3 and L7 carry a new anchor: 2 new links.
        expect((await pair.links.overview(exampleTarget, clock)).backlinks_count).toBe(exampleBefore + 2);

        // Referring domains' own data changes without any link: the rollups that keep it (the
        // country of an IP, the score profile) follow.
        const topTarget = targets[0]!;
        const referrers = await pair.links.grouped('ref-domains', { target: topTarget, page: { orderBy: 'domain', direction: 'ASC', limit: 40, offset: 0 }, filter: null, clock });
        const profileBefore = await pair.links.scoreProfile(topTarget);
        const retold = await pair.rollups.writer();
        await retold.domains(
          referrers.rows.map((row, i) => ({
            domain: row.domain,
            ip_address: i % 3 === 0 ? `203.0.113.${i}` : row.ip_address,
            country: i % 2 === 0 ? 'AA' : 'ZZ',
            domain_score: (row.domain_score + 37) % 101,
          })),
        );
        const retoldStats = await retold.finish();
        expect(retoldStats.domains).toBeGreaterThan(1); // the top target and the others these referrers link to
        expect(await pair.links.scoreProfile(topTarget)).not.toEqual(profileBefore);
        await compareAll(pair, targets, domains, 3, runs);

        // Target pages' own data changes without any link: the pages rollup, which keeps it, follows.
        const pagesOf = () => pair.links.grouped('pages', { target: topTarget, page: { orderBy: 'source_url', direction: 'ASC', limit: 12, offset: 0 }, filter: null, clock });
        const linkedPages = await pagesOf();
        const repaged = await pair.rollups.writer();
        await repaged.pages(
          linkedPages.rows.map((row, i) => ({ url: row.source_url, title: `Page ${i} retold`, response_code: 404, page_score: i, external_links_count: 100 + i, internal_links_count: i })),
        );
        expect((await repaged.finish()).domains).toBe(1);
        expect((await pagesOf()).rows.map((row) => row.source_title)).toContain('Page 0 retold');
        await compareAll(pair, targets, domains, 4, runs);
      } finally {
        await pair.close();
      }
    }, options.timeoutMs);
  });
}
