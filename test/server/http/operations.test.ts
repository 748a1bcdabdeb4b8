/**
 * Every operation over HTTP (JSON) on the fixture; each expected answer is worked out by hand
 * from fixture.ts (see the comments), not computed by the server's SQL.
 */
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
const data = async (op: string, query: Record<string, string>) => {
  const response = await get(ctx.app, op, query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { meta: Record<string, unknown>; data: any };
};
const column = (rows: Record<string, unknown>[], field: string) => rows.map((row) => row[field]);

describe('overview', () => {
  it('counts the links of a root domain and all its subdomains', async () => {
    const { meta, data: record } = await data('overview', ROOT);
    expect(meta).toEqual({ request_id: expect.any(String), status_code: 200, success: true });
    expect(record).toEqual({
      backlinks_count: 7, domains_count: 5, urls_count: 6, follows_count: 4, nofollows_count: 3, sponsored_count: 1, ugc_count: 1,
      frames_count: 1, forms_count: 1, images_count: 1, texts_count: 6, ips_count: 5, ip_class_c_count: 3,
      new_count: 2, // L3 (2026-05-20) and L6 (2026-06-01) are on or after 2026-05-16T12:00:00
      lost_count: 2, score: 70,
    });
  });

  it.each([
    ['SUBDOMAIN', 'example.com', 5, 70], // L1 L4 L5 L6 L7
    ['SUBDOMAIN', 'https://www.example.com', 1, 70], // L2; no domains row for the host: the registrable domain's score
    ['SUBDOMAIN', 'blog.example.com', 1, 70], // L3
    ['SUBFOLDER', 'example.com/blog', 2, 70], // /blog and /blog/, not /blogging
    ['SUBFOLDER', 'http://example.com/blog/', 2, 70],
    ['SUBFOLDER', 'example.com/', 5, 70],
    ['PAGE', 'example.com/blog', 1, 40], // L4; page score of the target page
    ['PAGE', 'https://example.com', 1, 66], // L1 (path /); L7's /?ref=1 is another page
    ['PAGE', 'example.com/?ref=1', 1, 0], // no target_pages row: score 0
    ['ROOT_DOMAIN', 'https://blog.other.co.uk/x', 9, 45], // the registrable domain by the public suffix list
    ['ROOT_DOMAIN', 'unknown.org', 0, 0],
  ])('%s %s has %i links, score %i', async (scope, url, backlinks, score) => {
    const { data: record } = await data('overview', { url, scope });
    expect([record.backlinks_count, record.score]).toEqual([backlinks, score]);
  });

  it('returns only the requested fields', async () => {
    const { data: record } = await data('overview', { ...ROOT, fields: 'score,lost_count' });
    expect(record).toEqual({ lost_count: 2, score: 70 });
  });
});

describe('links', () => {
  it('lists every backlink field, by page_score DESC then storage order', async () => {
    const { meta, data: rows } = await data('links', ROOT);
    expect(meta).toEqual({
      request_id: expect.any(String), status_code: 200, success: true, direction: 'DESC', effective_url: 'example.com', filter: null,
      limit: 100, offset: 0, order_by: 'page_score', scope: 'ROOT_DOMAIN', total: 7, url: 'example.com',
    });
    // page scores: L4 70, L5 70, L1 50, L2 45, L3 30, L6 20, L7 10 (L4 before L5: stored first)
    expect(column(rows, 'source_url')).toEqual([
      'https://gamma.io/review', 'https://gamma.io/review', 'https://alpha.org/post-1', 'https://alpha.org/post-2',
      'https://beta.net/links', 'https://delta.de/a;b', 'https://epsilon.fr/',
    ]);
    expect(rows[0]).toEqual({
      source_url: 'https://gamma.io/review', target_url: 'https://example.com/blog', anchor: 'Example', redirect_url: 'https://example.com/old-blog',
      source_title: 'Gamma review', target_title: '', image_url: '', image_alt: '', ip_address: '203.0.113.5', lang: 'de', source_size: 3000,
      external_links_count: 8, internal_links_count: 30, response_code: 200, page_score: 70, domain_score: 80,
      first_seen_at: '2025-11-01T00:00:00', last_seen_at: '2026-02-01T00:00:00', source_domain: 'gamma.io', is_nofollow: true, is_ugc: false,
      is_sponsored: true, is_form: false, is_frame: false, is_image: false, is_sitewide_main: false, is_new: false, is_lost: true,
    });
    expect(column(rows, 'is_new')).toEqual([false, false, false, false, true, true, false]);
  });

  it('filters, orders ASC by another field and pages', async () => {
    const { meta, data: rows } = await data('links', {
      ...ROOT, filter: "is_lost = false AND (lang = 'de' OR anchor LIKE '%tips')", order_by: 'first_seen_at', direction: 'ASC',
      fields: 'anchor,first_seen_at,lang', limit: '2', offset: '1',
    });
    // not lost and (de or ends with "tips"): L2 (2025-03-05), L5 (2025-11-01), L6 (2026-06-01); skip 1, take 2
    expect(meta.total).toBe(3);
    expect(meta.filter).toBe("is_lost = false AND (lang = 'de' OR anchor LIKE '%tips')");
    expect(rows).toEqual([
      { anchor: '', first_seen_at: '2025-11-01T00:00:00', lang: 'de' },
      { anchor: 'semi;colon "quote"\nnewline', first_seen_at: '2026-06-01T00:00:00', lang: 'de' },
    ]);
  });

  it('LIKE is case-sensitive and _ is literal; timestamps compare as text', async () => {
    expect((await data('links', { ...ROOT, filter: "anchor LIKE 'example'" })).meta.total).toBe(0);
    expect((await data('links', { ...ROOT, filter: "anchor LIKE 'seo_tips'" })).meta.total).toBe(0);
    expect((await data('links', { ...ROOT, filter: "first_seen_at > '2026-06-01'" })).meta.total).toBe(1); // L6: 2026-06-01T00:00:00 sorts after 2026-06-01
    expect((await data('links', { ...ROOT, filter: 'is_new = true' })).meta.total).toBe(2);
  });
});

describe('grouped lists', () => {
  it('ref-domains: one row per referring domain', async () => {
    const { meta, data: rows } = await data('ref-domains', ROOT);
    expect(meta.total).toBe(5);
    expect(rows).toEqual([
      { domain: 'alpha.org', ip_address: '198.51.100.1', country: 'US', backlinks_count: 2, domain_score: 60, first_seen_at: '2024-01-10T08:00:00', last_seen_at: '2026-06-10T00:00:00', is_follow: true, is_new: false, is_lost: false },
      { domain: 'gamma.io', ip_address: '203.0.113.5', country: 'DE', backlinks_count: 2, domain_score: 80, first_seen_at: '2025-11-01T00:00:00', last_seen_at: '2026-06-14T00:00:00', is_follow: true, is_new: false, is_lost: false },
      { domain: 'beta.net', ip_address: '198.51.100.7', country: 'US', backlinks_count: 1, domain_score: 60, first_seen_at: '2026-05-20T09:30:00', last_seen_at: '2026-06-12T00:00:00', is_follow: false, is_new: true, is_lost: false },
      { domain: 'delta.de', ip_address: '192.0.2.44', country: 'DE', backlinks_count: 1, domain_score: 25, first_seen_at: '2026-06-01T00:00:00', last_seen_at: '2026-06-14T00:00:00', is_follow: true, is_new: true, is_lost: false },
      { domain: 'epsilon.fr', ip_address: '192.0.2.45', country: 'FR', backlinks_count: 1, domain_score: 15, first_seen_at: '2023-12-31T23:59:59', last_seen_at: '2024-06-30T00:00:00', is_follow: true, is_new: false, is_lost: true },
    ]);
    const filtered = await data('ref-domains', { ...ROOT, filter: "is_follow = true AND country = 'DE'", fields: 'domain' });
    expect(filtered.data).toEqual([{ domain: 'gamma.io' }, { domain: 'delta.de' }]);
  });

  it('ref-ips: one row per source IP, ties by IP text', async () => {
    const { data: rows } = await data('ref-ips', ROOT);
    expect(rows).toEqual([
      { ip_address: '192.0.2.44', country: 'DE', backlinks_count: 1, domains_count: 1, first_seen_at: '2026-06-01T00:00:00', last_seen_at: '2026-06-14T00:00:00' },
      { ip_address: '192.0.2.45', country: 'FR', backlinks_count: 1, domains_count: 1, first_seen_at: '2023-12-31T23:59:59', last_seen_at: '2024-06-30T00:00:00' },
      { ip_address: '198.51.100.1', country: 'US', backlinks_count: 2, domains_count: 1, first_seen_at: '2024-01-10T08:00:00', last_seen_at: '2026-06-10T00:00:00' },
      { ip_address: '198.51.100.7', country: 'US', backlinks_count: 1, domains_count: 1, first_seen_at: '2026-05-20T09:30:00', last_seen_at: '2026-06-12T00:00:00' },
      { ip_address: '203.0.113.5', country: 'DE', backlinks_count: 2, domains_count: 1, first_seen_at: '2025-11-01T00:00:00', last_seen_at: '2026-06-14T00:00:00' },
    ]);
    const byBacklinks = await data('ref-ips', { ...ROOT, order_by: 'backlinks_count', fields: 'ip_address,backlinks_count', limit: '2' });
    expect(byBacklinks.data).toEqual([{ ip_address: '198.51.100.1', backlinks_count: 2 }, { ip_address: '203.0.113.5', backlinks_count: 2 }]);
  });

  it('pages: one row per linked page of the target', async () => {
    const { meta, data: rows } = await data('pages', ROOT);
    expect(meta.total).toBe(7);
    expect(column(rows, 'source_url')).toEqual([
      'http://blog.example.com/2024/hello', 'https://example.com/', 'https://example.com/?ref=1', 'https://example.com/blog',
      'https://example.com/blog/', 'https://example.com/blogging', 'https://www.example.com/blog/seo-tips',
    ]);
    expect(rows[1]).toEqual({
      source_url: 'https://example.com/', source_title: 'Example Domain', response_code: 200, backlinks_count: 1, domains_count: 1,
      external_links_count: 1, internal_links_count: 5, first_seen_at: '2024-01-10T08:00:00', last_seen_at: '2026-06-01T00:00:00',
    });
    expect(rows[0]).toMatchObject({ source_title: '', response_code: 200, external_links_count: 0, internal_links_count: 0 });
  });

  it('anchors: one row per anchor text, ties by code point', async () => {
    const { data: rows } = await data('anchors', ROOT);
    expect(rows).toEqual([
      { anchor: 'Example', backlinks_count: 3, domains_count: 3, first_seen_at: '2023-12-31T23:59:59', last_seen_at: '2026-06-01T00:00:00' },
      { anchor: '', backlinks_count: 1, domains_count: 1, first_seen_at: '2025-11-01T00:00:00', last_seen_at: '2026-06-14T00:00:00' },
      { anchor: 'click here', backlinks_count: 1, domains_count: 1, first_seen_at: '2026-05-20T09:30:00', last_seen_at: '2026-06-12T00:00:00' },
      { anchor: 'semi;colon "quote"\nnewline', backlinks_count: 1, domains_count: 1, first_seen_at: '2026-06-01T00:00:00', last_seen_at: '2026-06-14T00:00:00' },
      { anchor: 'seo tips', backlinks_count: 1, domains_count: 1, first_seen_at: '2025-03-05T10:00:00', last_seen_at: '2026-06-10T00:00:00' },
    ]);
  });

  it('score-profile: referring domains by score, ascending, no empty scores', async () => {
    const { meta, data: rows } = await data('score-profile', ROOT);
    expect(meta).toEqual({ request_id: expect.any(String), status_code: 200, success: true, url: 'example.com', effective_url: 'example.com', scope: 'ROOT_DOMAIN', total: 4 });
    expect(rows).toEqual([
      { domain_score: 15, domains_count: 1 }, { domain_score: 25, domains_count: 1 }, { domain_score: 60, domains_count: 2 }, { domain_score: 80, domains_count: 1 },
    ]);
  });
});

describe('summary and comparison', () => {
  it('summary: the last 12 months of the history, ascending, with the url', async () => {
    const { meta, data: rows } = await data('summary', ROOT);
    expect(meta).toEqual({
      request_id: expect.any(String), status_code: 200, success: true, date_from: null, date_to: '2026-06', effective_url: 'example.com',
      scope: 'ROOT_DOMAIN', url: 'example.com', total: 31, // 2023-12 (L7's first month) to 2026-06
    });
    const expected = [
      ['2025-07', 2, 1, 1], ['2025-08', 2, 1, 1], ['2025-09', 2, 1, 1], ['2025-10', 2, 1, 1], // L1 L2
      ['2025-11', 4, 2, 2], ['2025-12', 4, 2, 2], ['2026-01', 4, 2, 2], ['2026-02', 4, 2, 2], // + L4 L5 (L4 lost after 2026-02-01)
      ['2026-03', 3, 2, 2], ['2026-04', 3, 2, 2], ['2026-05', 4, 3, 2], ['2026-06', 5, 4, 3], // + L3 in May, + L6 in June
    ];
    expect(rows).toEqual(expected.map(([month, backlinks, domains, follows]) => ({
      score: 70, backlinks_count: backlinks, domains_count: domains, follows_count: follows, month_date: `${month}-01`, url: 'example.com',
    })));
  });

  it('summary: date range clamped to the data, limit and fields', async () => {
    const { meta, data: rows } = await data('summary', { ...ROOT, date_from: '2023-01', date_to: '2024-02', fields: 'month_date,backlinks_count' });
    expect(meta.total).toBe(3);
    expect(rows).toEqual([
      { backlinks_count: 1, month_date: '2023-12-01' }, // L7
      { backlinks_count: 2, month_date: '2024-01-01' }, // + L1
      { backlinks_count: 2, month_date: '2024-02-01' },
    ]);
    const last = await data('summary', { ...ROOT, limit: '2', fields: 'month_date' });
    expect(last.data).toEqual([{ month_date: '2026-05-01' }, { month_date: '2026-06-01' }]);
    // With date_from, the months from there on: 2025-01 .. 2026-06 is 18 months, the first 2 shown.
    const from = await data('summary', { ...ROOT, date_from: '2025-01', limit: '2', fields: 'month_date,backlinks_count' });
    expect(from.meta.total).toBe(18);
    expect(from.data).toEqual([{ backlinks_count: 1, month_date: '2025-01-01' }, { backlinks_count: 1, month_date: '2025-02-01' }]); // L1 only
  });

  it('comparison: the current month per target, url echoed as passed', async () => {
    const { meta, data: rows } = await data('comparison', { urls: 'example.com,https://rival.com/', scope: 'ROOT_DOMAIN' });
    expect(meta).toEqual({ request_id: expect.any(String), status_code: 200, success: true, scope: 'ROOT_DOMAIN', total: 2, urls: ['example.com', 'https://rival.com/'] });
    expect(rows).toEqual([
      { score: 70, backlinks_count: 5, domains_count: 4, follows_count: 3, url: 'example.com', scope: 'ROOT_DOMAIN' },
      { score: 50, backlinks_count: 6, domains_count: 6, follows_count: 5, url: 'https://rival.com/', scope: 'ROOT_DOMAIN' }, // zeta's link is nofollow
    ]);
    // third.com's links are all to the bare domain: its www host has no links, but a known score.
    const empty = await data('comparison', { urls: 'nothing.example,www.third.com', scope: 'SUBDOMAIN' });
    expect(empty.data).toEqual([
      { score: 0, backlinks_count: 0, domains_count: 0, follows_count: 0, url: 'nothing.example', scope: 'SUBDOMAIN' },
      { score: 20, backlinks_count: 0, domains_count: 0, follows_count: 0, url: 'www.third.com', scope: 'SUBDOMAIN' },
    ]);
    const dated = await data('comparison', { urls: 'example.com', scope: 'PAGE', fields: 'url,month_date,backlinks_count' });
    expect(dated.data).toEqual([{ backlinks_count: 1, month_date: '2026-06-01', url: 'example.com' }]);
  });
});

describe('competitors and matrix', () => {
  it('competitors: Jaccard similarity of referring domains, at least 5 shared', async () => {
    const { meta, data: rows } = await data('competitors', { domain: 'https://www.example.com/x' });
    expect(meta).toEqual({ request_id: expect.any(String), status_code: 200, success: true, domain: 'https://www.example.com/x', direction: 'DESC', order_by: 'similarity', limit: 100, offset: 0, total: 2 });
    // rival: 5 shared / (5 + 6 - 5); other.co.uk: 5 / (5 + 9 - 5); third.com shares only 4
    expect(rows).toEqual([
      { domain: 'rival.com', similarity: 5 / 6, common_refdomains: 5 },
      { domain: 'other.co.uk', similarity: 5 / 9, common_refdomains: 5 },
    ]);
    const ofRival = await data('competitors', { domain: 'rival.com', order_by: 'domain', direction: 'ASC' });
    expect(ofRival.data).toEqual([
      { domain: 'example.com', similarity: 5 / 6, common_refdomains: 5 },
      { domain: 'other.co.uk', similarity: 6 / 9, common_refdomains: 6 },
    ]);
  });

  it('matrix: per-target counts and matches_count, filter on backlinks_counts[n]', async () => {
    const { meta, data: rows } = await data('matrix', { urls: 'example.com,rival.com', scope: 'ROOT_DOMAIN' });
    expect(meta).toEqual({ request_id: expect.any(String), status_code: 200, success: true, urls: ['example.com', 'rival.com'], scope: 'ROOT_DOMAIN', total: 6 });
    expect(rows).toEqual([
      { domain: 'alpha.org', domain_score: 60, ip_address: '198.51.100.1', country: 'US', matches_count: 2, backlinks_counts: [2, 1] },
      { domain: 'beta.net', domain_score: 60, ip_address: '198.51.100.7', country: 'US', matches_count: 2, backlinks_counts: [1, 1] },
      { domain: 'delta.de', domain_score: 25, ip_address: '192.0.2.44', country: 'DE', matches_count: 2, backlinks_counts: [1, 1] },
      { domain: 'epsilon.fr', domain_score: 15, ip_address: '192.0.2.45', country: 'FR', matches_count: 2, backlinks_counts: [1, 1] },
      { domain: 'gamma.io', domain_score: 80, ip_address: '203.0.113.5', country: 'DE', matches_count: 2, backlinks_counts: [2, 1] },
      { domain: 'zeta.com', domain_score: 55, ip_address: '198.51.100.20', country: 'NL', matches_count: 1, backlinks_counts: [0, 1] },
    ]);
    const filtered = await data('matrix', { urls: 'rival.com,example.com', scope: 'ROOT_DOMAIN', filter: 'backlinks_counts[2] > 1 OR backlinks_counts[2] = 0', order_by: 'domain_score', direction: 'ASC' });
    expect(filtered.data.map((r: { domain: string; backlinks_counts: number[] }) => [r.domain, r.backlinks_counts])).toEqual([
      ['zeta.com', [1, 0]], ['alpha.org', [1, 2]], ['gamma.io', [1, 2]],
    ]);
  });
});

describe('keyword metrics', () => {
  const path = '/_api/apis/v4/keywords/v1/metrics';
  it('the latest snapshot of the month; keyword matched trimmed and case-insensitively', async () => {
    const response = await get(ctx.app, path, { keyword: ' SEO Tools', country: 'US', month: '2026-05' });
    expect(response.json()).toEqual({
      meta: { request_id: expect.any(String), status_code: 200, success: true, country: 'US', keyword: ' SEO Tools', month: '2026-05' },
      data: {
        competitive_density: 87, cpc: '2.35', intents: ['COMMERCIAL', 'INFORMATIONAL'], keyword_difficulty: 64, number_of_results: '1250000000',
        search_volume: '49500', serp_features: ['SITELINKS', 'PEOPLE_ALSO_ASK'], trends: [50, 55, 60, 58, 62, 70, 75, 80, 78, 85, 90, 100],
      },
    });
  });
  it('defaults to the current month', async () => {
    const response = await get(ctx.app, path, { keyword: 'seo tools', country: 'US' });
    expect(response.json().meta.month).toBe('2026-06');
    expect(response.json().data.search_volume).toBe('60500');
  });
  it('404 when there is no snapshot, and nothing is charged', async () => {
    const response = await get(ctx.app, path, { keyword: 'seo tools', country: 'DE' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toMatchObject({ type: '/errors#not_found', code: 404 });
    expect(response.headers['x-units-charged']).toBeUndefined();
  });
});
