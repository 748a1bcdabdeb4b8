/**
 * Every class of invalid parameter gets a 400 whose details name the parameter and the rule;
 * all problems are reported at once. Checked through validateRequest and over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateRequest } from '../../../src/server/validation/validate-request.js';
import { build, get } from '../support/helpers.js';
import { NOW } from '../support/fixture.js';

const target = { url: 'example.com', scope: 'ROOT_DOMAIN' };
const codes = (operation: string, query: Record<string, string | string[]>) => {
  const result = validateRequest(operation, query, { now: NOW, requestId: 'r-1' });
  if (result.ok) return [];
  return result.body.error.details.map((d) => `${d.parameter}:${d.rule}`);
};

describe('validateRequest', () => {
  it.each([
    ['links', {}, ['url:required', 'scope:required']],
    ['links', { ...target, url: '' }, ['url:required']],
    ['links', { ...target, url: 'x'.repeat(2001) }, ['url:too_long']],
    ['links', { ...target, url: 'https:///path' }, ['url:invalid_url']],
    ['links', { ...target, scope: 'root_domain' }, ['scope:invalid_value']],
    ['summary', { ...target, scope: 'SUBFOLDER' }, ['scope:invalid_value']],
    ['links', { ...target, format: 'xml' }, ['format:invalid_value']],
    ['links', { ...target, direction: 'up' }, ['direction:invalid_value']],
    ['links', { ...target, limit: '0' }, ['limit:too_small']],
    ['links', { ...target, limit: '10001' }, ['limit:too_large']],
    ['links', { ...target, limit: '1.5' }, ['limit:not_an_integer']],
    ['links', { ...target, limit: '+5' }, ['limit:not_an_integer']],
    ['links', { ...target, offset: '-1' }, ['offset:too_small']],
    ['links', { ...target, offset: '1e3' }, ['offset:not_an_integer']],
    ['matrix', { urls: 'a.com,b.com', scope: 'PAGE', format: 'csv' }, ['format:invalid_value']],
    ['score-profile', { ...target, fields: 'anchor' }, ['fields:unknown_field']],
    ['summary', { ...target, date_from: '2026-07' }, ['date_from:invalid_range']],
    ['comparison', { urls: 'a.com,https:///x', scope: 'PAGE' }, ['urls:invalid_url']],
    ['links', { ...target, fields: 'anchor,domain_scor' }, ['fields:unknown_field']],
    ['links', { ...target, order_by: 'score' }, ['order_by:unknown_field']],
    ['links', { ...target, fields: 'anchor', order_by: 'page_score' }, ['order_by:not_returned']],
    ['matrix', { urls: 'a.com', scope: 'PAGE', order_by: 'backlinks_counts' }, ['order_by:not_sortable']],
    ['links', { ...target, limt: '5' }, ['limt:unknown_parameter']],
    ['links', { ...target, limit: ['1', '2'] }, ['limit:repeated_parameter']],
    ['competitors', { domain: 'example.com', filter: 'x = 1' }, ['filter:unknown_parameter']],
    ['comparison', { urls: Array.from({ length: 11 }, (_, i) => `s${i}.com`).join(','), scope: 'PAGE' }, ['urls:too_many_items']],
    ['matrix', { urls: 'a.com,,b.com', scope: 'PAGE' }, ['urls:empty_item']],
    ['matrix', { urls: 'a.com,b.com,c.com,d.com,e.com,f.com,g.com', scope: 'PAGE' }, ['urls:too_many_items']],
    ['metrics', { keyword: 'seo', country: 'GB' }, ['country:invalid_value']],
    ['metrics', { keyword: 'k'.repeat(256), country: 'US' }, ['keyword:too_long']],
    ['metrics', { keyword: 'seo', country: 'US', month: '2011-12' }, ['month:too_early']],
    ['metrics', { keyword: 'seo', country: 'US', month: '2026-07' }, ['month:too_late']],
    ['metrics', { keyword: 'seo', country: 'US', month: '2026-13' }, ['month:invalid_month']],
    ['metrics', { keyword: 'seo', country: 'US', month: '2024-5' }, ['month:invalid_month']],
    ['metrics', { keyword: 'seo', country: 'gb' }, ['country:invalid_value']],
    ['summary', { ...target, date_from: '2026-05', date_to: '2026-01' }, ['date_from:invalid_range']],
    ['summary', { ...target, date_from: '2026/05' }, ['date_from:invalid_month']],
    ['links', { ...target, filter: 'domain_scor > 5 AND anchor LIKE 5' }, ['filter:unknown_field', 'filter:unexpected_token']],
    ['matrix', { urls: 'a.com,b.com', scope: 'PAGE', filter: 'backlinks_counts[3] > 0' }, ['filter:index_out_of_range']],
  ])('%s %j → %j', (operation, query, expected) => {
    expect(codes(operation, query)).toEqual(expected);
  });

  it('accepts valid values with their types and defaults', () => {
    const result = validateRequest('links', { ...target, limit: '5', fields: 'anchor,page_score', filter: '  ' }, { now: NOW });
    expect(result.ok && result.params).toEqual({
      operation: 'links', format: 'json', fields: ['anchor', 'page_score'], fieldsGiven: true, filter: null, filterText: null,
      url: 'example.com', scope: 'ROOT_DOMAIN', order_by: 'page_score', direction: 'DESC', limit: 5, offset: 0,
    });
    const metrics = validateRequest('metrics', { keyword: 'seo', country: 'UK' }, { now: NOW });
    expect(metrics.ok && metrics.params.month).toBe('2026-06');
  });

  it('reports filter issues with their offsets, lines and columns', () => {
    const result = validateRequest('links', { ...target, filter: "anchr = 'a'\nOR is_lost > true" }, { requestId: 'abc' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.status).toBe(400);
    expect(result.body.meta).toEqual({ request_id: 'abc', status_code: 400, success: false });
    expect(result.body.error).toMatchObject({ type: '/errors#invalid_request', code: 400, retryable: false });
    expect(result.body.error.details.map(({ rule, offset, length, line, column }) => ({ rule, offset, length, line, column }))).toEqual([
      { rule: 'unknown_field', offset: 0, length: 5, line: 1, column: 1 },
      { rule: 'operator_not_allowed', offset: 23, length: 1, line: 2, column: 12 },
    ]);
    expect(result.body.error.details[0]).toMatchObject({ parameter: 'filter', suggestion: 'anchor' });
  });

  it('rejects an unknown operation', () => {
    expect(codes('backlinks', {})).toEqual(['operation:unknown_operation']);
  });

  it('accepts format=json on every operation', () => {
    // The twelve operations of the interface, each with its required parameters.
    const queries: Record<string, Record<string, string>> = {
      overview: target, summary: target, links: target, 'ref-domains': target, 'ref-ips': target, pages: target, anchors: target,
      'score-profile': target, competitors: { domain: 'example.com' }, comparison: { urls: 'a.com,b.com', scope: 'PAGE' },
      matrix: { urls: 'a.com,b.com', scope: 'PAGE' }, metrics: { keyword: 'seo', country: 'US' },
    };
    for (const [operation, query] of Object.entries(queries)) {
      const result = validateRequest(operation, { ...query, format: 'json' }, { now: NOW });
      expect(result.ok && result.params.format, operation).toBe('json');
    }
  });

  it('refuses csv on matrix, naming json as the only value', () => {
    const result = validateRequest('matrix', { urls: 'a.com', scope: 'PAGE', format: 'csv' }, { now: NOW });
    expect(!result.ok && result.body.error.details).toEqual([
      { parameter: 'format', rule: 'invalid_value', message: 'format must be json (the only value matrix takes), not "csv".', allowed: ['json'] },
    ]);
  });

  it('takes fields on score-profile', () => {
    const result = validateRequest('score-profile', { ...target, fields: 'domains_count' }, { now: NOW });
    expect(result.ok && result.params.fields).toEqual(['domains_count']);
  });

  it.each([
    ['us', 'US'],
    ['uk', 'UK'],
    ['Uk', 'UK'],
    ['US', 'US'],
  ])('takes country %s as %s', (given, canonical) => {
    const result = validateRequest('metrics', { keyword: 'seo', country: given }, { now: NOW });
    expect(result.ok && result.params.country).toBe(canonical);
  });

  it('gives each rule its message', () => {
    const message = (operation: string, query: Record<string, string>) => {
      const result = validateRequest(operation, query, { now: NOW });
      return result.ok ? undefined : result.body.error.details[0]!.message;
    };
    expect(message('links', { ...target, limit: '0' })).toBe('limit must be at least 1, not 0.');
    expect(message('links', { ...target, limit: '1.5' })).toBe('limit must be a whole number written in digits, not 1.5.');
    expect(message('links', { ...target, limit: '+5' })).toBe('limit must be a whole number written in digits, not "+5".');
    expect(message('matrix', { urls: 'a,b,c,d,e,f,g', scope: 'PAGE' })).toBe('urls takes at most 6 items, not 7.');
    expect(message('summary', { ...target, date_from: '2024-05', date_to: '2024-01' })).toBe('date_from (2024-05) is after date_to (2024-01).');
    expect(message('summary', { ...target, date_from: '2026-07' })).toBe('date_from (2026-07) is after date_to (2026-06, the current month).');
    expect(message('metrics', { keyword: 'seo', country: 'US', month: '2024-5' })).toBe('month must be a month written YYYY-MM, not "2024-5".');
    expect(message('links', { scope: 'PAGE' })).toBe('links needs the parameter url.');
    expect(message('links', { ...target, limt: '5' })).toBe('links takes no parameter limt; did you mean limit?');
  });
});

describe('over HTTP', () => {
  let ctx: Awaited<ReturnType<typeof build>>;
  beforeAll(async () => {
    ctx = await build();
  });
  afterAll(async () => {
    await ctx.app.close();
  });

  it('answers 400 with every issue, the request id in meta and header, and charges nothing', async () => {
    const before = await ctx.store.ledger.balance('tester');
    const response = await get(ctx.app, 'ref-domains', { url: 'example.com', scope: 'NOPE', limit: 'x', filter: "domain LIKE 'a" });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.meta.request_id).toBe(response.headers['x-request-id']);
    expect(body.error.details.map((d: { parameter: string; rule: string }) => `${d.parameter}:${d.rule}`)).toEqual([
      'scope:invalid_value', 'limit:not_an_integer', 'filter:unterminated_string',
    ]);
    expect(response.headers['x-units-charged']).toBeUndefined();
    expect(await ctx.store.ledger.balance('tester')).toBe(before);
  });

  it('echoes a country given in lower case as its upper-case code', async () => {
    const response = await get(ctx.app, '/_api/apis/v4/keywords/v1/metrics', { keyword: 'seo tools', country: 'us', month: '2026-06' });
    expect(response.statusCode).toBe(200);
    expect(response.json().meta).toMatchObject({ country: 'US', keyword: 'seo tools', month: '2026-06' });
  });

  it('answers matrix with format=json, and score-profile with only the fields asked for', async () => {
    const matrix = await get(ctx.app, 'matrix', { urls: 'example.com,rival.com', scope: 'ROOT_DOMAIN', format: 'json' });
    expect(matrix.statusCode).toBe(200);
    // The fixture's six referring domains of the two targets (operations.test.ts works them out).
    expect(matrix.json().meta).toEqual({ request_id: expect.any(String), status_code: 200, success: true, urls: ['example.com', 'rival.com'], scope: 'ROOT_DOMAIN', total: 6 });
    expect(matrix.json().data.map((row: { domain: string }) => row.domain)).toEqual(['alpha.org', 'beta.net', 'delta.de', 'epsilon.fr', 'gamma.io', 'zeta.com']);
    const profile = await get(ctx.app, 'score-profile', { url: 'example.com', scope: 'ROOT_DOMAIN', fields: 'domains_count' });
    expect(profile.statusCode).toBe(200);
    // Scores 15, 25, 60 (two domains) and 80, ascending, each row with only the field asked for.
    expect(profile.json().data).toEqual([{ domains_count: 1 }, { domains_count: 1 }, { domains_count: 2 }, { domains_count: 1 }]);
  });
});

describe('validationPlugin on a service of your own', () => {
  it('validates routes that name an operation and hands over typed parameters', async () => {
    const { loadServerDeps } = await import('../../../src/server/deps.js');
    const { validationPlugin, requestParams } = await import('../../../src/server/validation/fastify-plugin.js');
    const { fastify } = await loadServerDeps();
    const app = fastify();
    await app.register(validationPlugin, { now: () => NOW, maxLimit: 50 });
    app.get('/my/links', { config: { operation: 'links' } }, async (request) => {
      const params = requestParams(request);
      return { limit: params.limit, fields: params.fields.length, filter: params.filter?.kind ?? null };
    });
    app.get('/health', async () => ({ ok: true }));
    const ok = await app.inject({ url: '/my/links', query: { url: 'example.com', scope: 'PAGE', limit: '50', filter: 'page_score > 1 AND is_lost = false' } });
    expect(ok.json()).toEqual({ limit: 50, fields: 28, filter: 'And' });
    const bad = await app.inject({ url: '/my/links', query: { url: 'example.com', scope: 'PAGE', limit: '51' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details).toEqual([{ parameter: 'limit', rule: 'too_large', message: 'limit must be at most 50, not 51.', maximum: 50 }]);
    expect(bad.json().meta.request_id).toBe(bad.headers['x-request-id']);
    expect((await app.inject({ url: '/health' })).json()).toEqual({ ok: true });
    await app.close();
  });
});
