/**
 * The answer of each operation (src/server/routes/answers.ts): what it asks the store, and how it
 * shapes the store's reply, on parameters validated as the server validates them. The store here
 * is a tiny one that records every question and answers with rows written by hand, so each
 * expectation is the rule of docs/operations.md (targets and scopes, the current month, comparison
 * rows of a target without links, competitors by registrable domain, 404 of unknown metrics) or of
 * the interface (fields in the record's order, meta's echo, one billed line per row).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { clockAt } from '../../../../src/server/clock.js';
import { loadServerDeps } from '../../../../src/server/deps.js';
import { ANSWERS } from '../../../../src/server/routes/operation-answers.js';
import type { AnswerContext } from '../../../../src/server/routes/answer-types.js';
import type { Store } from '../../../../src/server/store/store.js';
import { validateRequest, type RawQuery } from '../../../../src/server/validation/validate-request.js';
import type { RequestParams } from '../../../../src/server/validation/request-params.js';

/** 2026-06-15T12:00:00Z: the current month is 2026-06. */
const NOW = new Date('2026-06-15T12:00:00Z');
const CLOCK = clockAt(NOW);

/** A store that records what it is asked (method and arguments) and answers from `replies`. */
function recordingStore(replies: Partial<Record<keyof Store, (...args: any[]) => unknown>>) {
  const asked: [string, unknown][] = [];
  const store = new Proxy({} as Store, {
    get: (_, method: string) => async (...args: unknown[]) => {
      asked.push([method, args.length === 1 ? args[0] : args]);
      const reply = replies[method as keyof Store];
      if (!reply) throw new Error(`not expected: store.${method}`);
      return reply(...args);
    },
  });
  return { store, asked };
}

let parser: AnswerContext['parser'];
beforeAll(async () => {
  parser = (await loadServerDeps()).tldts;
});

function params(operation: string, query: RawQuery): RequestParams {
  const result = validateRequest(operation, query, { now: NOW });
  if (!result.ok) throw new Error(JSON.stringify(result.body));
  return result.params;
}

const answer = (operation: keyof typeof ANSWERS, query: RawQuery, store: Store) => ANSWERS[operation](params(operation, query), { store, clock: CLOCK, parser });

describe('lists grouped from the links', () => {
  it('anchors: asks for the target of url and scope with the page asked, the filter and the clock; gives the fields asked, in the record\'s order', async () => {
    const { store, asked } = recordingStore({
      grouped: () => ({
        rows: [
          { anchor: 'b', backlinks_count: 3, domains_count: 2, first_seen_at: '2026-01-01T00:00:00', last_seen_at: '2026-06-01T00:00:00' },
          { anchor: 'a', backlinks_count: 2, domains_count: 1, first_seen_at: '2026-02-01T00:00:00', last_seen_at: '2026-05-01T00:00:00' },
        ],
        total: 7,
      }),
    });
    const p = params('anchors', {
      url: 'https://Blog.Example.co.uk/x', scope: 'ROOT_DOMAIN', fields: 'domains_count,anchor', order_by: 'domains_count', direction: 'ASC', limit: '2', offset: '3', filter: 'backlinks_count > 1',
    });
    const result = await ANSWERS.anchors(p, { store, clock: CLOCK, parser });
    expect(asked).toHaveLength(1);
    const [method, [operation, query]] = asked[0] as [string, [string, any]];
    expect([method, operation]).toEqual(['grouped', 'anchors']);
    // ROOT_DOMAIN: the registrable domain of the url (docs/operations.md, "Targets and scopes").
    expect(query.target).toMatchObject({ scope: 'ROOT_DOMAIN', domain: 'example.co.uk', host: 'blog.example.co.uk', effectiveUrl: 'example.co.uk' });
    expect(query.page).toEqual({ orderBy: 'domains_count', direction: 'ASC', limit: 2, offset: 3 });
    // The filter as validation parsed it.
    expect(p.filter).not.toBeNull();
    expect(query.filter).toBe(p.filter);
    expect(query.clock).toEqual(CLOCK);
    // Fields in the record's order (anchor before domains_count), whatever the order asked.
    expect(result.data).toEqual([
      { anchor: 'b', domains_count: 2 },
      { anchor: 'a', domains_count: 1 },
    ]);
    expect((result.data as object[]).map((row) => Object.keys(row))).toEqual([
      ['anchor', 'domains_count'],
      ['anchor', 'domains_count'],
    ]);
    expect(result.lines).toBe(2);
    expect(result.meta).toMatchObject({
      url: 'https://Blog.Example.co.uk/x',
      scope: 'ROOT_DOMAIN',
      effective_url: 'example.co.uk',
      order_by: 'domains_count',
      direction: 'ASC',
      limit: 2,
      offset: 3,
      filter: 'backlinks_count > 1',
      total: 7,
    });
  });

  it.each([
    ['links', 'SUBDOMAIN', 'https://WWW.Example.com/a', { host: 'www.example.com', effectiveUrl: 'www.example.com' }],
    ['ref-domains', 'PAGE', 'example.com/a?b=1', { host: 'example.com', path: '/a?b=1', effectiveUrl: 'example.com/a?b=1' }],
    ['ref-ips', 'SUBFOLDER', 'example.com/blog/', { host: 'example.com', folder: '/blog', effectiveUrl: 'example.com/blog' }],
    ['pages', 'ROOT_DOMAIN', 'example.com', { domain: 'example.com', effectiveUrl: 'example.com' }],
  ] as const)('%s asks the store for its own operation, on the %s target of %s; no row is no line', async (operation, scope, url, target) => {
    const { store, asked } = recordingStore({ grouped: () => ({ rows: [], total: 0 }) });
    const result = await answer(operation, { url, scope }, store);
    const [, [asked_operation, query]] = asked[0] as [string, [string, any]];
    expect(asked_operation).toBe(operation);
    expect(query.target).toMatchObject({ scope, ...target });
    // No offset given: the first row.
    expect(query.page.offset).toBe(0);
    expect(query.filter).toBeNull();
    expect(result).toMatchObject({ data: [], lines: 0, meta: { total: 0, effective_url: target.effectiveUrl } });
  });
});

