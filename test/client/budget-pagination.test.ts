import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { operations, OPERATION_NAMES } from '../../src/catalogue/operations.js';
import { BudgetError, createClient, estimateUnits, type PaginationEnd } from '../../src/client/index.js';
import { sampleRow } from './helpers/fixtures.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const site = { url: 'example.com', scope: 'ROOT_DOMAIN' } as const;
const clientWith = (budget?: number) => createClient({ apiKey: 'k', baseUrl: server.baseUrl, ...(budget !== undefined && { budget }) });

/** Drains an iterator, keeping its return value. */
async function drain<T, R>(iterator: AsyncGenerator<T, R, undefined>): Promise<{ rows: T[]; end: R }> {
  const rows: T[] = [];
  let next = await iterator.next();
  while (!next.done) {
    rows.push(next.value);
    next = await iterator.next();
  }
  return { rows, end: next.value };
}

describe('estimateUnits', () => {
  it.each([
    ['overview', {}, 45],
    ['metrics', {}, 20],
    ['links', {}, 45 * 100],
    ['links', { limit: 50 }, 45 * 50],
    ['summary', {}, 40 * 12],
    ['ref-ips', { limit: 3 }, 20 * 3],
    ['score-profile', {}, 101],
    ['comparison', { urls: ['a', 'b', 'c'] }, 40 * 3],
    ['matrix', { limit: 10 }, 400],
  ] as const)('%s %j → %d', (operation, params, units) => {
    expect(estimateUnits(operation, params as never)).toBe(units);
  });

  it('every operation has a finite positive estimate from the catalogue price', () => {
    for (const name of OPERATION_NAMES) {
      const units = estimateUnits(name, {} as never);
      expect(units).toBeGreaterThan(0);
      expect(units % operations[name].price.units).toBe(0);
    }
  });
});

