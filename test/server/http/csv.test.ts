/**
 * CSV for every operation that offers it, compared byte for byte with text written by hand: the
 * header in the interface's column order (Resources and Endpoints parts, restricted to `fields`),
 * `;` between cells, booleans true/false, arrays comma-joined, RFC 4180 quoting and CRLF line ends
 * (docs/server.md). The rows are worked out by hand from fixture.ts (operations.test.ts explains
 * each value).
 */
import Papa from 'papaparse';
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

/** The CSV body of a call, checked to be a 200 with the CSV content type. */
async function csv(path: string, query: Record<string, string>): Promise<string> {
  const response = await get(ctx.app, path, { ...query, format: 'csv' });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
  return response.body;
}

/** Lines joined with CRLF, the last one ended too. */
const lines = (...all: string[]) => all.map((line) => `${line}\r\n`).join('');

describe('CSV', () => {
  it('overview: the sixteen counts in the interface order', async () => {
    expect(await csv('overview', ROOT)).toBe(lines(
      'backlinks_count;domains_count;urls_count;follows_count;nofollows_count;sponsored_count;ugc_count;frames_count;forms_count;images_count;texts_count;ips_count;ip_class_c_count;new_count;lost_count;score',
      '7;5;6;4;3;1;1;1;1;1;6;5;3;2;2;70',
    ));
  });

  it('links: all 28 columns in the interface order', async () => {
    // page_score DESC: L4 and L5 (both 70; L4 stored first)
    expect(await csv('links', { ...ROOT, limit: '2' })).toBe(lines(
      'source_url;target_url;anchor;redirect_url;source_title;target_title;image_url;image_alt;ip_address;lang;source_size;external_links_count;internal_links_count;response_code;page_score;domain_score;first_seen_at;last_seen_at;source_domain;is_nofollow;is_ugc;is_sponsored;is_form;is_frame;is_image;is_sitewide_main;is_new;is_lost',
      'https://gamma.io/review;https://example.com/blog;Example;https://example.com/old-blog;Gamma review;;;;203.0.113.5;de;3000;8;30;200;70;80;2025-11-01T00:00:00;2026-02-01T00:00:00;gamma.io;true;false;true;false;false;false;false;false;true',
      'https://gamma.io/review;https://example.com/blog/;;;Gamma review;;https://gamma.io/logo.png;Example logo;203.0.113.5;de;3000;8;30;200;70;80;2025-11-01T00:00:00;2026-06-14T00:00:00;gamma.io;false;false;false;false;false;true;false;false;false',
    ));
  });

  it('ref-domains: every referring domain, by backlinks_count then domain', async () => {
    expect(await csv('ref-domains', ROOT)).toBe(lines(
      'domain;ip_address;country;backlinks_count;domain_score;first_seen_at;last_seen_at;is_follow;is_new;is_lost',
      'alpha.org;198.51.100.1;US;2;60;2024-01-10T08:00:00;2026-06-10T00:00:00;true;false;false',
      'gamma.io;203.0.113.5;DE;2;80;2025-11-01T00:00:00;2026-06-14T00:00:00;true;false;false',
      'beta.net;198.51.100.7;US;1;60;2026-05-20T09:30:00;2026-06-12T00:00:00;false;true;false',
      'delta.de;192.0.2.44;DE;1;25;2026-06-01T00:00:00;2026-06-14T00:00:00;true;true;false',
      'epsilon.fr;192.0.2.45;FR;1;15;2023-12-31T23:59:59;2024-06-30T00:00:00;true;false;true',
    ));
  });

  it('ref-ips: one line per source IP (each holds one domain: IP order)', async () => {
    expect(await csv('ref-ips', ROOT)).toBe(lines(
      'ip_address;country;backlinks_count;domains_count;first_seen_at;last_seen_at',
      '192.0.2.44;DE;1;1;2026-06-01T00:00:00;2026-06-14T00:00:00',
      '192.0.2.45;FR;1;1;2023-12-31T23:59:59;2024-06-30T00:00:00',
      '198.51.100.1;US;2;1;2024-01-10T08:00:00;2026-06-10T00:00:00',
      '198.51.100.7;US;1;1;2026-05-20T09:30:00;2026-06-12T00:00:00',
      '203.0.113.5;DE;2;1;2025-11-01T00:00:00;2026-06-14T00:00:00',
    ));
  });

  it('pages: stored target pages give title, status and link counts; others empty, 200, 0, 0', async () => {
    expect(await csv('pages', ROOT)).toBe(lines(
      'source_url;source_title;response_code;backlinks_count;domains_count;external_links_count;internal_links_count;first_seen_at;last_seen_at',
      'http://blog.example.com/2024/hello;;200;1;1;0;0;2026-05-20T09:30:00;2026-06-12T00:00:00',
      'https://example.com/;Example Domain;200;1;1;1;5;2024-01-10T08:00:00;2026-06-01T00:00:00',
      'https://example.com/?ref=1;;200;1;1;0;0;2023-12-31T23:59:59;2024-06-30T00:00:00',
      'https://example.com/blog;Blog;200;1;1;3;20;2025-11-01T00:00:00;2026-02-01T00:00:00',
      'https://example.com/blog/;;200;1;1;0;0;2025-11-01T00:00:00;2026-06-14T00:00:00',
      'https://example.com/blogging;;200;1;1;0;0;2026-06-01T00:00:00;2026-06-14T00:00:00',
      'https://www.example.com/blog/seo-tips;;200;1;1;0;0;2025-03-05T10:00:00;2026-06-10T00:00:00',
    ));
  });

  it('anchors: the empty anchor is an empty cell; a cell with ; " and a newline is quoted', async () => {
    expect(await csv('anchors', ROOT)).toBe(lines(
      'anchor;backlinks_count;domains_count;first_seen_at;last_seen_at',
      'Example;3;3;2023-12-31T23:59:59;2026-06-01T00:00:00',
      ';1;1;2025-11-01T00:00:00;2026-06-14T00:00:00',
      'click here;1;1;2026-05-20T09:30:00;2026-06-12T00:00:00',
      '"semi;colon ""quote""\nnewline";1;1;2026-06-01T00:00:00;2026-06-14T00:00:00',
      'seo tips;1;1;2025-03-05T10:00:00;2026-06-10T00:00:00',
    ));
  });

  it('score-profile: domain_score then domains_count', async () => {
    expect(await csv('score-profile', ROOT)).toBe(lines('domain_score;domains_count', '15;1', '25;1', '60;2', '80;1'));
  });

  it('competitors: domain, similarity, common_refdomains (the CSV order differs from the table)', async () => {
    // 5 of 6 and 5 of 9 referring domains in common
    expect(await csv('competitors', { domain: 'example.com' })).toBe(lines(
      'domain;similarity;common_refdomains',
      'rival.com;0.8333333333333334;5',
      'other.co.uk;0.5555555555555556;5',
    ));
  });

  it('summary: the url column after month_date', async () => {
    expect(await csv('summary', { ...ROOT, limit: '1' })).toBe(lines('score;backlinks_count;domains_count;follows_count;month_date;url', '70;5;4;3;2026-06-01;example.com'));
  });

  it('comparison: one line per url; scope, in the default fields, has no CSV column', async () => {
    expect(await csv('comparison', { urls: 'example.com,rival.com', scope: 'ROOT_DOMAIN' })).toBe(lines(
      'score;backlinks_count;domains_count;follows_count;url',
      '70;5;4;3;example.com',
      '50;6;6;5;rival.com',
    ));
    expect(await csv('comparison', { urls: 'rival.com', scope: 'ROOT_DOMAIN', fields: 'url,month_date,score,scope' })).toBe(lines(
      'score;month_date;url',
      '50;2026-06-01;rival.com',
    ));
  });

  it('metrics: arrays joined with commas in the cell, columns in the interface order', async () => {
    expect(await csv(METRICS, { keyword: 'seo tools', country: 'US' })).toBe(lines(
      'competitive_density;cpc;intents;keyword_difficulty;number_of_results;search_volume;serp_features;trends',
      '87;2.35;COMMERCIAL,INFORMATIONAL;64;1250000000;60500;SITELINKS,PEOPLE_ALSO_ASK;50,55,60,58,62,70,75,80,78,85,90,100',
    ));
  });

  it('writes the header in the interface order whatever the order of fields', async () => {
    expect(await csv('anchors', { ...ROOT, fields: 'last_seen_at,anchor', limit: '1' })).toBe(lines('anchor;last_seen_at', 'Example;2026-06-01T00:00:00'));
    expect(await csv('overview', { ...ROOT, fields: 'score,lost_count,backlinks_count' })).toBe(lines('backlinks_count;lost_count;score', '7;2;70'));
  });

  it('quotes ; " and newlines (RFC 4180) and writes booleans as true/false', async () => {
    expect(await csv('links', { ...ROOT, fields: 'source_url,anchor,source_title,is_frame', filter: "source_domain = 'delta.de'" })).toBe(
      'source_url;anchor;source_title;is_frame\r\n"https://delta.de/a;b";"semi;colon ""quote""\nnewline";"Delta; ""quoted""";true\r\n',
    );
  });

  it('a standard reader (papaparse, delimiter ;) reads the quoted cells back', async () => {
    const parsed = Papa.parse<Record<string, string>>(await csv('anchors', { ...ROOT, fields: 'anchor,domains_count' }), { header: true, delimiter: ';', skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toEqual([
      { anchor: 'Example', domains_count: '3' }, { anchor: '', domains_count: '1' }, { anchor: 'click here', domains_count: '1' },
      { anchor: 'semi;colon "quote"\nnewline', domains_count: '1' }, { anchor: 'seo tips', domains_count: '1' },
    ]);
  });

  it('an empty list is the header alone', async () => {
    expect(await csv('ref-ips', { url: 'nothing.example', scope: 'ROOT_DOMAIN' })).toBe(
      'ip_address;country;backlinks_count;domains_count;first_seen_at;last_seen_at\r\n',
    );
  });

  it('matrix has no CSV form: format=json is taken, format=csv refused naming json', async () => {
    const response = await get(ctx.app, 'matrix', { urls: 'example.com', scope: 'ROOT_DOMAIN', format: 'csv' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details[0]).toMatchObject({ parameter: 'format', rule: 'invalid_value' });
    expect((await get(ctx.app, 'matrix', { urls: 'example.com', scope: 'ROOT_DOMAIN', format: 'json' })).statusCode).toBe(200);
  });
});
