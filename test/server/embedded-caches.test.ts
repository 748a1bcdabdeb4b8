/**
 * What the embedded store keeps in memory between calls (the lists read ahead, the matrix's lists
 * and unions, the competitor graph) answers as a fresh read would: each part of a call that changes
 * the answer (operation, target, scope, filter, order, direction, the clock) gets its own answer,
 * and a load, incremental, in groups of one domain, or stopped half way and retried, is seen by
 * the next call. Expected answers are worked out by hand from the fixture (fixture.ts) and from the
 * few records each case adds; docs/scaling.md says what is kept and when it is forgotten.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockAt, type Clock } from '../../src/server/clock.js';
import { loadServerDeps, type DomainParser } from '../../src/server/deps.js';
import { forCall } from '../../src/server/store/call-signal.js';
import { openEmbeddedStore, type EmbeddedStore } from '../../src/server/store/embedded/embedded-store.js';
import { raw } from '../../src/server/store/sql/fragment.js';
import type { GroupedOperation, Page } from '../../src/server/store/store.js';
import { toTarget, type Scope } from '../../src/server/target.js';
import type { LinkInput } from '../../src/server/sample/dataset.js';
import { parseFilter } from '../../src/syntax/parse.js';
import * as fx from './fixture.js';
import { loadFixture } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'bq-embedded-caches-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newFile = () => join(dir, `store-${++files}.db`);

let parser: DomainParser;
beforeAll(async () => {
  parser = (await loadServerDeps()).tldts;
});

const NOW = clockAt(fx.NOW);
/** One second later: "new" starts at 2026-05-16T12:00:01, so B2 (first seen 12:00:00) is no longer new. */
const SECOND_LATER = clockAt(new Date(fx.NOW.getTime() + 1_000));

const target = (url: string, scope: Scope = 'ROOT_DOMAIN') => toTarget(url, scope, parser)!;
const page = (orderBy: string, direction: 'ASC' | 'DESC' = 'DESC', limit = 10, offset = 0): Page => ({ orderBy, direction, limit, offset });

interface Ask {
  readonly op?: GroupedOperation;
  readonly url?: string;
  readonly scope?: Scope;
  readonly filter?: string | null;
  readonly page?: Page;
  readonly clock?: Clock;
}

/** A list's total and each row's `pick` fields. */
async function list(store: EmbeddedStore, ask: Ask, pick: readonly string[]): Promise<{ total: number; rows: unknown[][] }> {
  const op = ask.op ?? 'links';
  const filter = ask.filter ?? null;
  const result = await store.grouped(op, {
    target: target(ask.url ?? 'example.com', ask.scope),
    page: ask.page ?? page('page_score'),
    filter: filter === null ? null : parseFilter(filter, { operation: op }),
    clock: ask.clock ?? NOW,
  });
  return { total: result.total, rows: result.rows.map((row) => pick.map((field) => (row as Record<string, unknown>)[field])) };
}

/** The matrix of ROOT_DOMAIN (or `scope`) targets by domain: each row's domain, matches and counts in the targets' order. */
async function matrix(store: EmbeddedStore, urls: readonly string[], scope: Scope = 'ROOT_DOMAIN'): Promise<unknown[][]> {
  const result = await store.matrix({ targets: urls.map((url) => target(url, scope)), page: page('domain', 'ASC', 100), filter: null });
  return result.rows.map((row) => [row.domain, row.matches_count, row.backlinks_counts]);
}

async function competitors(store: EmbeddedStore): Promise<unknown[][]> {
  const result = await store.competitors({ domain: 'example.com', page: page('domain', 'ASC') });
  return result.rows.map((row) => [row.domain, row.common_refdomains]);
}

