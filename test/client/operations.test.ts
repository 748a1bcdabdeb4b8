import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { operations, OPERATION_NAMES, type OperationName } from '../../src/catalogue/operations.js';
import { createClient, type Client } from '../../src/client/index.js';
import { sampleRow } from './helpers/fixtures.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';

let server: FixtureServer;
let client: Client;

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  client = createClient({ apiKey: 'secret-key', baseUrl: server.baseUrl });
});

/** Minimal valid parameters of each operation, from the catalogue's required parameters. */
function requiredParams(operation: OperationName): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(operations[operation].params as Record<string, { kind: string; required: boolean; values?: readonly string[] }>)) {
    if (!spec.required) continue;
    if (spec.kind === 'string') values[name] = name === 'keyword' ? 'running shoes' : 'example.com';
    if (spec.kind === 'string-list') values[name] = ['example.com', 'example.org', 'example.net'];
    if (spec.kind === 'enum') values[name] = spec.values!.includes('UK') ? 'UK' : spec.values![0];
  }
  return values;
}

const call = (operation: OperationName, params: Record<string, unknown>) =>
  (client.call as unknown as (op: OperationName, p: Record<string, unknown>) => ReturnType<Client['links']>)(operation, params);

describe('every operation, JSON', () => {
  it.each(OPERATION_NAMES)('%s: GET {baseUrl}{path} with the key, decoded and priced', async (operation) => {
    const spec = operations[operation];
    const result = await call(operation, requiredParams(operation));
    const request = server.requests[0]!;
    expect(server.requests).toHaveLength(1);
    expect(request.method).toBe('GET');
    expect(request.path).toBe(spec.path);
    expect(request.headers.authorization).toBe('Apikey secret-key');
    expect(result.format).toBe('json');
    expect(result.meta.success).toBe(true);
    const rows = Array.isArray(result.data) ? result.data : [result.data];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]).toEqual(sampleRow(operation, spec.shape === 'list' ? 0 : 7, request.query.get('urls')?.split(',').length ?? 12));
    const expectedUnits = spec.price.per === 'request' ? spec.price.units : spec.price.units * rows.length;
    expect(result.units).toBe(expectedUnits);
    expect(client.unitsSpent).toBe(expectedUnits);
  });

  it('sends multi-valued parameters comma-joined, in one query parameter each', async () => {
    await client.matrix({ urls: ['a.com', 'b.com'], scope: 'ROOT_DOMAIN', filter: 'backlinks_counts[2] > 1', limit: 5 });
    const query = server.requests[0]!.query;
    expect(query.get('urls')).toBe('a.com,b.com');
    expect(query.getAll('urls')).toHaveLength(1);
    expect(query.get('filter')).toBe('backlinks_counts[2] > 1');
    await client.links({ url: 'example.com', scope: 'PAGE', fields: ['anchor', 'domain_score'], order_by: 'domain_score', direction: 'ASC' });
    expect(Object.fromEntries(server.requests[1]!.query)).toEqual({
      url: 'example.com', scope: 'PAGE', fields: 'anchor,domain_score', order_by: 'domain_score', direction: 'ASC',
    });
  });

  it('sends the shortest text of a filter (canonical unless the text as written is shorter), from text, an AST or a builder-like object', async () => {
    await client.links({ url: 'x.com', scope: 'ROOT_DOMAIN', filter: "domain_score>50  and  anchor like '%seo%'" });
    const ast = { kind: 'Comparison', field: { kind: 'Field', name: 'is_new', index: null, span: { offset: 0, length: 0 } }, operator: '=', value: { kind: 'Boolean', value: true, span: { offset: 0, length: 0 } }, span: { offset: 0, length: 0 } } as const;
    await client.refDomains({ url: 'x.com', scope: 'ROOT_DOMAIN', filter: ast });
    await client.links({ url: 'x.com', scope: 'ROOT_DOMAIN', filter: { toAst: () => ast } });
    await client.links({ url: 'x.com', scope: 'ROOT_DOMAIN', filter: 'page_score>1' });
    expect(server.requests.map((r) => r.query.get('filter'))).toEqual(["domain_score > 50 AND anchor LIKE '%seo%'", 'is_new = true', 'is_new = true', 'page_score>1']);
  });

  it('treats an empty or blank filter as no filter, as the interface does', async () => {
    await client.links({ url: 'x.com', scope: 'ROOT_DOMAIN', filter: '  \n' });
    expect(server.requests[0]!.query.has('filter')).toBe(false);
  });

  it('keeps a path prefix of the base URL and drops a trailing slash', async () => {
    const prefixed = createClient({ apiKey: 'k', baseUrl: `${server.baseUrl}/gateway/` });
    await prefixed.overview({ url: 'x.com', scope: 'ROOT_DOMAIN' }).catch(() => undefined);
    expect(server.requests[0]!.path).toBe(`/gateway${operations.overview.path}`);
  });

  it('narrows rows to the requested fields', async () => {
    const { data } = await client.links({ url: 'x.com', scope: 'ROOT_DOMAIN', fields: ['anchor', 'domain_score'], limit: 3 });
    expect(data).toHaveLength(3);
    expect(Object.keys(data[0]!)).toEqual(['anchor', 'domain_score']);
  });
});

const CSV_OPERATIONS = OPERATION_NAMES.filter((name) => operations[name].csv);

describe('every operation with a CSV form', () => {
  it.each(CSV_OPERATIONS)('%s: raw text and rows typed from the catalogue', async (operation) => {
    const spec = operations[operation];
    const result = await call(operation, { ...requiredParams(operation), format: 'csv' });
    expect(server.requests[0]!.query.get('format')).toBe('csv');
    if (result.format !== 'csv') throw new Error('expected a CSV result');
    expect(result.text.split('\n')[0]).toContain(';');
    const rows = (Array.isArray(result.data) ? result.data : [result.data]) as Record<string, unknown>[];
    const json = sampleRow(operation, spec.shape === 'list' ? 0 : 7, server.requests[0]!.query.get('urls')?.split(',').length ?? 12);
    // Every CSV column decodes to the same value and type as the JSON form.
    for (const [name, value] of Object.entries(rows[0]!)) expect(value).toEqual(json[name]);
    expect(result.requestId).toBe('csv-1');
  });

  it('decodes quoted cells with semicolons, quotes, newlines and non-ASCII text', async () => {
    const result = await client.links({ url: 'x.com', scope: 'ROOT_DOMAIN', format: 'csv', limit: 6 });
    expect(result.data.map((row) => row.anchor)).toEqual([0, 1, 2, 3, 4, 5].map((i) => sampleRow('links', i).anchor));
    expect(result.data[1]!.is_nofollow).toBe(false);
    expect(result.data[2]!.domain_score).toBe(2);
  });

  it('decodes comma-joined arrays of keyword metrics, including empty ones', async () => {
    const result = await client.metrics({ keyword: 'shoes', country: 'UK', format: 'csv' });
    expect(result.data.intents).toEqual(['COMMERCIAL', 'INFORMATIONAL', 'SITELINKS']);
    expect(result.data.trends).toEqual(Array.from({ length: 12 }, (_, t) => 7 + t));
    expect(result.units).toBe(operations.metrics.price.units);
  });

  it('client.metrics is the operation metrics (GET .../keywords/v1/metrics); the deprecated keywordMetrics is the same function', async () => {
    await client.metrics({ keyword: 'shoes', country: 'UK' });
    expect(server.requests[0]!.path).toBe('/_api/apis/v4/keywords/v1/metrics');
    expect(client.keywordMetrics).toBe(client.metrics);
  });
});
