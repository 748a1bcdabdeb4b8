import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OperationName } from '../../src/catalogue/operations.js';
import { createClient, isFilterError, isParameterError, ParameterError, type Client } from '../../src/client/index.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';

let server: FixtureServer;
let client: Client;
// A fixed clock: the current month is 2026-11.
const NOW = Date.UTC(2026, 10, 22, 12);

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  client = createClient({ apiKey: 'k', baseUrl: server.baseUrl, timing: { now: () => NOW } });
});

type Params = Record<string, unknown>;
const call = (operation: OperationName, params: Params) =>
  (client.call as unknown as (op: OperationName, p: Params) => Promise<unknown>)(operation, params);

const site = { url: 'example.com', scope: 'ROOT_DOMAIN' };
const urls = (n: number) => Array.from({ length: n }, (_, i) => `site${i}.com`);
const keyword = { keyword: 'shoes', country: 'US' };

// [rule, operation, params, parameter named, code]. The codes are the ones the server answers
// with in details[].rule (docs/server.md, docs/client.md): one rule set on both sides.
const REJECTED: Array<[string, OperationName, Params, string, string]> = [
  ['url missing', 'links', { scope: 'ROOT_DOMAIN' }, 'url', 'required'],
  ['url empty (the same as leaving it out, as on the wire)', 'overview', { ...site, url: '' }, 'url', 'required'],
  ['url of 2001 characters', 'links', { ...site, url: 'a'.repeat(2001) }, 'url', 'too_long'],
  ['url not a string', 'pages', { ...site, url: 42 }, 'url', 'invalid_type'],
  ['url without a host', 'links', { ...site, url: 'https:///path' }, 'url', 'invalid_url'],
  ['scope missing', 'anchors', { url: 'example.com' }, 'scope', 'required'],
  ['scope unknown', 'links', { ...site, scope: 'DOMAIN' }, 'scope', 'invalid_value'],
  ['scope in lower case', 'links', { ...site, scope: 'root_domain' }, 'scope', 'invalid_value'],
  ['SUBFOLDER on summary', 'summary', { ...site, scope: 'SUBFOLDER' }, 'scope', 'invalid_value'],
  ['SUBFOLDER on comparison', 'comparison', { urls: urls(2), scope: 'SUBFOLDER' }, 'scope', 'invalid_value'],
  ['SUBFOLDER on matrix', 'matrix', { urls: urls(2), scope: 'SUBFOLDER' }, 'scope', 'invalid_value'],
  ['11 urls on comparison', 'comparison', { urls: urls(11), scope: 'PAGE' }, 'urls', 'too_many_items'],
  ['7 urls on matrix', 'matrix', { urls: urls(7), scope: 'PAGE' }, 'urls', 'too_many_items'],
  ['no urls', 'matrix', { urls: [], scope: 'PAGE' }, 'urls', 'required'],
  ['urls not an array', 'comparison', { urls: 'a.com,b.com', scope: 'PAGE' }, 'urls', 'invalid_type'],
  ['a url with a comma', 'comparison', { urls: ['a.com,b.com'], scope: 'PAGE' }, 'urls', 'invalid_value'],
  ['an empty url in urls', 'comparison', { urls: ['a.com', ' '], scope: 'PAGE' }, 'urls', 'empty_item'],
  ['a url of 2001 characters', 'matrix', { urls: ['a'.repeat(2001)], scope: 'PAGE' }, 'urls', 'too_long'],
  ['a url without a host in urls', 'matrix', { urls: ['a.com', 'http://'], scope: 'PAGE' }, 'urls', 'invalid_url'],
  ['domain missing', 'competitors', {}, 'domain', 'required'],
  ['keyword empty', 'metrics', { ...keyword, keyword: '' }, 'keyword', 'required'],
  ['keyword of 256 characters', 'metrics', { ...keyword, keyword: 'k'.repeat(256) }, 'keyword', 'too_long'],
  ['country GB (the list has UK)', 'metrics', { ...keyword, country: 'GB' }, 'country', 'invalid_value'],
  ['country missing', 'metrics', { keyword: 'shoes' }, 'country', 'required'],
  ['month without leading zero', 'metrics', { ...keyword, month: '2024-5' }, 'month', 'invalid_month'],
  ['month 13', 'metrics', { ...keyword, month: '2024-13' }, 'month', 'invalid_month'],
  ['month as a date', 'metrics', { ...keyword, month: '2024-01-01' }, 'month', 'invalid_month'],
  ['month before 2012-01', 'metrics', { ...keyword, month: '2011-12' }, 'month', 'too_early'],
  ['month after the current month', 'metrics', { ...keyword, month: '2026-12' }, 'month', 'too_late'],
  ['date_from malformed', 'summary', { ...site, date_from: '24-01' }, 'date_from', 'invalid_month'],
  ['date_from after date_to', 'summary', { ...site, date_from: '2024-05', date_to: '2024-01' }, 'date_from', 'invalid_range'],
  ['date_from after the current month (date_to left out)', 'summary', { ...site, date_from: '2026-12' }, 'date_from', 'invalid_range'],
  ['limit not an integer', 'links', { ...site, limit: 1.5 }, 'limit', 'not_an_integer'],
  ['limit as text', 'ref-domains', { ...site, limit: '10' }, 'limit', 'invalid_type'],
  ['limit 0', 'links', { ...site, limit: 0 }, 'limit', 'too_small'],
  ['offset negative', 'pages', { ...site, offset: -1 }, 'offset', 'too_small'],
  ['offset NaN', 'pages', { ...site, offset: Number.NaN }, 'offset', 'not_an_integer'],
  ['direction in lower case', 'links', { ...site, direction: 'desc' }, 'direction', 'invalid_value'],
  ['unknown field', 'links', { ...site, fields: ['anchor', 'domain_scor'] }, 'fields', 'unknown_field'],
  ['field of another operation', 'ref-ips', { ...site, fields: ['anchor'] }, 'fields', 'unknown_field'],
  ['field of another operation on score-profile', 'score-profile', { ...site, fields: ['anchor'] }, 'fields', 'unknown_field'],
  ['an empty field name', 'anchors', { ...site, fields: ['anchor', ''] }, 'fields', 'empty_item'],
  ['order_by unknown', 'links', { ...site, order_by: 'score' }, 'order_by', 'unknown_field'],
  ['order_by not among the returned fields', 'links', { ...site, fields: ['anchor'], order_by: 'domain_score' }, 'order_by', 'not_returned'],
  ['order_by not among competitors fields', 'competitors', { domain: 'a.com', fields: ['domain'], order_by: 'similarity' }, 'order_by', 'not_returned'],
  ['order_by on an array', 'matrix', { urls: urls(2), scope: 'PAGE', order_by: 'backlinks_counts' }, 'order_by', 'not_sortable'],
  ['filter on an operation without filter', 'competitors', { domain: 'a.com', filter: 'domain = "x"' }, 'filter', 'unknown_parameter'],
  ['filter of the wrong type', 'links', { ...site, filter: 42 }, 'filter', 'invalid_type'],
  ['unknown parameter', 'links', { ...site, limt: 5 }, 'limt', 'unknown_parameter'],
  ['format unknown', 'links', { ...site, format: 'xml' }, 'format', 'invalid_value'],
  ['csv on matrix (no CSV form)', 'matrix', { urls: urls(2), scope: 'PAGE', format: 'csv' }, 'format', 'invalid_value'],
];