async function withStore<T>(open: Promise<EmbeddedStore>, use: (store: EmbeddedStore) => Promise<T>): Promise<T> {
  const store = await open;
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

/** A fixture store in memory, refreshed one domain per group (every refresh of several domains has several groups). */
const fixtureStore = async () => {
  const store = await openEmbeddedStore({ groupLinks: 1 });
  await loadFixture(store);
  return store;
};

const simple = (source: string, targetUrl: string, extra: Partial<LinkInput> = {}): LinkInput => ({
  ...fx.rivalLinks[0]!,
  source_url: `https://${source}/`,
  target_url: targetUrl,
  source_domain: source,
  ip_address: '',
  ...extra,
});

/**
 * The second load of the cases below: epsilon.fr links to third.com (its fifth referring domain
 * shared with example.com: a competitor now), and kappa.com, a new referring domain, links to
 * example.com (nofollow, the highest page score, so first by page score).
 */
const SECOND_LOAD: LinkInput[] = [
  simple('epsilon.fr', 'https://third.com/'),
  simple('kappa.com', 'https://example.com/kappa', { is_nofollow: true, page_score: 99, first_seen_at: '2026-06-10T00:00:00' }),
];

/** example.com's nofollow links by page score: L4 gamma.io (70), L2 alpha.org (45), L3 beta.net (30). */
const NOFOLLOW = { total: 3, rows: [['https://gamma.io/review'], ['https://alpha.org/post-2'], ['https://beta.net/links']] };
/** After the second load, kappa.com's (99) first. */
const NOFOLLOW_AFTER = { total: 4, rows: [['https://kappa.com/'], ...NOFOLLOW.rows] };

describe('a list read ahead is kept per list: a call that differs in one part gets its own answer', () => {
  let store: EmbeddedStore;
  beforeAll(async () => {
    store = await fixtureStore();
  });
  afterAll(async () => {
    await store.close();
  });
  const urls = ['source_url'];

  it('the filter', async () => {
    expect(await list(store, { filter: 'is_nofollow = true' }, urls)).toEqual(NOFOLLOW);
    // L5 gamma.io (70), L1 alpha.org (50), L6 delta.de (20), L7 epsilon.fr (10).
    expect(await list(store, { filter: 'is_nofollow = false' }, urls)).toEqual({
      total: 4,
      rows: [['https://gamma.io/review'], ['https://alpha.org/post-1'], ['https://delta.de/a;b'], ['https://epsilon.fr/']],
    });
  });

  it('the order and its direction', async () => {
    const follow = 'is_nofollow = false AND page_score >= 10';
    // By page score, descending: L5 (70), L1 (50), L6 (20), L7 (10).
    expect(await list(store, { filter: follow, page: page('page_score') }, ['page_score'])).toEqual({ total: 4, rows: [[70], [50], [20], [10]] });
    // Ascending.
    expect(await list(store, { filter: follow, page: page('page_score', 'ASC') }, ['page_score'])).toEqual({ total: 4, rows: [[10], [20], [50], [70]] });
    // By first seen, descending: L6 (2026-06-01), L5 (2025-11-01), L1 (2024-01-10), L7 (2023-12-31).
    expect(await list(store, { filter: follow, page: page('first_seen_at') }, ['page_score'])).toEqual({ total: 4, rows: [[20], [70], [50], [10]] });
  });

  it('the target and its scope', async () => {
    const nofollow = 'is_nofollow = true AND page_score >= 0';
    expect(await list(store, { filter: nofollow }, urls)).toEqual(NOFOLLOW);
    // The host example.com alone: L4 (www. and blog. are other hosts).
    expect(await list(store, { filter: nofollow, scope: 'SUBDOMAIN' }, urls)).toEqual({ total: 1, rows: [['https://gamma.io/review']] });
    // rival.com: zeta.com's link only.
    expect(await list(store, { filter: nofollow, url: 'rival.com' }, urls)).toEqual({ total: 1, rows: [['https://zeta.com/']] });
  });

  it('the operation', async () => {
    const since = 'first_seen_at >= "2025-01-01T00:00:00"';
    // Links first seen since 2025 by first seen, ascending: L2 (2025-03-05), L4 and L5 (2025-11-01, by id), L3 (2026-05-20), L6 (2026-06-01).
    expect(await list(store, { filter: since, page: page('first_seen_at', 'ASC') }, ['first_seen_at'])).toEqual({
      total: 5,
      rows: [['2025-03-05T10:00:00'], ['2025-11-01T00:00:00'], ['2025-11-01T00:00:00'], ['2026-05-20T09:30:00'], ['2026-06-01T00:00:00']],
    });
    // Referring domains whose first link is from 2025 on: gamma.io, beta.net, delta.de (alpha.org's first is 2024-01-10).
    expect(await list(store, { op: 'ref-domains', filter: since, page: page('first_seen_at', 'ASC') }, ['domain'])).toEqual({
      total: 3,
      rows: [['gamma.io'], ['beta.net'], ['delta.de']],
    });
  });

  it('the clock, where the filter names is_new', async () => {
    const at = (clock: Clock) => list(store, { url: 'boundary.com', filter: 'is_new = true', page: page('first_seen_at', 'ASC'), clock }, ['anchor']);
    expect(await at(NOW)).toEqual({ total: 3, rows: [['B2'], ['B3'], ['B4']] });
    expect(await at(SECOND_LATER)).toEqual({ total: 2, rows: [['B3'], ['B4']] });
  });

  it('the clock, where the order is is_new', async () => {
    const at = (clock: Clock) => list(store, { url: 'boundary.com', filter: 'page_score >= 0', page: page('is_new', 'ASC'), clock }, ['anchor']);
    // Not new first (false before true), then by id.
    expect(await at(NOW)).toEqual({ total: 4, rows: [['B1'], ['B2'], ['B3'], ['B4']] });
    expect(await at(SECOND_LATER)).toEqual({ total: 4, rows: [['B1'], ['B2'], ['B3'], ['B4']] });
    const newest = (clock: Clock) => list(store, { url: 'boundary.com', filter: 'page_score >= 0', page: page('is_new', 'DESC', 1), clock }, ['anchor']);
    // New first: B2 at NOW, B3 one second later.
    expect(await newest(NOW)).toEqual({ total: 4, rows: [['B2']] });
    expect(await newest(SECOND_LATER)).toEqual({ total: 4, rows: [['B3']] });
  });

  it.each([
    ['links without a filter, default order', 'links', null, page('page_score'), 'anchor'],
    ['links, filtered, by first seen', 'links', 'page_score >= 0', page('first_seen_at', 'ASC'), 'anchor'],
    ['referring domains, by first seen', 'ref-domains', null, page('first_seen_at', 'ASC'), 'domain'],
  ] as const)('the clock, in the is_new of the rows kept: %s', async (_, op, filter, order, name) => {
    const at = async (clock: Clock) => {
      const { rows } = await list(store, { op, url: 'boundary.com', filter, page: order, clock }, [name, 'is_new']);
      return Object.fromEntries(rows as [string, boolean][]);
    };
    const names = op === 'links' ? ['B1', 'B2', 'B3', 'B4'] : ['second-before.org', 'on-the-second.org', 'second-after.org', 'next-midnight.org'];
    expect(await at(NOW)).toEqual(Object.fromEntries(names.map((n, i) => [n, i > 0])));
    expect(await at(SECOND_LATER)).toEqual(Object.fromEntries(names.map((n, i) => [n, i > 1])));
  });
});

describe('the matrix keeps each target list and each union under its own targets', () => {
  let store: EmbeddedStore;
  beforeAll(async () => {
    store = await fixtureStore();
  });
  afterAll(async () => {
    await store.close();
  });

  it('the targets and their order', async () => {
    // example.com: alpha.org 2 links, beta.net 1, delta.de 1, epsilon.fr 1, gamma.io 2; rival.com: those five and zeta.com, 1 each.
    expect(await matrix(store, ['example.com', 'rival.com'])).toEqual([
      ['alpha.org', 2, [2, 1]],
      ['beta.net', 2, [1, 1]],
      ['delta.de', 2, [1, 1]],
      ['epsilon.fr', 2, [1, 1]],
      ['gamma.io', 2, [2, 1]],
      ['zeta.com', 1, [0, 1]],
    ]);
    expect(await matrix(store, ['rival.com', 'example.com'])).toEqual([
      ['alpha.org', 2, [1, 2]],
      ['beta.net', 2, [1, 1]],
      ['delta.de', 2, [1, 1]],
      ['epsilon.fr', 2, [1, 1]],
      ['gamma.io', 2, [1, 2]],
      ['zeta.com', 1, [1, 0]],
    ]);
    // third.com: alpha.org, beta.net, gamma.io, delta.de.
    expect(await matrix(store, ['example.com', 'third.com'])).toEqual([
      ['alpha.org', 2, [2, 1]],
      ['beta.net', 2, [1, 1]],
      ['delta.de', 2, [1, 1]],
      ['epsilon.fr', 1, [1, 0]],
      ['gamma.io', 2, [2, 1]],
    ]);
  });

  it('two hosts of one registrable domain', async () => {
    // The host example.com: L1 alpha.org, L4 and L5 gamma.io, L6 delta.de, L7 epsilon.fr; blog.example.com: L3 beta.net.
    expect(await matrix(store, ['example.com', 'blog.example.com'], 'SUBDOMAIN')).toEqual([
      ['alpha.org', 1, [1, 0]],
      ['beta.net', 1, [0, 1]],
      ['delta.de', 1, [1, 0]],
      ['epsilon.fr', 1, [1, 0]],
      ['gamma.io', 1, [2, 0]],
    ]);
  });

  it('a target no domain links to', async () => {
    expect(await matrix(store, ['nolinks.com', 'third.com'])).toEqual([
      ['alpha.org', 1, [0, 1]],
      ['beta.net', 1, [0, 1]],
      ['delta.de', 1, [0, 1]],
      ['gamma.io', 1, [0, 1]],
    ]);
  });
});

describe('a load is seen by the next call', () => {
  it('of every list, the matrix and competitors, after an incremental load in groups of one domain', async () => {
    await withStore(fixtureStore(), async (store) => {
      const nofollow = { filter: 'is_nofollow = true' };
      // rival.com, by page score: six links of page score 10, by id.
      const rivalPage = { url: 'rival.com', scope: 'PAGE' as const, filter: null, page: page('page_score') };
      expect(await list(store, nofollow, ['source_url'])).toEqual(NOFOLLOW);
      expect((await list(store, { op: 'ref-domains', page: page('domain', 'ASC') }, ['domain'])).total).toBe(5);
      expect(await matrix(store, ['example.com', 'rival.com'])).toHaveLength(6);
      // rival.com and other.co.uk share 5 referring domains each; third.com only 4.
      expect(await competitors(store)).toEqual([['other.co.uk', 5], ['rival.com', 5]]);
      expect((await list(store, rivalPage, ['source_url'])).total).toBe(6);

      const writer = await store.writer();
      await writer.links(SECOND_LOAD);
      await writer.finish();

      expect(await list(store, nofollow, ['source_url'])).toEqual(NOFOLLOW_AFTER);
      expect(await list(store, { op: 'ref-domains', page: page('domain', 'ASC') }, ['domain'])).toEqual({
        total: 6,
        rows: [['alpha.org'], ['beta.net'], ['delta.de'], ['epsilon.fr'], ['gamma.io'], ['kappa.com']],
      });
      expect(await matrix(store, ['example.com', 'rival.com'])).toEqual([
        ['alpha.org', 2, [2, 1]],
        ['beta.net', 2, [1, 1]],
        ['delta.de', 2, [1, 1]],
        ['epsilon.fr', 2, [1, 1]],
        ['gamma.io', 2, [2, 1]],
        ['kappa.com', 1, [1, 0]],
        ['zeta.com', 1, [0, 1]],
      ]);
      // third.com's fifth shared referring domain; kappa.com links to example.com alone.
      expect(await competitors(store)).toEqual([['other.co.uk', 5], ['rival.com', 5], ['third.com', 5]]);
      // Untouched by the load.
      expect(await list(store, { filter: 'is_nofollow = true', url: 'rival.com' }, ['source_url'])).toEqual({ total: 1, rows: [['https://zeta.com/']] });
      expect((await list(store, rivalPage, ['source_url'])).total).toBe(6);
      expect((await list(store, { url: 'third.com', filter: 'page_score >= 0' }, ['source_url'])).total).toBe(5);
    });
  });

  it('after a refresh that stopped at its second group, of the same load again on the same store', async () => {
    await withStore(fixtureStore(), async (store) => {
      const first = await store.writer();
      await first.links(SECOND_LOAD);
      // Two domains, example.com and third.com, a group each: the first group is set aside before the second stops.
      await expect(
        first.finish({
          onProgress: () => {
            throw new Error('stopped');
          },
        }),
      ).rejects.toThrow('stopped');
      expect(await list(store, { filter: 'is_nofollow = true' }, ['source_url'])).toEqual(NOFOLLOW);
      const again = await store.writer();
      await again.links(SECOND_LOAD);
      await again.finish();
      expect(await list(store, { filter: 'is_nofollow = true' }, ['source_url'])).toEqual(NOFOLLOW_AFTER);
      expect(await competitors(store)).toEqual([['other.co.uk', 5], ['rival.com', 5], ['third.com', 5]]);
    });
  });

  it('when a domain record changes: every target its referring domain links to, past the first thousand referring domains', async () => {
    await withStore(openEmbeddedStore({}), async (store) => {
      // 1,001 referring domains with records; d0999.com links to z.com, d0000.com to y.com, no other links.
      const names = Array.from({ length: 1_001 }, (_, i) => `d${String(i).padStart(4, '0')}.com`);
      const records = (score: number) => names.map((domain) => ({ domain, ip_address: '192.0.2.1', country: 'US', domain_score: score }));
      const writer = await store.writer();
      await writer.domains(records(10));
      await writer.links([simple('d0999.com', 'https://z.com/'), simple('d0000.com', 'https://y.com/')]);
      await writer.finish();
      const scores = async (url: string) => (await list(store, { op: 'ref-domains', url, page: page('domain', 'ASC') }, ['domain', 'domain_score'])).rows;
      expect(await scores('z.com')).toEqual([['d0999.com', 10]]);
      const update = await store.writer();
      await update.domains(records(77));
      await update.finish();
      expect(await scores('z.com')).toEqual([['d0999.com', 77]]);
      expect(await scores('y.com')).toEqual([['d0000.com', 77]]);
    });
  });
});

describe('failures are not kept', () => {
  it('a competitors call abandoned while the graph is read: the next call reads it', async () => {
    await withStore(fixtureStore(), async (store) => {
      const gone = new AbortController();
      gone.abort();
      await expect(forCall(gone.signal, () => competitors(store))).rejects.toMatchObject({ name: 'QueryCancelledError' });
      expect(await competitors(store)).toEqual([['other.co.uk', 5], ['rival.com', 5]]);
    });
  });
});

describe('the column file on disk', () => {
  it('is not served after a refresh that failed once its rows were in place (the load rolled back)', async () => {
    const file = newFile();
    await withStore(openEmbeddedStore({ file, readers: 1 }), async (store) => {
      await loadFixture(store);
      const writer = await store.writer();
      await writer.links(SECOND_LOAD);
      // The last progress call comes after the columns are moved into place.
      const stop = (done: number, total: number) => {
        if (done === total) throw new Error('stopped');
      };
      await expect(writer.finish({ onProgress: stop })).rejects.toThrow('stopped');
    });
    await withStore(openEmbeddedStore({ file, readers: 1 }), async (store) => {
      expect(await list(store, { filter: 'is_nofollow = true' }, ['source_url'])).toEqual(NOFOLLOW);
    });
  });

  it("is not another SQLite file's, even of the same generation", async () => {
    const [mine, theirs] = [newFile(), newFile()];
    await withStore(openEmbeddedStore({ file: mine, readers: 1 }), loadFixture);
    await withStore(openEmbeddedStore({ file: theirs, readers: 1 }), async (store) => {
      const writer = await store.writer();
      await writer.links(SECOND_LOAD);
      await writer.finish();
    });
    copyFileSync(`${theirs}.duckdb`, `${mine}.duckdb`);
    await withStore(openEmbeddedStore({ file: mine, readers: 1 }), async (store) => {
      expect(await list(store, { filter: 'is_nofollow = true' }, ['source_url'])).toEqual(NOFOLLOW);
    });
  });

  it('waits for a write under way when it closes', async () => {
    const store = await openEmbeddedStore({});
    const write = store.columns.transaction([raw('CREATE TABLE squares AS SELECT range * range AS n FROM range(2000000)')]);
    // The write has begun (it waits for nothing before it): close waits for its commit.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await store.close();
    await expect(write).resolves.toBeUndefined();
  });
});

describe('more links than a chunk of the column side (2,048)', () => {
  it('are all copied, the last partial chunk too', async () => {
    await withStore(openEmbeddedStore({}), async (store) => {
      // 2,100 links to big.com, link i with page score i % 100 and nofollow when i % 2 = 0: 1,050 nofollow,
      // and page_score >= 99 for i = 99, 199, ..., 2099: 21 links, all odd (follow).
      const links = Array.from({ length: 2_100 }, (_, i) => simple(`s${i}.com`, `https://big.com/p${i % 7}`, { page_score: i % 100, is_nofollow: i % 2 === 0 }));
      const writer = await store.writer();
      await writer.links(links);
      await writer.finish();
      expect((await list(store, { url: 'big.com', filter: 'is_nofollow = true' }, [])).total).toBe(1_050);
      expect((await list(store, { url: 'big.com', filter: 'page_score >= 99 AND is_nofollow = false' }, [])).total).toBe(21);
      expect((await list(store, { url: 'big.com', filter: 'page_score >= 99 AND is_nofollow = true' }, [])).total).toBe(0);
    });
  });
});
