/**
 * The 30-day "new" window at its edge, over HTTP on the store of the run (every server project:
 * embedded, SQLite, PostgreSQL, ClickHouse). The fixture's boundary.com has four links, each from a
 * referring domain of its own (fixture.ts, `boundaryLinks`); NOW is 2026-06-15T12:00:00Z, so "new"
 * starts at 2026-05-16T12:00:00 (docs/operations.md: first seen at or after now minus 30 days):
 *
 * | link | first seen | referring domain | new |
 * | --- | --- | --- | --- |
 * | B1 /news/a | 2026-05-16T11:59:59 (one second before) | second-before.org | no |
 * | B2 /news/b | 2026-05-16T12:00:00 (exactly on it) | on-the-second.org | yes |
 * | B3 /news/c | 2026-05-16T12:00:01 (one second after) | second-after.org | yes |
 * | B4 / | 2026-05-17T00:00:00 (the next midnight) | next-midnight.org | yes |
 *
 * Every expected value below is read off this table by hand. A window of 31 days makes B1 new; a
 * strict `>` makes B2 old. Each is checked on both paths a count can take: from the rollups (a
 * target with a rollup key: ROOT_DOMAIN, SUBDOMAIN, PAGE, the folder `/`) and from the links
 * grouped per call (a SUBFOLDER below the host has no rollup key).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, get } from '../support/helpers.js';

let ctx: Awaited<ReturnType<typeof build>>;
beforeAll(async () => {
  ctx = await build();
});
afterAll(async () => {
  await ctx.app.close();
});

const data = async (op: string, query: Record<string, string>) => {
  const response = await get(ctx.app, op, query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { meta: { total?: number }; data: any };
};

describe('overview new_count at the edge of the window', () => {
  it.each([
    // From the rollups: the days after 2026-05-16 per day (B4), plus 2026-05-16 from 12:00:00 on (B2, B3).
    ['ROOT_DOMAIN', 'boundary.com', 4, 3],
    ['SUBDOMAIN', 'boundary.com', 4, 3],
    ['SUBFOLDER', 'boundary.com/', 4, 3], // the folder / is the whole host: the host's rollup key
    ['PAGE', 'boundary.com/news/a', 1, 0], // B1
    ['PAGE', 'boundary.com/news/b', 1, 1], // B2
    ['PAGE', 'boundary.com/news/c', 1, 1], // B3
    ['PAGE', 'boundary.com/', 1, 1], // B4
    // From the links grouped per call: B1, B2, B3, of which B2 and B3 are new.
    ['SUBFOLDER', 'boundary.com/news', 3, 2],
  ])('%s %s: %i links, %i new', async (scope, url, backlinks, fresh) => {
    const { data: record } = await data('overview', { url, scope, fields: 'backlinks_count,new_count' });
    expect(record).toEqual({ backlinks_count: backlinks, new_count: fresh });
  });
});

describe('is_new of links and referring domains at the edge of the window', () => {
  // order_by must be a returned field: first_seen_at is asked for too.
  const byFirstSeen = { order_by: 'first_seen_at', direction: 'ASC' };

  it.each([
    ['ROOT_DOMAIN', 'boundary.com', [['B1', false], ['B2', true], ['B3', true], ['B4', true]]],
    ['SUBFOLDER', 'boundary.com/news', [['B1', false], ['B2', true], ['B3', true]]],
  ] as const)('links %s %s', async (scope, url, expected) => {
    const { data: rows } = await data('links', { url, scope, fields: 'anchor,first_seen_at,is_new', ...byFirstSeen });
    expect(rows.map((row: { anchor: string; is_new: boolean }) => [row.anchor, row.is_new])).toEqual(expected);
    const fresh = await data('links', { url, scope, fields: 'anchor,first_seen_at', filter: 'is_new = true', ...byFirstSeen });
    expect(fresh.meta.total).toBe(expected.filter(([, isNew]) => isNew).length);
    expect(fresh.data.map((row: { anchor: string }) => row.anchor)).toEqual(expected.filter(([, isNew]) => isNew).map(([anchor]) => anchor));
  });

  it.each([
    // From the rollup of referring domains (r_ref_domains: the first seen of each domain's links).
    ['ROOT_DOMAIN', 'boundary.com', [['second-before.org', false], ['on-the-second.org', true], ['second-after.org', true], ['next-midnight.org', true]]],
    // From the links grouped per call.
    ['SUBFOLDER', 'boundary.com/news', [['second-before.org', false], ['on-the-second.org', true], ['second-after.org', true]]],
  ] as const)('ref-domains %s %s', async (scope, url, expected) => {
    const { data: rows } = await data('ref-domains', { url, scope, fields: 'domain,first_seen_at,is_new', ...byFirstSeen });
    expect(rows.map((row: { domain: string; is_new: boolean }) => [row.domain, row.is_new])).toEqual(expected);
    const old = await data('ref-domains', { url, scope, fields: 'domain,first_seen_at', filter: 'is_new = false', ...byFirstSeen });
    expect(old.meta.total).toBe(1);
    expect(old.data).toEqual([{ domain: 'second-before.org', first_seen_at: '2026-05-16T11:59:59' }]);
  });
});