describe('every parameter rule fails locally, naming the parameter, before anything is sent', () => {
  it.each(REJECTED)('%s', async (_, operation, params, parameter, code) => {
    const error = await call(operation, params).then(() => undefined, (e: unknown) => e);
    expect(isParameterError(error), String(error)).toBe(true);
    expect(error).toBeInstanceOf(ParameterError);
    expect((error as ParameterError).parameter).toBe(parameter);
    expect((error as ParameterError).code).toBe(code);
    expect(server.requests).toHaveLength(0);
    expect(client.unitsSpent).toBe(0);
  });
});

// [rule, operation, params]
const ACCEPTED: Array<[string, OperationName, Params]> = [
  ['url of exactly 2000 characters', 'links', { ...site, url: 'a'.repeat(2000) }],
  ['SUBFOLDER on links', 'links', { ...site, scope: 'SUBFOLDER' }],
  ['10 urls on comparison', 'comparison', { urls: urls(10), scope: 'PAGE' }],
  ['6 urls on matrix', 'matrix', { urls: urls(6), scope: 'PAGE' }],
  ['keyword of 1 character', 'metrics', { ...keyword, keyword: 'k' }],
  ['keyword of 255 characters', 'metrics', { ...keyword, keyword: 'k'.repeat(255) }],
  ['country UK', 'metrics', { ...keyword, country: 'UK' }],
  ['country us, in lower case', 'metrics', { ...keyword, country: 'us' }],
  ['empty fields (the default, as on the wire)', 'anchors', { ...site, fields: [] }],
  ['format json on every operation: links', 'links', { ...site, format: 'json' }],
  ['format json on matrix, which has no CSV form', 'matrix', { urls: urls(2), scope: 'PAGE', format: 'json' }],
  ['format json on score-profile', 'score-profile', { ...site, format: 'json' }],
  ['fields on score-profile', 'score-profile', { ...site, fields: ['domains_count'] }],
  ['month 2012-01', 'metrics', { ...keyword, month: '2012-01' }],
  ['the current month', 'metrics', { ...keyword, month: '2026-11' }],
  ['summary months in order', 'summary', { ...site, date_from: '2020-01', date_to: '2020-01' }],
  ['offset 0 and limit 1', 'links', { ...site, offset: 0, limit: 1 }],
  ['order_by among the requested fields', 'links', { ...site, fields: ['anchor', 'domain_score'], order_by: 'domain_score' }],
  ['order_by among the default fields', 'ref-domains', { ...site, order_by: 'is_follow' }],
  ['backlinks_counts[3] with 3 targets', 'matrix', { urls: urls(3), scope: 'PAGE', filter: 'backlinks_counts[3] > 0' }],
];

