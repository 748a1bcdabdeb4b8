/**
 * `createTestService` from `backlink-query/testing`, used as a user's test would: hand-made links
 * in, a client or a `fetch` out, and the answers checked against what the interface and the docs
 * say (prices from the interface's Limits table, envelopes from docs/errors.md), written here by
 * hand. Also: the entry without the server's packages (child processes with them hidden, as
 * test/entries/optional-peers.test.ts hides peers), and the node:test example of docs/testing.md,
 * run with `node --test`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError, isApiError } from '../../src/client/index.js';
import { createTestService, TEST_SERVICE_KEY, type TestService } from '../../src/test-service/index.js';

const NOW = new Date('2026-05-01T00:00:00Z');
const LINKS_PATH = '/_api/apis/v4/backlinks/v1/links';
const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);

/** Three links to example.com (two hosts of it) and one elsewhere. */
const LINKS = [
  { source_url: 'https://blog.alpha.org/post', target_url: 'https://example.com/', anchor: 'seo tools', domain_score: 70, first_seen_at: '2026-01-10T08:00:00', last_seen_at: '2026-04-30T08:00:00' },
  { source_url: 'https://news.beta.net/story', target_url: 'https://example.com/pricing', anchor: 'pricing', domain_score: 30, is_nofollow: true, first_seen_at: '2026-04-20T00:00:00', last_seen_at: '2026-04-29T00:00:00' },
  { source_url: 'https://gamma.io/list', target_url: 'https://www.example.com/blog', anchor: 'a blog', domain_score: 50, first_seen_at: '2025-11-01T00:00:00', last_seen_at: '2026-04-01T00:00:00' },
  { source_url: 'https://delta.dev/', target_url: 'https://other.org/', anchor: 'other', domain_score: 90 },
];

let service: TestService;
beforeAll(async () => {
  service = await createTestService({ links: LINKS, now: NOW });
});
afterAll(() => service.close());

