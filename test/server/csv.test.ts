/**
 * CSV for every operation that offers it: header in catalogue order restricted to `fields`, `;`,
 * booleans true/false, arrays comma-joined, and quoting that papaparse reads back to the JSON values.
 */
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES, operations } from '../../src/catalogue/operations.js';
import { build, get } from './helpers.js';

let ctx: Awaited<ReturnType<typeof build>>;
beforeAll(async () => {
  ctx = await build();
});
afterAll(async () => {
  await ctx.app.close();
});

const QUERIES: Record<string, Record<string, string>> = {
  overview: { url: 'example.com', scope: 'ROOT_DOMAIN' },
  summary: { url: 'example.com', scope: 'ROOT_DOMAIN' },
  links: { url: 'example.com', scope: 'ROOT_DOMAIN' },
  'ref-domains': { url: 'example.com', scope: 'ROOT_DOMAIN' },
  'ref-ips': { url: 'example.com', scope: 'ROOT_DOMAIN' },
  pages: { url: 'example.com', scope: 'ROOT_DOMAIN' },
  anchors: { url: 'example.com', scope: 'ROOT_DOMAIN' },
  'score-profile': { url: 'example.com', scope: 'ROOT_DOMAIN' },
  competitors: { domain: 'example.com' },
  comparison: { urls: 'example.com,rival.com', scope: 'ROOT_DOMAIN' },
  metrics: { keyword: 'seo tools', country: 'US' },
};

const pathOf = (op: string) => operations[op as keyof typeof operations].path;

/** A JSON value as its CSV cell text. */
const asCell = (value: unknown) => (Array.isArray(value) ? value.join(',') : String(value));

describe('CSV', () => {
  const csvOperations = OPERATION_NAMES.filter((op) => operations[op].csv);
  it('is offered by every operation but matrix', () => {
    expect(csvOperations).toEqual(OPERATION_NAMES.filter((op) => op !== 'matrix'));
  });

  it.each(csvOperations)('%s: reads back with papaparse to the JSON values', async (op) => {
    const jsonResponse = await get(ctx.app, pathOf(op), QUERIES[op]!);
    const json = jsonResponse.json();
    const response = await get(ctx.app, pathOf(op), { ...QUERIES[op]!, format: 'csv' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const parsed = Papa.parse<Record<string, string>>(response.body, { header: true, delimiter: ';', skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    const rows: Record<string, unknown>[] = Array.isArray(json.data) ? json.data : [json.data];
    const record = operations[op].record as Record<string, { csv?: boolean }>;
    const columns = Object.keys(rows[0] ?? {}).filter((f) => record[f]?.csv !== false);
    expect(parsed.meta.fields).toEqual(columns);
    expect(parsed.data).toEqual(rows.map((row) => Object.fromEntries(columns.map((c) => [c, asCell(row[c])]))));
    // The same lines cost the same in either format.
    expect(response.headers['x-units-charged']).toBe(jsonResponse.headers['x-units-charged']);
  });

  it('writes the header in catalogue order whatever the order of fields', async () => {
    const response = await get(ctx.app, 'anchors', { ...QUERIES['anchors']!, format: 'csv', fields: 'last_seen_at,anchor' });
    expect(response.body.split('\r\n')[0]).toBe('anchor;last_seen_at');
  });

  it('quotes ; " and newlines (RFC 4180) and writes booleans as true/false', async () => {
    const response = await get(ctx.app, 'links', { ...QUERIES['links']!, format: 'csv', fields: 'source_url,anchor,source_title,is_frame', filter: "source_domain = 'delta.de'" });
    expect(response.body).toBe('source_url;anchor;source_title;is_frame\r\n"https://delta.de/a;b";"semi;colon ""quote""\nnewline";"Delta; ""quoted""";true\r\n');
  });

  it('joins keyword-metrics arrays with commas in the cell, columns in the interface order', async () => {
    const response = await get(ctx.app, pathOf('metrics'), { ...QUERIES['metrics']!, format: 'csv' });
    expect(response.body).toBe(
      'competitive_density;cpc;intents;keyword_difficulty;number_of_results;search_volume;serp_features;trends\r\n' +
        '87;2.35;COMMERCIAL,INFORMATIONAL;64;1250000000;60500;SITELINKS,PEOPLE_ALSO_ASK;50,55,60,58,62,70,75,80,78,85,90,100\r\n',
    );
  });

  it('summary CSV has the url column; comparison CSV drops scope (no CSV column)', async () => {
    const summary = await get(ctx.app, 'summary', { ...QUERIES['summary']!, format: 'csv', limit: '1' });
    expect(summary.body).toBe('score;backlinks_count;domains_count;follows_count;month_date;url\r\n70;5;4;3;2026-06-01;example.com\r\n');
    const comparison = await get(ctx.app, 'comparison', { ...QUERIES['comparison']!, format: 'csv' });
    expect(comparison.body).toBe('score;backlinks_count;domains_count;follows_count;url\r\n70;5;4;3;example.com\r\n50;6;6;5;rival.com\r\n');
  });

  it('an empty list is the header alone', async () => {
    const response = await get(ctx.app, 'ref-ips', { url: 'nothing.example', scope: 'ROOT_DOMAIN', format: 'csv' });
    expect(response.body).toBe('ip_address;country;backlinks_count;domains_count;first_seen_at;last_seen_at\r\n');
  });

  it('matrix has no CSV form: format=json is taken, format=csv refused naming json', async () => {
    const response = await get(ctx.app, 'matrix', { urls: 'example.com', scope: 'ROOT_DOMAIN', format: 'csv' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details[0]).toMatchObject({ parameter: 'format', rule: 'invalid_value' });
    expect((await get(ctx.app, 'matrix', { urls: 'example.com', scope: 'ROOT_DOMAIN', format: 'json' })).statusCode).toBe(200);
  });
});
