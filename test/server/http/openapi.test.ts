/**
 * OpenAPI: served at /openapi.json, identical to the committed docs/openapi.json (the drift check;
 * run with UPDATE_OPENAPI=1 to rewrite the file); spot checks of paths, parameters, enums, defaults,
 * response fields, meta members and prices written by hand from the interface; and every
 * operation's real response conforms to the response schema it declares.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import AjvModule from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES, operations } from '../../../src/catalogue/operations.js';
import { openApiDocument } from '../../../src/server/openapi.js';
import { responseSchema } from '../../../src/catalogue/json-schema.js';
import { build, get } from '../support/helpers.js';

// ajv is CommonJS with a default export; under NodeNext the class is on `.default`.
type AjvClass = new (options: object) => { compile(schema: object): ((data: unknown) => boolean) & { errors?: unknown } };
const Ajv = ((AjvModule as unknown as { default?: AjvClass }).default ?? AjvModule) as unknown as AjvClass;
const FILE = new URL('../../../docs/openapi.json', import.meta.url);

interface Schema {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  required?: string[];
  items?: Schema;
  properties?: Record<string, Schema>;
}
interface OpenApi {
  security: Record<string, string[]>[];
  components: { securitySchemes: Record<string, { type: string; in: string; name: string }>; schemas: Record<string, object> };
  paths: Record<
    string,
    {
      get: {
        operationId: string;
        description: string;
        parameters: { name: string; in: string; required: boolean; schema: Schema }[];
        responses: Record<string, { content?: Record<string, { schema: Schema & { properties: { meta: Schema; data: Schema } } }> }>;
      };
    }
  >;
}

let ctx: Awaited<ReturnType<typeof build>>;
beforeAll(async () => {
  ctx = await build();
});
afterAll(async () => {
  await ctx.app.close();
});

describe('OpenAPI', () => {
  it('docs/openapi.json is the served document', async () => {
    const served = (await ctx.app.inject({ url: '/openapi.json' })).json();
    const text = `${JSON.stringify(served, null, 2)}\n`;
    if (process.env['UPDATE_OPENAPI'] === '1') writeFileSync(FILE, text);
    expect(readFileSync(FILE, 'utf8')).toBe(text);
  });
});

/**
 * Spot checks of the served document against the interface (service-interface.md), every expected
 * value written by hand from that page, so a wrong catalogue or generator fails here even after
 * docs/openapi.json has been regenerated from it.
 */
