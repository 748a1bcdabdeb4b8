/**
 * What the embedded store keeps in memory between calls (the lists read ahead, the matrix's lists
 * and unions, the competitor graph) answers as a fresh read would: each part of a call that changes
 * the answer (operation, target, scope, filter, order, direction, the clock) gets its own answer,
 * and a read that failed is not kept. Expected answers are worked out by hand from the fixture
 * (fixture.ts); docs/scaling.md says what is kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../../../../src/server/clock.js';
import { forCall } from '../../../../../src/server/store/call-signal.js';
import type { EmbeddedStore } from '../../../../../src/server/store/engines/embedded/embedded-store.js';
import { competitors, fixtureStore, list, matrix, NOFOLLOW, NOW, page, SECOND_LATER, withStore } from './embedded-helpers.js';

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

  it('a subfolder below the host, which has no rollup key, is counted from the links', async () => {
    // example.com/blog: gamma.io's two links (to /blog and /blog/); /blogging, /?ref=1, the root and www.example.com are not in it.
    expect(await matrix(store, ['example.com/blog'], 'SUBFOLDER')).toEqual([['gamma.io', 1, [2]]]);
    // Beside a target with a key: example.com's own list.
    expect(await matrix(store, ['example.com/blog', 'example.com/'], 'SUBFOLDER')).toEqual([
      ['alpha.org', 1, [0, 1]],
      ['delta.de', 1, [0, 1]],
      ['epsilon.fr', 1, [0, 1]],
      ['gamma.io', 2, [2, 2]],
    ]);
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

describe('failures are not kept', () => {
  it('a competitors call abandoned while the graph is read: the next call reads it', async () => {
    await withStore(fixtureStore(), async (store) => {
      const gone = new AbortController();
      // Abandoned once its first read of the graph has begun: the graph's next read is refused.
      const abandoned = forCall(gone.signal, () => competitors(store));
      gone.abort();
      await expect(abandoned).rejects.toMatchObject({ name: 'QueryCancelledError' });
      expect(await competitors(store)).toEqual([['other.co.uk', 5], ['rival.com', 5]]);
    });
  });
});