describe('hand-made links', () => {
  it('links with a filter: exactly the matching rows, 45 units per line', async () => {
    const result = await service.client.links({
      url: 'example.com',
      scope: 'ROOT_DOMAIN',
      filter: 'domain_score >= 50',
      fields: ['source_url', 'anchor', 'domain_score', 'is_new'],
      order_by: 'domain_score',
      direction: 'DESC',
    });
    expect(result.data).toEqual([
      { source_url: 'https://blog.alpha.org/post', anchor: 'seo tools', domain_score: 70, is_new: false },
      { source_url: 'https://gamma.io/list', anchor: 'a blog', domain_score: 50, is_new: false },
    ]);
    expect(result.meta.total).toBe(2);
    expect(result.units).toBe(90);
    // is_new: first seen within the 30 days before `now` (2026-04-01 on): only the second link.
    const fresh = await service.client.links({ url: 'example.com', scope: 'ROOT_DOMAIN', filter: 'is_new = true', fields: ['anchor'] });
    expect(fresh.data).toEqual([{ anchor: 'pricing' }]);
    expect(fresh.units).toBe(45);
  });

  it('a missing field is empty, zero, false or `now` by its type; source_domain is the registrable domain of source_url', async () => {
    const result = await service.client.links({ url: 'other.org', scope: 'ROOT_DOMAIN' });
    expect(result.data).toEqual([
      {
        source_url: 'https://delta.dev/', target_url: 'https://other.org/', anchor: 'other', redirect_url: '', source_title: '', target_title: '', image_url: '', image_alt: '',
        ip_address: '', lang: '', source_size: 0, external_links_count: 0, internal_links_count: 0, response_code: 0, page_score: 0, domain_score: 90,
        first_seen_at: '2026-05-01T00:00:00', last_seen_at: '2026-05-01T00:00:00', source_domain: 'delta.dev',
        is_nofollow: false, is_ugc: false, is_sponsored: false, is_form: false, is_frame: false, is_image: false, is_sitewide_main: false, is_new: true, is_lost: false,
      },
    ]);
  });

  it('ref-domains take their score from the links, as an import does; overview counts them', async () => {
    const domains = await service.client.refDomains({ url: 'example.com', scope: 'ROOT_DOMAIN', fields: ['domain', 'domain_score', 'backlinks_count', 'is_follow'], order_by: 'domain' , direction: 'ASC' });
    expect(domains.data).toEqual([
      { domain: 'alpha.org', domain_score: 70, backlinks_count: 1, is_follow: true },
      { domain: 'beta.net', domain_score: 30, backlinks_count: 1, is_follow: false },
      { domain: 'gamma.io', domain_score: 50, backlinks_count: 1, is_follow: true },
    ]);
    expect(domains.units).toBe(120);
    const overview = await service.client.overview({ url: 'example.com', scope: 'ROOT_DOMAIN' });
    expect([overview.data.backlinks_count, overview.data.domains_count, overview.data.follows_count, overview.data.nofollows_count, overview.data.new_count]).toEqual([3, 3, 2, 1, 1]);
    expect(overview.units).toBe(45);
  });

  it('an invalid filter: the service\'s 400 envelope, exactly, and nothing charged', async () => {
    const before = await service.client.unitsBalance();
    const response = await service.fetch(`${service.baseUrl}${LINKS_PATH}?url=example.com&scope=ROOT_DOMAIN&filter=domain_scor%20%3E%2050`, {
      headers: { authorization: `Apikey ${TEST_SERVICE_KEY}` },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await response.json()) as { meta: { request_id: string } };
    expect(body).toEqual({
      meta: { request_id: response.headers.get('x-request-id'), status_code: 400, success: false },
      error: {
        type: 'http://backlink-query.test/errors#invalid_request',
        code: 400,
        message: 'Unknown field domain_scor; did you mean domain_score?',
        retryable: false,
        details: [
          {
            parameter: 'filter', rule: 'unknown_field', message: 'Unknown field domain_scor; did you mean domain_score?',
            offset: 0, length: 11, line: 1, column: 1, field: 'domain_scor', suggestion: 'domain_score',
            expected: 'source_url, target_url, anchor, redirect_url, source_title, target_title, image_url, image_alt, ip_address, lang, source_size, external_links_count, internal_links_count, response_code, page_score, domain_score, first_seen_at, last_seen_at, source_domain, is_nofollow, is_ugc, is_sponsored, is_form, is_frame, is_image, is_sitewide_main, is_new, is_lost',
          },
        ],
      },
    });
    expect(body.meta.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await service.client.unitsBalance()).toBe(before);
  });

  it('the client of a service checking on the server gets the 400 as an HttpError', async () => {
    const checked = await createTestService({ links: LINKS, now: NOW, client: { validation: 'server', retry: false } });
    try {
      const error = await failure(checked.client.links({ url: 'example.com', scope: 'ROOT_DOMAIN', filter: 'anchor > 1' }));
      expect(error).toBeInstanceOf(HttpError);
      const { status, code, details } = error as HttpError;
      expect([status, code, details.map((d) => [d.parameter, d.rule])]).toEqual([400, 'invalid_request', [['filter', 'literal_type_mismatch']]]);
    } finally {
      await checked.close();
    }
  });

  it('a link that is not a valid record is refused, named by its index, with the import\'s reason', async () => {
    const error = await failure(createTestService({ links: [LINKS[0]!, { source_url: 'https://a.org/', target_url: 'not a url' }, { source_url: 'x', target_url: 'https://b.org/', domain_score: -1 }] }));
    expect(error).toMatchObject({ name: 'StoreError', code: 'invalid_record', message: 'links[1]: target_url must be a URL with a host, not "not a url" (and 1 more)' });
  });
});

describe('keys and units', () => {
  it('keys in the short form, with balances: a call that may cost more is 402, a wrong key 401', async () => {
    const keyed = await createTestService({ links: LINKS, now: NOW, keys: 'ci:ci-secret-key:100,other:other-secret-key', client: { retry: false } });
    try {
      expect(keyed.apiKey).toBe('ci-secret-key');
      const tooMuch = await failure(keyed.client.links({ url: 'example.com', scope: 'ROOT_DOMAIN', limit: 3 }));
      expect(tooMuch).toBeInstanceOf(HttpError);
      expect([(tooMuch as HttpError).status, (tooMuch as HttpError).details]).toEqual([
        402,
        [{ rule: 'insufficient_units', message: 'Not enough units left for the most this call can cost.', required: 135, remaining: 100 }],
      ]);
      const paid = await keyed.client.links({ url: 'example.com', scope: 'ROOT_DOMAIN', limit: 2 });
      expect(paid.units).toBe(90);
      expect(await keyed.client.unitsBalance()).toBe(10);
      const wrong = await keyed.fetch(`${keyed.baseUrl}${LINKS_PATH}?url=example.com&scope=ROOT_DOMAIN`, { headers: { authorization: `Apikey ${TEST_SERVICE_KEY}` } });
      expect([wrong.status, ((await wrong.json()) as { error: { type: string } }).error.type]).toEqual([401, 'http://backlink-query.test/errors#unauthorized']);
      const other = await keyed.fetch(`${keyed.baseUrl}/_api/apis/v4/units/v1/balance`, { headers: { authorization: 'Apikey other-secret-key' } });
      expect(((await other.json()) as { data: unknown }).data).toEqual({ units_remaining: 10_000_000 });
    } finally {
      await keyed.close();
    }
  });
});

describe('closing', () => {
  it('close() frees the service; its fetch then fails as a fetch that cannot connect, and the client with a NetworkError', async () => {
    const closing = await createTestService({ links: LINKS, now: NOW, client: { retry: false } });
    await closing[Symbol.asyncDispose]();
    await closing.close();
    const error = await failure(closing.fetch(`${closing.baseUrl}${LINKS_PATH}`));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('fetch failed: the test service is closed (createTestService).');
    const fromClient = await failure(closing.client.overview({ url: 'example.com', scope: 'ROOT_DOMAIN' }));
    expect(isApiError(fromClient) && fromClient.name).toBe('NetworkError');
  });
});