describe('OpenAPI, checked against the interface by hand', () => {
  let doc: OpenApi;
  beforeAll(async () => {
    doc = (await ctx.app.inject({ url: '/openapi.json' })).json();
  });
  const op = (path: string) => doc.paths[`/_api/apis/v4/${path}`]!.get;
  const param = (path: string, name: string) => op(path).parameters.find((p) => p.name === name);
  const jsonBody = (path: string) => op(path).responses['200']!.content!['application/json']!.schema;
  const dataProperties = (path: string) => {
    const data = jsonBody(path).properties.data;
    return Object.keys((data.items ?? data).properties!).sort();
  };

  it('has the twelve paths of the interface (all GET), and the units balance and health check of the reference server', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/_api/apis/v4/backlinks/v1/overview',
        '/_api/apis/v4/backlinks/v1/summary',
        '/_api/apis/v4/backlinks/v1/links',
        '/_api/apis/v4/backlinks/v1/ref-domains',
        '/_api/apis/v4/backlinks/v1/ref-ips',
        '/_api/apis/v4/backlinks/v1/pages',
        '/_api/apis/v4/backlinks/v1/anchors',
        '/_api/apis/v4/backlinks/v1/score-profile',
        '/_api/apis/v4/backlinks/v1/competitors',
        '/_api/apis/v4/backlinks/v1/comparison',
        '/_api/apis/v4/backlinks/v1/matrix',
        '/_api/apis/v4/keywords/v1/metrics',
        '/_api/apis/v4/units/v1/balance',
        '/health',
      ].sort(),
    );
    for (const item of Object.values(doc.paths)) expect(Object.keys(item)).toEqual(['get']);
  });

  const LIST = ['url', 'scope', 'format', 'fields', 'order_by', 'direction', 'limit', 'offset', 'filter'];
  it.each<[string, string[], string[]]>([
    ['backlinks/v1/overview', ['url', 'scope', 'format', 'fields'], ['url', 'scope']],
    ['backlinks/v1/summary', ['url', 'scope', 'format', 'fields', 'limit', 'date_from', 'date_to'], ['url', 'scope']],
    ['backlinks/v1/links', LIST, ['url', 'scope']],
    ['backlinks/v1/ref-domains', LIST, ['url', 'scope']],
    ['backlinks/v1/ref-ips', LIST, ['url', 'scope']],
    ['backlinks/v1/pages', LIST, ['url', 'scope']],
    ['backlinks/v1/anchors', LIST, ['url', 'scope']],
    // The interface says "url, scope, format only"; the package also takes fields (operations.ts says why).
    ['backlinks/v1/score-profile', ['url', 'scope', 'format', 'fields'], ['url', 'scope']],
    ['backlinks/v1/competitors', ['domain', 'fields', 'order_by', 'direction', 'limit', 'offset', 'format'], ['domain']],
    ['backlinks/v1/comparison', ['urls', 'scope', 'fields', 'format'], ['urls', 'scope']],
    // No format is listed for matrix; the package takes format=json only.
    ['backlinks/v1/matrix', ['urls', 'scope', 'order_by', 'direction', 'limit', 'offset', 'filter', 'format'], ['urls', 'scope']],
    ['keywords/v1/metrics', ['keyword', 'country', 'month', 'format'], ['keyword', 'country']],
  ])('%s: parameters %j, required %j, all in the query', (path, names, required) => {
    const parameters = op(path).parameters;
    expect(parameters.map((p) => p.name).sort()).toEqual([...names].sort());
    expect(parameters.filter((p) => p.required).map((p) => p.name).sort()).toEqual([...required].sort());
    for (const p of parameters) expect(p.in).toBe('query');
  });

  it.each<[string, string, number]>([
    ['backlinks/v1/links', 'page_score', 100],
    ['backlinks/v1/ref-domains', 'backlinks_count', 100],
    ['backlinks/v1/ref-ips', 'domains_count', 100],
    ['backlinks/v1/pages', 'domains_count', 100],
    ['backlinks/v1/anchors', 'domains_count', 100],
    ['backlinks/v1/competitors', 'similarity', 100],
  ])('%s: order_by defaults to %s, direction to DESC (ASC or DESC), limit to %i', (path, orderBy, limit) => {
    expect(param(path, 'order_by')!.schema.default).toBe(orderBy);
    expect(param(path, 'direction')!.schema).toMatchObject({ enum: ['ASC', 'DESC'], default: 'DESC' });
    expect(param(path, 'limit')!.schema).toMatchObject({ type: 'integer', default: limit });
    expect(param(path, 'offset')!.schema.type).toBe('integer');
  });

  it('summary: limit 12 by default, months as YYYY-MM', () => {
    expect(param('backlinks/v1/summary', 'limit')!.schema.default).toBe(12);
    expect(param('backlinks/v1/matrix', 'limit')!.schema.default).toBe(100);
    for (const month of ['date_from', 'date_to']) {
      const pattern = new RegExp(param('backlinks/v1/summary', month)!.schema.pattern!);
      expect(['2025-01', '2024-12'].every((m) => pattern.test(m)), month).toBe(true);
      expect(['2025-13', '2025-1', '2025-01-01'].some((m) => pattern.test(m)), month).toBe(false);
    }
  });

  it('scope: four values on the target operations, three on summary, comparison and matrix', () => {
    for (const path of ['overview', 'links', 'ref-domains', 'ref-ips', 'pages', 'anchors', 'score-profile']) {
      expect(param(`backlinks/v1/${path}`, 'scope')!.schema.enum, path).toEqual(['ROOT_DOMAIN', 'SUBDOMAIN', 'SUBFOLDER', 'PAGE']);
    }
    for (const path of ['summary', 'comparison', 'matrix']) {
      expect(param(`backlinks/v1/${path}`, 'scope')!.schema.enum, path).toEqual(['ROOT_DOMAIN', 'SUBDOMAIN', 'PAGE']);
    }
  });

  it('url at most 2000 characters, keyword 1 to 255; format json or csv, json only on matrix (no CSV form)', () => {
    expect(param('backlinks/v1/links', 'url')!.schema.maxLength).toBe(2000);
    expect(param('backlinks/v1/overview', 'url')!.schema.maxLength).toBe(2000);
    expect(param('keywords/v1/metrics', 'keyword')!.schema).toMatchObject({ minLength: 1, maxLength: 255 });
    expect(param('backlinks/v1/anchors', 'format')!.schema).toMatchObject({ enum: ['json', 'csv'], default: 'json' });
    expect(param('backlinks/v1/matrix', 'format')!.schema.enum).toEqual(['json']);
    expect(Object.keys(op('backlinks/v1/matrix').responses['200']!.content!)).toEqual(['application/json']);
    expect(Object.keys(op('backlinks/v1/competitors').responses['200']!.content!)).toEqual(['application/json', 'text/csv']);
  });

  it('a filter on links, ref-domains, ref-ips, pages, anchors and matrix, and nowhere else', () => {
    const withFilter = Object.keys(doc.paths).filter((path) => doc.paths[path]!.get.parameters?.some((p) => p.name === 'filter'));
    expect(withFilter.map((path) => path.split('/').pop()).sort()).toEqual(['anchors', 'links', 'matrix', 'pages', 'ref-domains', 'ref-ips']);
  });

  it('country: exactly the interface list of 121 codes, the United Kingdom as UK', () => {
    const ALLOWED =
      'AF AL DZ AO AR AM AU AT AZ BS BH BD BY BE BZ BO BA BW BR BN BG KH CM CA CV CL CO CR HR CY CZ CD DK DO EC EG SV EE ET FI FR GE DE GH GR GT GY HT HN HK HU IS IN ID IE IL IT JM JP JO KZ KW LV LB LY LT LU MG MY MT MU MX MD MN ME MA MZ NA NP NL NZ NI NG NO OM PK PA PY PE PH PL PT QA RO RU SA SN RS SG SK SI ZA KR ES LK SE CH TW TH TT TN TR UA AE UK US UY VE VN ZM ZW';
    const codes = param('keywords/v1/metrics', 'country')!.schema.enum as string[];
    expect(codes).toHaveLength(121);
    expect([...codes].sort()).toEqual(ALLOWED.split(' ').sort());
    expect(codes).not.toContain('GB');
  });

  it.each<[string, string[]]>([
    ['backlinks/v1/ref-ips', ['ip_address', 'country', 'backlinks_count', 'domains_count', 'first_seen_at', 'last_seen_at']],
    ['backlinks/v1/anchors', ['anchor', 'backlinks_count', 'domains_count', 'first_seen_at', 'last_seen_at']],
    ['backlinks/v1/pages', ['source_url', 'source_title', 'response_code', 'backlinks_count', 'domains_count', 'external_links_count', 'internal_links_count', 'first_seen_at', 'last_seen_at']],
    ['backlinks/v1/ref-domains', ['domain', 'ip_address', 'country', 'backlinks_count', 'domain_score', 'first_seen_at', 'last_seen_at', 'is_follow', 'is_new', 'is_lost']],
    ['backlinks/v1/score-profile', ['domain_score', 'domains_count']],
    ['backlinks/v1/competitors', ['domain', 'common_refdomains', 'similarity']],
    ['backlinks/v1/matrix', ['domain', 'domain_score', 'ip_address', 'country', 'matches_count', 'backlinks_counts']],
    ['backlinks/v1/summary', ['score', 'backlinks_count', 'domains_count', 'follows_count', 'month_date', 'url', 'scope']],
    ['backlinks/v1/comparison', ['score', 'backlinks_count', 'domains_count', 'follows_count', 'month_date', 'url', 'scope']],
    ['keywords/v1/metrics', ['search_volume', 'cpc', 'competitive_density', 'keyword_difficulty', 'number_of_results', 'intents', 'serp_features', 'trends']],
    [
      'backlinks/v1/overview',
      ['backlinks_count', 'domains_count', 'urls_count', 'follows_count', 'nofollows_count', 'sponsored_count', 'ugc_count', 'frames_count', 'forms_count', 'images_count', 'texts_count', 'ips_count', 'ip_class_c_count', 'new_count', 'lost_count', 'score'],
    ],
  ])('%s: the response rows carry the fields of the interface record', (path, fields) => {
    expect(dataProperties(path)).toEqual([...fields].sort());
    // One object for overview and keyword metrics, an array for the list operations.
    expect(jsonBody(path).properties.data.type).toBe(path.endsWith('overview') || path.endsWith('metrics') ? 'object' : 'array');
  });

  it('field types as the interface gives them', () => {
    const type = (path: string, field: string) => {
      const data = jsonBody(path).properties.data;
      return (data.items ?? data).properties![field];
    };
    expect(type('backlinks/v1/competitors', 'similarity')!.type).toBe('number');
    expect(type('backlinks/v1/competitors', 'common_refdomains')!.type).toBe('integer');
    expect(type('backlinks/v1/matrix', 'backlinks_counts')).toMatchObject({ type: 'array', items: { type: 'integer' } });
    expect(type('backlinks/v1/links', 'is_nofollow')!.type).toBe('boolean');
    expect(type('backlinks/v1/links', 'first_seen_at')!.type).toBe('string');
    expect(type('backlinks/v1/links', 'source_size')!.type).toBe('integer');
    expect(type('keywords/v1/metrics', 'search_volume')!.type).toBe('string');
    expect(type('keywords/v1/metrics', 'cpc')!.type).toBe('string');
    expect(type('keywords/v1/metrics', 'trends')).toMatchObject({ type: 'array', items: { type: 'integer' } });
    expect(type('keywords/v1/metrics', 'intents')).toMatchObject({ type: 'array', items: { type: 'string' } });
  });

  it.each<[string, string[]]>([
    ['backlinks/v1/links', ['direction', 'effective_url', 'filter', 'limit', 'offset', 'order_by', 'request_id', 'scope', 'status_code', 'success', 'total', 'url']],
    ['backlinks/v1/summary', ['request_id', 'status_code', 'success', 'date_from', 'date_to', 'effective_url', 'scope', 'url', 'total']],
    ['backlinks/v1/score-profile', ['request_id', 'status_code', 'success', 'url', 'effective_url', 'scope', 'total']],
    ['backlinks/v1/competitors', ['request_id', 'status_code', 'success', 'domain', 'direction', 'order_by', 'limit', 'offset', 'total']],
    ['backlinks/v1/comparison', ['request_id', 'scope', 'status_code', 'success', 'total', 'urls']],
    ['backlinks/v1/matrix', ['request_id', 'status_code', 'success', 'urls', 'scope', 'total']],
    ['keywords/v1/metrics', ['country', 'keyword', 'month', 'request_id', 'status_code', 'success']],
    ['backlinks/v1/overview', ['request_id', 'status_code', 'success']],
  ])('%s: meta members as the interface lists them', (path, members) => {
    const meta = jsonBody(path).properties.meta;
    expect(Object.keys(meta.properties!).sort()).toEqual([...members].sort());
    expect(meta.required).toEqual(['request_id', 'status_code', 'success']);
  });

  it('ref-ips, pages and anchors: meta has at least the members the interface lists; filter is null when absent', () => {
    for (const path of ['ref-ips', 'pages', 'anchors']) {
      expect(Object.keys(jsonBody(`backlinks/v1/${path}`).properties.meta.properties!)).toEqual(expect.arrayContaining(['request_id', 'status_code', 'success']));
    }
    expect(Object.keys(jsonBody('backlinks/v1/ref-ips').properties.meta.properties!)).toContain('total');
    expect(jsonBody('backlinks/v1/links').properties.meta.properties!['filter']!.type).toEqual(['string', 'null']);
  });

  it('prices as the interface lists them', () => {
    const PRICES: Record<string, string> = {
      'backlinks/v1/overview': '45 units per request',
      'keywords/v1/metrics': '20 units per request',
      'backlinks/v1/links': '45 units per returned line',
      'backlinks/v1/summary': '40 units per returned line',
      'backlinks/v1/ref-domains': '40 units per returned line',
      'backlinks/v1/pages': '40 units per returned line',
      'backlinks/v1/anchors': '40 units per returned line',
      'backlinks/v1/competitors': '40 units per returned line',
      'backlinks/v1/comparison': '40 units per returned line',
      'backlinks/v1/matrix': '40 units per returned line',
      'backlinks/v1/ref-ips': '20 units per returned line',
      'backlinks/v1/score-profile': '1 unit per returned line',
    };
    for (const [path, price] of Object.entries(PRICES)) expect(op(path).description, path).toContain(`Price: ${price}.`);
  });

  it('authentication: the Authorization header with Apikey', () => {
    expect(doc.components.securitySchemes['Apikey']).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
    expect(doc.security).toContainEqual({ Apikey: [] });
  });

  it('the health check needs no key and answers 200, 400 or 503 (docs/server.md, "Health checks")', () => {
    const health = (doc.paths['/health'] as unknown as { get: { security: unknown[]; responses: Record<string, unknown> } }).get;
    expect(health.security).toEqual([]);
    expect(Object.keys(health.responses).sort()).toEqual(['200', '400', '503']);
    const data = (health.responses['200'] as { content: { 'application/json': { schema: Schema } } }).content['application/json'].schema.properties!['data']!;
    expect([data.required, Object.keys(data.properties!)]).toEqual([['store', 'answering'], ['store', 'answering']]);
  });
});

