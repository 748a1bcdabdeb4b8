/**
 * The order of every list, over HTTP on order-fixture.ts, where no two rows tie on the sort key:
 * each list with `order_by`/`direction` (links, ref-domains, ref-ips, pages, anchors, competitors,
 * matrix) with the direction left out (the interface's default, DESC), DESC and ASC, on the
 * default `order_by` of the interface's Endpoints part; and the fixed orders of the lists without
 * a direction (summary ascending by month, score-profile ascending by score, comparison in request
 * order). Each expected sequence is written out by hand from the table in order-fixture.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../../src/server/server.js';
import { KEYS, NOW } from '../support/fixture.js';
import { emptyStore, get } from '../support/helpers.js';
import { loadOrderFixture } from '../support/order-fixture.js';

let app: Awaited<ReturnType<typeof createServer>>;
beforeAll(async () => {
  const store = await emptyStore();
  await loadOrderFixture(store);
  app = await createServer({ store, keys: KEYS, now: () => NOW, rateLimits: { perSecond: 1_000_000, concurrent: 1_000_000 } });
});
afterAll(async () => {
  await app.close();
});

const TARGET = { url: 'target.com', scope: 'ROOT_DOMAIN' };

/** The rows of a list as [key, sort value] pairs. */
async function pairs(op: string, query: Record<string, string>, key: string, value: string): Promise<unknown[][]> {
  const response = await get(app, op, query);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().data as Record<string, unknown>[]).map((row) => [row[key], row[value]]);
}

/** Each list: its query, the key column and default `order_by`, and the rows in descending order. */
const LISTS: [string, Record<string, string>, string, string, unknown[][]][] = [
  ['links', TARGET, 'source_url', 'page_score', [
    ['https://zulu.org/6', 93], ['https://alpha.org/2', 81], ['https://mike.org/9', 70], ['https://zulu.org/4', 64],
    ['https://mike.org/10', 59], ['https://mike.org/7', 48], ['https://kilo.org/1', 37], ['https://mike.org/8', 26],
    ['https://alpha.org/3', 12], ['https://zulu.org/5', 5],
  ]],
  ['ref-domains', TARGET, 'domain', 'backlinks_count', [['mike.org', 4], ['zulu.org', 3], ['alpha.org', 2], ['kilo.org', 1]]],
  ['ref-ips', TARGET, 'ip_address', 'domains_count', [['10.0.0.3', 3], ['10.0.0.20', 2], ['10.0.0.5', 1]]],
  ['pages', TARGET, 'source_url', 'domains_count', [
    ['https://target.com/k', 4], ['https://target.com/z', 3], ['https://target.com/a', 2], ['https://target.com/m', 1],
  ]],
  ['anchors', TARGET, 'anchor', 'domains_count', [['kiwi', 4], ['zebra', 3], ['apple', 2], ['mango', 1]]],
  ['competitors', { domain: 'hub.com' }, 'domain', 'similarity', [['mu.com', 6 / 7], ['xi.com', 5 / 7], ['nu.com', 5 / 9]]],
  // PAGE targets /k, /z, /a, /m: kilo links to /k only, alpha to /z and /k, zulu to /a, /z and /k, mike to all four.
  ['matrix', { urls: 'target.com/k,target.com/z,target.com/a,target.com/m', scope: 'PAGE' }, 'domain', 'matches_count', [
    ['mike.org', 4], ['zulu.org', 3], ['alpha.org', 2], ['kilo.org', 1],
  ]],
];