describe('values at the edge of each rule are sent', () => {
  it.each(ACCEPTED)('%s', async (_, operation, params) => {
    await call(operation, params);
    expect(server.requests).toHaveLength(1);
  });
});

describe('what is sent', () => {
  it('sends a country in any case as its upper-case code', async () => {
    await call('metrics', { keyword: 'shoes', country: 'us' });
    await call('metrics', { keyword: 'shoes', country: 'uk' });
    await call('metrics', { keyword: 'shoes', country: 'Us' });
    expect(server.requests.map((r) => r.query.get('country'))).toEqual(['US', 'UK', 'US']);
  });

  it('sends format=json on matrix and fields on score-profile', async () => {
    await call('matrix', { urls: ['a.com', 'b.com'], scope: 'PAGE', format: 'json' });
    await call('score-profile', { ...site, fields: ['domains_count'] });
    expect(server.requests.map((r) => r.query.toString())).toEqual([
      'urls=a.com%2Cb.com&scope=PAGE&format=json',
      'url=example.com&scope=ROOT_DOMAIN&fields=domains_count',
    ]);
  });

  it('names json as the only format of matrix', async () => {
    const error = await call('matrix', { urls: ['a.com'], scope: 'PAGE', format: 'csv' }).then(() => undefined, (e: unknown) => e);
    expect((error as ParameterError).message).toBe('format must be json (the only value matrix takes), not "csv".');
  });
});

describe('filters are validated for the operation and the number of targets', () => {
  const cases: Array<[string, OperationName, Params, string]> = [
    ['unknown field', 'links', { ...site, filter: 'domain_scor > 50' }, 'unknown_field'],
    ['field of another operation', 'anchors', { ...site, filter: 'is_nofollow = true' }, 'unknown_field'],
    ['LIKE on a number', 'links', { ...site, filter: 'domain_score LIKE 5' }, 'unexpected_token'],
    ['index beyond the targets', 'matrix', { urls: urls(2), scope: 'PAGE', filter: 'backlinks_counts[3] > 0' }, 'index_out_of_range'],
    ['syntax error', 'ref-ips', { ...site, filter: 'country = ' }, 'unexpected_end'],
  ];
  it.each(cases)('%s', async (_, operation, params, code) => {
    const error = await call(operation, params).then(() => undefined, (e: unknown) => e);
    expect(isFilterError(error), String(error)).toBe(true);
    expect((error as { issues: Array<{ code: string }> }).issues.map((i) => i.code)).toContain(code);
    expect(server.requests).toHaveLength(0);
  });

  it('validates an AST for the operation too', async () => {
    const ast = { kind: 'Comparison', field: { kind: 'Field', name: 'nope', index: null, span: { offset: 0, length: 0 } }, operator: '=', value: { kind: 'Number', value: 1, span: { offset: 0, length: 0 } }, span: { offset: 0, length: 0 } };
    const error = await call('links', { ...site, filter: ast }).then(() => undefined, (e: unknown) => e);
    expect(isFilterError(error)).toBe(true);
    expect(server.requests).toHaveLength(0);
  });
});

describe('client options', () => {
  it.each([
    [{ apiKey: '', baseUrl: 'http://127.0.0.1:1' }, 'apiKey'],
    [{ apiKey: 'k', baseUrl: 'example.com' }, 'baseUrl'],
    [{ apiKey: 'k', baseUrl: 'ftp://example.com' }, 'baseUrl'],
    [{ apiKey: 'k', baseUrl: 'http://x', budget: -1 }, 'budget'],
    [{ apiKey: 'k', baseUrl: 'http://x', timeout: 0 }, 'timeout'],
  ])('rejects %j', (options, parameter) => {
    expect(() => createClient(options)).toThrow(expect.objectContaining({ parameter }));
  });
});
