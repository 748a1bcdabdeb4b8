/**
 * The client's `validation` option. `'local'` (the default) checks parameters and filters before
 * anything is sent (the rest of test/client covers it); `'server'` sends the values as given and
 * leaves the checking to the service, so that the client never loads the parameter rules or the
 * filter language (test/entries/bundle-budget.test.ts measures what that saves, and runs the
 * client with those chunks deleted).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OPERATION_NAMES, operations, type OperationName } from '../../src/catalogue/operations.js';
import { createClient, HttpError, isParameterError, type Client, type ValidationMode } from '../../src/client/index.js';
import { parseFilter } from '../../src/syntax/parse.js';
import { createTestService } from '../../src/test-service/index.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

// A fixed clock: the current month is 2026-11.
const NOW = Date.UTC(2026, 10, 22, 12);
const clientWith = (validation?: ValidationMode) =>
  createClient({ apiKey: 'k', baseUrl: server.baseUrl, retry: false, timing: { now: () => NOW }, ...(validation && { validation }) });
type Params = Record<string, unknown>;
const callOf = (client: Client) => (operation: OperationName, params: Params) =>
  (client.call as unknown as (op: OperationName, p: Params) => Promise<unknown>)(operation, params);
const site = { url: 'example.com', scope: 'ROOT_DOMAIN' };
const sent = () => server.requests.at(-1)!.query;

describe("validation: 'server'", () => {
  const call = () => callOf(clientWith('server'));

  it('sends filter text exactly as written, and blank text as no filter', async () => {
    await call()('links', { ...site, filter: 'page_score>1   and   anchor like "%a%"' });
    expect(sent().get('filter')).toBe('page_score>1   and   anchor like "%a%"');
    await call()('links', { ...site, filter: ' \t\n' });
    expect(sent().has('filter')).toBe(false);
  });

  it('prints an AST or a builder result, in the shortest quotes, unchecked', async () => {
    const ast = parseFilter("anchor = 'it\\'s'");
    await call()('links', { ...site, filter: ast });
    expect(sent().get('filter')).toBe(`anchor = "it's"`);
    // A field links does not have: printed and sent all the same; the service decides.
    await call()('links', { ...site, filter: { toAst: () => parseFilter('nope = 1') } });
    expect(sent().get('filter')).toBe('nope = 1');
  });

  it("hands a filter mistake to the service, whose 400 comes back as an HttpError naming the rule", async () => {
    // The reference server itself, in process (backlink-query/testing), answers the unchecked filter.
    const service = await createTestService({
      links: [{ source_url: 'https://blog.example.org/post', target_url: 'https://example.com/', anchor: 'seo' }],
      client: { retry: false, validation: 'server' },
    });
    try {
      const sentFilters: (string | null)[] = [];
      const recording = createClient({
        apiKey: service.apiKey, baseUrl: service.baseUrl, retry: false, validation: 'server',
        fetch: (input, init) => (sentFilters.push(new URL(String(input)).searchParams.get('filter')), service.fetch(input, init)),
      });
      const error = await callOf(recording)('links', { ...site, filter: 'domain_scor = 1' }).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(HttpError);
      expect([(error as HttpError).status, (error as HttpError).code]).toEqual([400, 'invalid_request']);
      expect((error as HttpError).details.map((d) => [d.parameter, d.rule, d.message])).toEqual([['filter', 'unknown_field', 'Unknown field domain_scor; did you mean domain_score?']]);
      expect(sentFilters).toEqual(['domain_scor = 1']);
      // The same through the service's own client.
      const again = await service.client.links({ url: 'example.com', scope: 'ROOT_DOMAIN', filter: 'domain_scor = 1' }).then(() => undefined, (e: unknown) => e);
      expect((again as HttpError).details.map((d) => d.rule)).toEqual(['unknown_field']);
    } finally {
      await service.close();
    }
  });

  it('sends parameters as given: catalogue order, lists comma-joined, other names after them', async () => {
    await call()('metrics', { country: 'uk', keyword: ' shoes ' });
    expect(sent().toString()).toBe('keyword=+shoes+&country=uk');
    await call()('comparison', { scope: 'PAGE', urls: ['a.com', 'b.com'], extra: 1 });
    expect(sent().toString()).toBe('urls=a.com%2Cb.com&scope=PAGE&extra=1');
    // Absent values are left out, as the rules treat them: undefined, null, '' and [].
    await call()('links', { ...site, fields: [], order_by: null, direction: '', limit: undefined });
    expect(sent().toString()).toBe('url=example.com&scope=ROOT_DOMAIN');
  });

  it('refuses only what stops a request from being built, as local validation words it', async () => {
    for (const params of [{ ...site }, 'not an object'] as const) {
      const local = await callOf(clientWith('local'))('nope' as OperationName, params as Params).then(() => undefined, (e: unknown) => e);
      const remote = await call()('nope' as OperationName, params as Params).then(() => undefined, (e: unknown) => e);
      expect(isParameterError(remote) && [remote.parameter, remote.code, remote.message]).toEqual(isParameterError(local) && [local.parameter, local.code, local.message]);
    }
    const local = await callOf(clientWith('local'))('links', [] as unknown as Params).then(() => undefined, (e: unknown) => e);
    const remote = await call()('links', [] as unknown as Params).then(() => undefined, (e: unknown) => e);
    expect(isParameterError(remote) && remote.message).toBe(isParameterError(local) && local.message);
    expect(server.requests).toHaveLength(0);
  });

  it.each(OPERATION_NAMES)('%s: valid parameters make the same request as with local validation', async (operation: OperationName) => {
    const params: Params = {};
    for (const [name, spec] of Object.entries(operations[operation].params as Record<string, { kind: string; required: boolean; values?: readonly string[] }>)) {
      if (spec.kind === 'string') params[name] = name === 'keyword' ? 'shoes' : 'example.com';
      if (spec.kind === 'string-list') params[name] = ['example.com', 'example.org'];
      if (spec.kind === 'enum') params[name] = spec.values!.includes('UK') ? 'UK' : spec.values![0];
      if (spec.kind === 'integer') params[name] = name === 'limit' ? 3 : 1;
      if (spec.kind === 'month') params[name] = name === 'date_from' ? '2025-01' : '2026-02';
      if (spec.kind === 'filter') {
        const record = operations[operation].record as Record<string, { type: string }>;
        params[name] = `${Object.keys(record).find((field) => record[field]!.type === 'integer')} > 5`;
      }
    }
    await callOf(clientWith('local'))(operation, params);
    const local = sent().toString();
    await callOf(clientWith('server'))(operation, params);
    expect(sent().toString()).toBe(local);
  });
});

describe("validation: 'local' (the default)", () => {
  it('refuses the same mistakes before sending, without the service', async () => {
    for (const client of [clientWith(), clientWith('local')]) {
      const bad = await callOf(client)('links', { ...site, scope: 'NOPE', filter: 'nope = 1' }).then(() => undefined, (e: unknown) => e);
      expect(isParameterError(bad) && bad.parameter).toBe('scope');
      const badFilter = await callOf(client)('links', { ...site, filter: 'nope = 1' }).then(() => undefined, (e: unknown) => e);
      expect((badFilter as Error).name).toBe('FilterError');
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe('the option', () => {
  it('is checked when the client is created', () => {
    expect(() => createClient({ apiKey: 'k', baseUrl: server.baseUrl, validation: 'remote' as ValidationMode })).toThrow(
      expect.objectContaining({ parameter: 'validation', code: 'invalid_value', message: "validation must be 'local' or 'server', not \"remote\"." }),
    );
  });
});
