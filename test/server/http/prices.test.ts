/**
 * The price of each of the twelve operations, over HTTP on the fixture: the `X-Units-Charged`
 * header, `X-Units-Remaining` and the drop of the key's balance (read from the balance endpoint),
 * in JSON and in CSV, and for a call that returns no line. Prices are the interface's Limits table
 * (overview 45 and metrics 20 per request; links 45, ref-ips 20, score-profile 1 and the others 40
 * per line), written here as literals; line counts are worked out by hand from fixture.ts.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, get } from '../support/helpers.js';

let ctx: Awaited<ReturnType<typeof build>>;
beforeAll(async () => {
  ctx = await build();
});
afterAll(async () => {
  await ctx.app.close();
});

const ROOT = { url: 'example.com', scope: 'ROOT_DOMAIN' };
const METRICS = '/_api/apis/v4/keywords/v1/metrics';
const BALANCE = '/_api/apis/v4/units/v1/balance';

/** The test key's balance, as the server reports it. */
async function balance(): Promise<number> {
  const response = await get(ctx.app, BALANCE);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.units_remaining;
}

/** Rows of an answer: the JSON array's length (1 for an object), or the CSV lines after the header. */
function linesOf(response: LightMyRequestResponse, csv: boolean): number {
  if (csv) {
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    // Lines end in CRLF; a quoted cell may hold a bare LF, never CRLF in the fixture.
    return response.body.split('\r\n').length - 2;
  }
  const data = response.json().data;
  return Array.isArray(data) ? data.length : 1;
}

/**
 * Makes the call and checks that it returned `lines` rows and cost `units`: the header says so,
 * the remaining balance in the header is the balance endpoint's, and the balance fell by `units`.
 */
async function expectCharge(path: string, query: Record<string, string>, lines: number, units: number): Promise<void> {
  const before = await balance();
  const response = await get(ctx.app, path, query);
  expect(response.statusCode, response.body).toBe(200);
  expect(linesOf(response, query['format'] === 'csv')).toBe(lines);
  const after = await balance();
  expect(response.headers['x-units-charged']).toBe(String(units));
  expect(response.headers['x-units-remaining']).toBe(String(after));
  expect(before - after).toBe(units);
}

/** Checks that a refused call changed nothing: no charge header, the balance unchanged. */
async function expectNoCharge(path: string, query: Record<string, string>, status: number): Promise<void> {
  const before = await balance();
  const response = await get(ctx.app, path, query);
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['x-units-charged']).toBeUndefined();
  expect(await balance()).toBe(before);
}

describe('per request', () => {
  it('overview: 45 units per request, in JSON and CSV, for a target without links too', async () => {
    await expectCharge('overview', ROOT, 1, 45);
    await expectCharge('overview', { ...ROOT, format: 'csv' }, 1, 45);
    await expectCharge('overview', { ...ROOT, fields: 'score' }, 1, 45);
    await expectCharge('overview', { url: 'unknown.org', scope: 'ROOT_DOMAIN' }, 1, 45); // a record of zeros
  });

  it('metrics: 20 units per request, in JSON and CSV; no snapshot is a 404, not charged', async () => {
    await expectCharge(METRICS, { keyword: 'seo tools', country: 'US' }, 1, 20);
    await expectCharge(METRICS, { keyword: 'seo tools', country: 'US', month: '2026-05' }, 1, 20);
    await expectCharge(METRICS, { keyword: 'seo tools', country: 'US', format: 'csv' }, 1, 20);
    await expectNoCharge(METRICS, { keyword: 'seo tools', country: 'DE' }, 404);
  });
});