describe('OpenAPI responses', () => {
  const QUERIES: Record<string, Record<string, string>> = {
    overview: { url: 'example.com', scope: 'ROOT_DOMAIN' },
    summary: { url: 'example.com', scope: 'ROOT_DOMAIN', date_from: '2025-01' },
    links: { url: 'example.com', scope: 'ROOT_DOMAIN', filter: 'page_score > 1' },
    'ref-domains': { url: 'example.com', scope: 'ROOT_DOMAIN' },
    'ref-ips': { url: 'example.com', scope: 'ROOT_DOMAIN' },
    pages: { url: 'example.com', scope: 'ROOT_DOMAIN' },
    anchors: { url: 'example.com', scope: 'ROOT_DOMAIN' },
    'score-profile': { url: 'example.com', scope: 'ROOT_DOMAIN' },
    competitors: { domain: 'example.com' },
    comparison: { urls: 'example.com,rival.com', scope: 'ROOT_DOMAIN' },
    matrix: { urls: 'example.com,rival.com', scope: 'ROOT_DOMAIN' },
    metrics: { keyword: 'seo tools', country: 'US' },
  };

  it.each(OPERATION_NAMES)('%s: the response conforms to its schema, with every meta member the catalogue lists', async (name) => {
    const response = await get(ctx.app, operations[name].path, QUERIES[name]!);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const validate = new Ajv({ strict: false }).compile(responseSchema(name));
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect(Object.keys(body.meta).sort()).toEqual(['request_id', 'status_code', 'success', ...operations[name].meta].sort());
  });

  it('an error conforms to the Error schema', async () => {
    const doc = openApiDocument() as unknown as { components: { schemas: { Error: object } } };
    const response = await get(ctx.app, 'links', { scope: 'X' });
    const validate = new Ajv({ strict: false }).compile(doc.components.schemas.Error);
    expect(validate(response.json())).toBe(true);
  });
});