describe('overview, summary, score-profile', () => {
  it('overview: the one record of the target, one line', async () => {
    const record = { backlinks_count: 9, domains_count: 4, score: 70 };
    const { store, asked } = recordingStore({ overview: () => record });
    const result = await answer('overview', { url: 'example.com', scope: 'SUBDOMAIN', fields: 'score,backlinks_count' }, store);
    const [method, [target, clock]] = asked[0] as [string, [any, any]];
    expect([method, target.host, target.scope, clock]).toEqual(['overview', 'example.com', 'SUBDOMAIN', CLOCK]);
    expect(result.data).toEqual({ backlinks_count: 9, score: 70 });
    expect(result.lines).toBe(1);
  });

  it('summary: a date_to past the current month asks for months up to the current one; each row carries url; meta echoes the dates as given', async () => {
    const { store, asked } = recordingStore({
      summary: () => ({ rows: [{ month_date: '2026-05-01', backlinks_count: 3, domains_count: 2, follows_count: 1, score: 50 }], total: 2 }),
    });
    const result = await answer('summary', { url: 'example.com', scope: 'ROOT_DOMAIN', date_from: '2026-05', date_to: '2026-09' }, store);
    const [method, query] = asked[0] as [string, any];
    expect(method).toBe('summary');
    expect({ from: query.from, to: query.to, domain: query.target.domain }).toEqual({ from: '2026-05', to: '2026-06', domain: 'example.com' });
    expect(result.data).toEqual([{ month_date: '2026-05-01', backlinks_count: 3, domains_count: 2, follows_count: 1, score: 50, url: 'example.com' }]);
    expect(result.meta).toMatchObject({ date_from: '2026-05', date_to: '2026-09', total: 2 });
    expect(result.lines).toBe(1);
  });

  it('summary without date_from: meta says null, and the store is asked from the oldest month', async () => {
    const { store, asked } = recordingStore({ summary: () => ({ rows: [], total: 0 }) });
    const result = await answer('summary', { url: 'example.com', scope: 'ROOT_DOMAIN', date_to: '2026-03' }, store);
    const [, query] = asked[0] as [string, any];
    expect({ from: query.from, to: query.to }).toEqual({ from: undefined, to: '2026-03' });
    expect(result.meta).toMatchObject({ date_from: null, date_to: '2026-03', total: 0 });
  });

  it('score-profile: the rows as the store gives them, a line each, total the number of rows', async () => {
    const rows = [
      { domain_score: 0, domains_count: 2 },
      { domain_score: 40, domains_count: 1 },
    ];
    const { store } = recordingStore({ scoreProfile: () => rows });
    const result = await answer('score-profile', { url: 'example.com', scope: 'ROOT_DOMAIN' }, store);
    expect(result).toMatchObject({ data: rows, lines: 2, meta: { total: 2 } });
  });
});

