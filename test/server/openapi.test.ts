/**
 * OpenAPI: served at /openapi.json, generated from the catalogue, identical to docs/openapi.json
 * (run with UPDATE_OPENAPI=1 to rewrite the file); and every operation's real response conforms
 * to the response schema it declares.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import AjvModule from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES, operations } from '../../src/catalogue/operations.js';
import { openApiDocument } from '../../src/server/openapi.js';
import { responseSchema } from '../../src/server/schemas/json-schema.js';
import { build, get } from './helpers.js';

// ajv is CommonJS with a default export; under NodeNext the class is on `.default`.
type AjvClass = new (options: object) => { compile(schema: object): ((data: unknown) => boolean) & { errors?: unknown } };
const Ajv = ((AjvModule as unknown as { default?: AjvClass }).default ?? AjvModule) as unknown as AjvClass;
const FILE = new URL('../../docs/openapi.json', import.meta.url);

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

  it('lists every operation with every catalogue parameter', () => {
    const doc = openApiDocument() as { paths: Record<string, { get: { operationId: string; parameters: { name: string; required: boolean }[] } }> };
    for (const name of OPERATION_NAMES) {
      const op = doc.paths[operations[name].path]!.get;
      expect(op.operationId).toBe(operations[name].method);
      expect(op.parameters.map((p) => p.name)).toEqual(Object.keys(operations[name].params));
      expect(op.parameters.filter((p) => p.required).map((p) => p.name)).toEqual(
        Object.entries(operations[name].params).filter(([, rule]) => rule.required).map(([param]) => param),
      );
    }
  });

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