describe('per line', () => {
  it('links: 45 units per line', async () => {
    await expectCharge('links', ROOT, 7, 7 * 45); // L1-L7
    await expectCharge('links', { ...ROOT, limit: '3' }, 3, 3 * 45);
    await expectCharge('links', { ...ROOT, limit: '1' }, 1, 45);
    await expectCharge('links', { ...ROOT, format: 'csv', limit: '2' }, 2, 2 * 45);
    await expectCharge('links', { ...ROOT, filter: "lang = 'fr'" }, 1, 45); // L7
    await expectCharge('links', { ...ROOT, filter: "anchor = 'no such anchor'" }, 0, 0);
    await expectCharge('links', { ...ROOT, format: 'csv', filter: "anchor = 'no such anchor'" }, 0, 0);
  });

  it('summary: 40 units per line (month)', async () => {
    await expectCharge('summary', ROOT, 12, 12 * 40); // the last 12 of 31 months
    await expectCharge('summary', { ...ROOT, limit: '3' }, 3, 3 * 40);
    await expectCharge('summary', { ...ROOT, date_from: '2023-01', date_to: '2024-02' }, 3, 3 * 40); // 2023-12 .. 2024-02
    await expectCharge('summary', { ...ROOT, format: 'csv', limit: '5' }, 5, 5 * 40);
    await expectCharge('summary', { url: 'unknown.org', scope: 'ROOT_DOMAIN' }, 0, 0); // no links: no history
  });

  it('ref-domains: 40 units per line', async () => {
    await expectCharge('ref-domains', ROOT, 5, 5 * 40); // alpha, beta, gamma, delta, epsilon
    await expectCharge('ref-domains', { ...ROOT, limit: '2' }, 2, 2 * 40);
    await expectCharge('ref-domains', { ...ROOT, format: 'csv' }, 5, 5 * 40);
    await expectCharge('ref-domains', { ...ROOT, filter: "country = 'DE'" }, 2, 2 * 40); // gamma, delta
    await expectCharge('ref-domains', { ...ROOT, filter: "domain = 'nowhere.org'" }, 0, 0);
  });

  it('ref-ips: 20 units per line', async () => {
    await expectCharge('ref-ips', ROOT, 5, 5 * 20);
    await expectCharge('ref-ips', { ...ROOT, limit: '3' }, 3, 3 * 20);
    await expectCharge('ref-ips', { ...ROOT, format: 'csv' }, 5, 5 * 20);
    await expectCharge('ref-ips', { ...ROOT, filter: "country = 'JP'" }, 0, 0);
  });

  it('pages: 40 units per line', async () => {
    await expectCharge('pages', ROOT, 7, 7 * 40); // seven distinct linked pages
    await expectCharge('pages', { ...ROOT, limit: '4' }, 4, 4 * 40);
    await expectCharge('pages', { ...ROOT, format: 'csv', limit: '1' }, 1, 40);
    await expectCharge('pages', { ...ROOT, filter: 'response_code = 404' }, 0, 0); // target pages answer 200
  });

  it('anchors: 40 units per line', async () => {
    await expectCharge('anchors', ROOT, 5, 5 * 40); // Example, '', click here, semi;colon..., seo tips
    await expectCharge('anchors', { ...ROOT, limit: '2' }, 2, 2 * 40);
    await expectCharge('anchors', { ...ROOT, format: 'csv' }, 5, 5 * 40);
    await expectCharge('anchors', { ...ROOT, filter: "anchor LIKE 'zzz%'" }, 0, 0);
  });

  it('score-profile: 1 unit per line', async () => {
    await expectCharge('score-profile', ROOT, 4, 4); // scores 15, 25, 60, 80
    await expectCharge('score-profile', { ...ROOT, format: 'csv' }, 4, 4);
    await expectCharge('score-profile', { url: 'rival.com', scope: 'ROOT_DOMAIN' }, 5, 5); // 15, 25, 55, 60, 80
    await expectCharge('score-profile', { url: 'unknown.org', scope: 'ROOT_DOMAIN' }, 0, 0);
  });

  it('competitors: 40 units per line', async () => {
    await expectCharge('competitors', { domain: 'example.com' }, 2, 2 * 40); // rival.com, other.co.uk
    await expectCharge('competitors', { domain: 'example.com', limit: '1' }, 1, 40);
    await expectCharge('competitors', { domain: 'example.com', format: 'csv' }, 2, 2 * 40);
    await expectCharge('competitors', { domain: 'third.com' }, 0, 0); // shares only 4 referring domains with anyone
  });

  it('comparison: 40 units per line (one line per url; every url has a line)', async () => {
    await expectCharge('comparison', { urls: 'example.com,rival.com,third.com', scope: 'ROOT_DOMAIN' }, 3, 3 * 40);
    await expectCharge('comparison', { urls: 'example.com', scope: 'ROOT_DOMAIN' }, 1, 40);
    await expectCharge('comparison', { urls: 'example.com,rival.com', scope: 'ROOT_DOMAIN', format: 'csv' }, 2, 2 * 40);
  });

  it('matrix: 40 units per line; no CSV form, and the refused call is not charged', async () => {
    await expectCharge('matrix', { urls: 'example.com,rival.com', scope: 'ROOT_DOMAIN' }, 6, 6 * 40); // alpha .. zeta
    await expectCharge('matrix', { urls: 'example.com,rival.com', scope: 'ROOT_DOMAIN', limit: '2' }, 2, 2 * 40);
    await expectCharge('matrix', { urls: 'example.com,rival.com', scope: 'ROOT_DOMAIN', filter: 'matches_count > 2' }, 0, 0);
    await expectNoCharge('matrix', { urls: 'example.com,rival.com', scope: 'ROOT_DOMAIN', format: 'csv' }, 400);
  });
});