describe('units and budget', () => {
  it('each result reports its units and the client keeps the total', async () => {
    server.total = 30;
    const client = clientWith();
    const links = await client.links({ ...site, limit: 50 });
    expect(links.units).toBe(45 * 30);
    const overview = await client.overview(site);
    expect(overview.units).toBe(45);
    expect(client.unitsSpent).toBe(45 * 30 + 45);
  });

  it('refuses a call whose worst case exceeds what is left, before sending it', async () => {
    const client = clientWith(1000);
    const error = await client.links({ ...site, limit: 100 }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(BudgetError);
    expect((error as BudgetError).estimate).toBe(4500);
    expect((error as BudgetError).remaining).toBe(1000);
    expect(server.requests).toHaveLength(0);
  });

  it('charges real units, so later calls see what is really left', async () => {
    server.total = 5;
    const client = clientWith(1000);
    await client.links({ ...site, limit: 20 }); // worst case 900, real 225
    expect(client.budgetRemaining).toBe(775);
    await client.links({ ...site, limit: 17 }); // 765 fits
    await expect(client.links({ ...site, limit: 20 })).rejects.toBeInstanceOf(BudgetError);
    expect(server.requests).toHaveLength(2);
  });

  it('reserves the worst case of calls in flight, so concurrent calls cannot overrun the budget', async () => {
    const client = clientWith(100);
    const results = await Promise.allSettled([client.overview(site), client.overview(site), client.overview(site)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect(client.unitsSpent).toBe(90);
  });
});

describe('pagination', () => {
  it('pages with offset/limit and stops at a short page', async () => {
    server.total = 250;
    const { rows, end } = await drain(clientWith().paginate.refDomains(site, { pageSize: 100 }));
    expect(rows).toHaveLength(250);
    expect(rows[249]).toEqual(sampleRow('ref-domains', 249));
    expect(server.requests.map((r) => [r.query.get('offset'), r.query.get('limit')])).toEqual([['0', '100'], ['100', '100'], ['200', '100']]);
    expect(end).toEqual<PaginationEnd>({ reason: 'short-page', rows: 250, units: 250 * 40, pages: 3 });
  });

  it('stops at meta.total without asking for an empty page', async () => {
    server.total = 200;
    const { end } = await drain(clientWith().paginate.links(site, { pageSize: 100 }));
    expect(end.reason).toBe('total');
    expect(server.requests).toHaveLength(2);
  });

  it('stops at maxRows, shortening the last page so no extra row is paid for', async () => {
    const client = clientWith();
    const { rows, end } = await drain(client.paginate.anchors(site, { pageSize: 40, maxRows: 90 }));
    expect(rows).toHaveLength(90);
    expect(server.requests.map((r) => r.query.get('limit'))).toEqual(['40', '40', '10']);
    expect(end.reason).toBe('max-rows');
    expect(client.unitsSpent).toBe(90 * 40);
  });

  it('starts at the given offset and keeps the other parameters on every page', async () => {
    server.total = 130;
    await drain(clientWith().paginate.pages({ ...site, offset: 100, fields: ['source_url'] }, { pageSize: 20 }));
    expect(server.requests.map((r) => r.query.get('offset'))).toEqual(['100', '120']);
    expect(server.requests.every((r) => r.query.get('fields') === 'source_url')).toBe(true);
  });

  it('stops at the budget, using what is left for a last shorter page', async () => {
    server.total = 1000;
    const client = clientWith(45 * 250);
    const { rows, end } = await drain(client.paginate.links(site, { pageSize: 100 }));
    expect(rows).toHaveLength(250);
    expect(server.requests.map((r) => r.query.get('limit'))).toEqual(['100', '100', '50']);
    expect(end.reason).toBe('budget');
    expect(client.unitsSpent).toBe(45 * 250);
  });

  it('stops when the caller breaks, without asking for more pages', async () => {
    let seen = 0;
    for await (const row of clientWith().paginate.refIps(site, { pageSize: 10 })) {
      expect(row.ip_address).toBeTypeOf('string');
      if (++seen === 15) break;
    }
    expect(server.requests).toHaveLength(2);
  });

  it('uses the default limit as the page size', async () => {
    server.total = 150;
    await drain(clientWith().paginate.competitors({ domain: 'example.com' }));
    expect(server.requests[0]!.query.get('limit')).toBe('100');
  });

  it('operations without offset are one request: summary is capped by maxRows through its limit', async () => {
    const { rows, end } = await drain(clientWith().paginate.summary(site, { maxRows: 5 }));
    expect(rows).toHaveLength(5);
    expect(server.requests[0]!.query.get('limit')).toBe('5');
    expect(end.reason).toBe('single-page');
    await drain(clientWith().paginate.summary(site, { maxRows: 30 }));
    await drain(clientWith().paginate.summary(site));
    expect(server.requests.slice(1).map((r) => r.query.get('limit'))).toEqual(['30', '12']);
    const profile = await drain(clientWith().paginate.scoreProfile(site, { maxRows: 3 }));
    expect(profile.rows).toHaveLength(3);
    expect(server.requests.at(-1)!.query.has('limit')).toBe(false);
  });

  it('matrix pages carry the filter validated for the number of targets', async () => {
    server.total = 12;
    const { rows } = await drain(clientWith().paginate.matrix({ urls: ['a.com', 'b.com'], scope: 'PAGE', filter: 'backlinks_counts[2] >= 0' }, { pageSize: 5 }));
    expect(rows).toHaveLength(12);
    expect(rows[0]!.backlinks_counts).toHaveLength(2);
    expect(server.requests.every((r) => r.query.get('filter') === 'backlinks_counts[2] >= 0')).toBe(true);
  });

  it('rejects a bad page size or maxRows before sending', async () => {
    await expect(drain(clientWith().paginate.links(site, { pageSize: 0 }))).rejects.toMatchObject({ parameter: 'pageSize' });
    await expect(drain(clientWith().paginate.links(site, { maxRows: -1 }))).rejects.toMatchObject({ parameter: 'maxRows' });
    expect(server.requests).toHaveLength(0);
  });
});