describe('competitors, comparison, matrix, metrics', () => {
  it('competitors: the registrable domain of `domain` is asked for; meta echoes `domain` as passed', async () => {
    const { store, asked } = recordingStore({ competitors: () => ({ rows: [{ domain: 'rival.com', common_refdomains: 5, similarity: 0.5 }], total: 1 }) });
    const result = await answer('competitors', { domain: 'https://blog.example.co.uk/x' }, store);
    const [, query] = asked[0] as [string, any];
    expect(query.domain).toBe('example.co.uk');
    expect(result.meta).toMatchObject({ domain: 'https://blog.example.co.uk/x', total: 1 });
    expect(result.lines).toBe(1);
  });

  it('comparison: one row per url in request order, the current month\'s; a target without links is zeros with its own score', async () => {
    const { store, asked } = recordingStore({
      summary: (query: any) =>
        query.target.domain === 'example.com' ? { rows: [{ month_date: '2026-06-01', backlinks_count: 7, domains_count: 4, follows_count: 5, score: 70 }], total: 1 } : { rows: [], total: 0 },
      overview: () => ({ score: 12 }),
    });
    const result = await answer('comparison', { urls: 'nolinks.test,example.com', scope: 'ROOT_DOMAIN' }, store);
    // Each url's month is the current one, a single row.
    const summaries = asked.filter(([method]) => method === 'summary').map(([, query]: [string, any]) => [query.target.domain, query.from, query.to, query.limit]);
    expect(summaries).toEqual([
      ['nolinks.test', '2026-06', '2026-06', 1],
      ['example.com', '2026-06', '2026-06', 1],
    ]);
    expect(result.data).toEqual([
      expect.objectContaining({ url: 'nolinks.test', scope: 'ROOT_DOMAIN', backlinks_count: 0, domains_count: 0, follows_count: 0, score: 12 }),
      expect.objectContaining({ url: 'example.com', scope: 'ROOT_DOMAIN', backlinks_count: 7, domains_count: 4, follows_count: 5, score: 70 }),
    ]);
    expect(result.lines).toBe(2);
    expect(result.meta).toMatchObject({ total: 2 });
  });

  it('comparison with month_date asked: a target without links has the first day of the current month', async () => {
    const { store } = recordingStore({ summary: () => ({ rows: [], total: 0 }), overview: () => ({ score: 0 }) });
    const result = await answer('comparison', { urls: 'nolinks.test', scope: 'ROOT_DOMAIN', fields: 'month_date,url' }, store);
    expect(result.data).toEqual([{ month_date: '2026-06-01', url: 'nolinks.test' }]);
  });

  it('matrix: the targets of urls in request order, the page and the filter', async () => {
    const { store, asked } = recordingStore({ matrix: () => ({ rows: [{ domain: 'a.org', matches_count: 2, backlinks_counts: [1, 3] }], total: 1 }) });
    const p = params('matrix', { urls: 'rival.com,example.com', scope: 'ROOT_DOMAIN', limit: '5', filter: 'matches_count >= 2' });
    const result = await ANSWERS.matrix(p, { store, clock: CLOCK, parser });
    const [, query] = asked[0] as [string, any];
    expect(query.targets.map((target: any) => target.domain)).toEqual(['rival.com', 'example.com']);
    expect(query.page).toMatchObject({ limit: 5, offset: 0 });
    expect(p.filter).not.toBeNull();
    expect(query.filter).toBe(p.filter);
    expect(result).toMatchObject({ lines: 1, meta: { total: 1 } });
  });

  it('metrics: the snapshot of keyword, country and month; none is a 404 naming the country and the month', async () => {
    const record = { search_volume: '100', keyword_difficulty: 30 };
    const found = recordingStore({ keywordMetrics: () => record });
    const result = await answer('metrics', { keyword: 'seo', country: 'US', month: '2026-04' }, found.store);
    expect(found.asked).toEqual([['keywordMetrics', { keyword: 'seo', country: 'US', month: '2026-04' }]]);
    expect(result).toMatchObject({ data: { search_volume: '100', keyword_difficulty: 30 }, lines: 1, meta: { keyword: 'seo', country: 'US', month: '2026-04' } });
    const none = recordingStore({ keywordMetrics: () => undefined });
    await expect(answer('metrics', { keyword: 'seo', country: 'US' }, none.store)).rejects.toMatchObject({ status: 404, message: 'No metrics for this keyword in US for 2026-06.' });
  });
});