describe('lists with order_by and direction', () => {
  describe.each(LISTS)('%s', (op, query, key, orderBy, descending) => {
    it(`by default: ${orderBy} descending`, async () => {
      expect(await pairs(op, query, key, orderBy)).toEqual(descending);
    });
    it('direction=DESC', async () => {
      expect(await pairs(op, { ...query, direction: 'DESC' }, key, orderBy)).toEqual(descending);
      expect(await pairs(op, { ...query, order_by: orderBy, direction: 'DESC' }, key, orderBy)).toEqual(descending);
    });
    it('direction=ASC', async () => {
      const ascending = [...descending].reverse();
      expect(await pairs(op, { ...query, direction: 'ASC' }, key, orderBy)).toEqual(ascending);
      expect(await pairs(op, { ...query, order_by: orderBy, direction: 'ASC' }, key, orderBy)).toEqual(ascending);
    });
  });

  it('links by first_seen_at, both directions', async () => {
    const ascending = [
      ['https://zulu.org/6', '2026-02-03T00:00:00'], ['https://alpha.org/3', '2026-02-20T00:00:00'], ['https://kilo.org/1', '2026-03-10T00:00:00'],
      ['https://mike.org/8', '2026-03-28T00:00:00'], ['https://zulu.org/5', '2026-04-11T00:00:00'], ['https://mike.org/10', '2026-04-30T00:00:00'],
      ['https://alpha.org/2', '2026-05-02T00:00:00'], ['https://mike.org/7', '2026-05-25T00:00:00'], ['https://zulu.org/4', '2026-06-05T00:00:00'],
      ['https://mike.org/9', '2026-06-09T00:00:00'],
    ];
    expect(await pairs('links', { ...TARGET, order_by: 'first_seen_at', direction: 'ASC' }, 'source_url', 'first_seen_at')).toEqual(ascending);
    expect(await pairs('links', { ...TARGET, order_by: 'first_seen_at' }, 'source_url', 'first_seen_at')).toEqual([...ascending].reverse());
  });

  it('the order holds across pages (limit and offset)', async () => {
    expect(await pairs('pages', { ...TARGET, limit: '2', offset: '1' }, 'source_url', 'domains_count')).toEqual([
      ['https://target.com/z', 3], ['https://target.com/a', 2],
    ]);
    expect(await pairs('pages', { ...TARGET, direction: 'ASC', limit: '2', offset: '1' }, 'source_url', 'domains_count')).toEqual([
      ['https://target.com/a', 2], ['https://target.com/z', 3],
    ]);
  });
});

describe('lists in a fixed order', () => {
  it('summary: ascending by month', async () => {
    // Links first seen in Feb (3, 6), Mar (1, 8), Apr (5, 10), May (2, 7), Jun (4, 9); none lost.
    expect(await pairs('summary', TARGET, 'month_date', 'backlinks_count')).toEqual([
      ['2026-02-01', 2], ['2026-03-01', 4], ['2026-04-01', 6], ['2026-05-01', 8], ['2026-06-01', 10],
    ]);
    expect(await pairs('summary', { ...TARGET, limit: '2' }, 'month_date', 'backlinks_count')).toEqual([['2026-05-01', 8], ['2026-06-01', 10]]);
    expect(await pairs('summary', { ...TARGET, date_from: '2026-03', limit: '2' }, 'month_date', 'backlinks_count')).toEqual([
      ['2026-03-01', 4], ['2026-04-01', 6],
    ]);
  });

  it('score-profile: ascending by score', async () => {
    // kilo 44, alpha 17, zulu 90, mike 62
    expect(await pairs('score-profile', TARGET, 'domain_score', 'domains_count')).toEqual([[17, 1], [44, 1], [62, 1], [90, 1]]);
  });

  it('comparison: one row per url, in the order of the request', async () => {
    // Links alive in June: target.com 10, hub.com 7, mu.com 6, xi.com 5, nu.com 7.
    expect(await pairs('comparison', { urls: 'xi.com,hub.com,target.com,mu.com', scope: 'ROOT_DOMAIN' }, 'url', 'backlinks_count')).toEqual([
      ['xi.com', 5], ['hub.com', 7], ['target.com', 10], ['mu.com', 6],
    ]);
    expect(await pairs('comparison', { urls: 'mu.com,target.com,nu.com,xi.com', scope: 'ROOT_DOMAIN' }, 'url', 'backlinks_count')).toEqual([
      ['mu.com', 6], ['target.com', 10], ['nu.com', 7], ['xi.com', 5],
    ]);
  });
});
