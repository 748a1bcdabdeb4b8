/**
 * What {@link createTestService} loads on its first call (with `import()`, so that the testing
 * entry's arbitraries never load the server): the store in memory, the records, the Fastify app,
 * and the `fetch` that answers through Fastify's `inject`.
 *
 * @module
 * @internal
 */
import type { FastifyInstance } from 'fastify';
import { operations } from '../catalogue/operations.js';
import { createClient } from '../client/index.js';
import { isMissingDependencyError, MissingDependencyError } from '../peers.js';
import {
  createServer,
  DEFAULT_KEY_UNITS,
  DerivedDomains,
  formatTimestamp,
  loadDepsFor,
  openSqliteStore,
  parseKeys,
  readLinkRecords,
  seedSampleGraph,
  splitUrl,
  StoreError,
  type ApiKeyConfig,
  type DomainParser,
  type GraphWriter,
  type LinkInput,
  type RejectedLine,
  type SampleStats,
  type Store,
} from '../server/index.js';
import { TEST_SERVICE_KEY, TEST_SERVICE_URL, type TestLink, type TestService, type TestServiceOptions } from './options.js';

/** What the messages about missing packages call the test service. */
const WHO = 'createTestService (backlink-query/testing)';

/** The sample's size when nothing else is given. */
const DEFAULT_SAMPLE_LINKS = 1_000;

/** Starts the test service (see {@link createTestService}). @internal */
export async function startTestService(options: TestServiceOptions): Promise<TestService> {
  const keys = keysOf(options.keys);
  const now = options.now ?? new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(now.getTime())) throw new RangeError('createTestService: now is an invalid Date.');
  const { tldts } = await loadDeps();
  const store = await openSqliteStore({ file: ':memory:', parser: tldts });
  let app: FastifyInstance;
  let sample: SampleStats | undefined;
  let served: Store = store;
  try {
    const given = options.links !== undefined || options.domains !== undefined || options.pages !== undefined || options.keywords !== undefined;
    const sampleOptions = options.sample === true || (options.sample === undefined && !given) ? {} : options.sample === false ? undefined : options.sample;
    if (sampleOptions) {
      const graph = await seedSampleGraph(store, { links: sampleOptions.links ?? DEFAULT_SAMPLE_LINKS, seed: sampleOptions.seed ?? 1, now });
      const keywords = once(async () => {
        const writer = await store.writer();
        await writer.keywords(graph.keywordSnapshots());
        await writer.finish();
      });
      sample = { ...graph.stats, get keywordSnapshots() { return graph.keywordSnapshots().length; } };
      // Most of the sample's time is its keyword snapshots: they are written on the first keyword
      // read, so a service that is never asked for metrics never pays for them. When keywords are
      // given, the sample's are written now, before them (a later snapshot of a key replaces it).
      if (options.keywords !== undefined) await keywords();
      else {
        served = {
          ...store,
          keywordMetrics: async (query) => {
            await keywords();
            return store.keywordMetrics(query);
          },
        };
      }
    }
    if (given) await loadRecords(await store.writer(), options, formatTimestamp(now), tldts);
    app = await createServer({ store: served, keys, now: () => now, publicUrl: options.baseUrl ?? TEST_SERVICE_URL, ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}) });
  } catch (error) {
    await store.close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  const fetch = injectFetch(app, () => closing !== undefined);
  const baseUrl = options.baseUrl ?? TEST_SERVICE_URL;
  const apiKey = keys[0]!.key;
  const client = createClient({ ...options.client, apiKey, baseUrl, fetch });
  const close = () => (closing ??= app.close().then(() => undefined));
  return { client, fetch, baseUrl, apiKey, sample, close, [Symbol.asyncDispose]: close };
}

/** `run` on the first call; every call gets its promise. */
function once(run: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= run());
}

/** The server's packages and a SQLite store's, or one error naming every missing package. */
async function loadDeps(): Promise<{ readonly tldts: DomainParser }> {
  try {
    return await loadDepsFor({ kind: 'sqlite', file: ':memory:' }, { http: true });
  } catch (error) {
    if (isMissingDependencyError(error)) throw new MissingDependencyError(WHO, error.packages, { cause: error });
    throw error;
  }
}

function keysOf(keys: TestServiceOptions['keys']): readonly ApiKeyConfig[] {
  const list = typeof keys === 'string' ? parseKeys(keys) : keys ?? [{ id: 'demo', key: TEST_SERVICE_KEY, units: DEFAULT_KEY_UNITS }];
  if (list.length === 0) throw new RangeError('createTestService: keys must name at least one key (the client uses the first).');
  return list;
}

const LINK_FIELDS = Object.entries(operations.links.record).filter(([name]) => name !== 'is_new');

/** A given link with every field: its own values, then the defaults {@link TestLink} names. */
function completeLink(link: TestLink, nowText: string, parser: DomainParser): Record<string, unknown> {
  const full: Record<string, unknown> = {};
  for (const [name, spec] of LINK_FIELDS) {
    const type: string = spec.type;
    full[name] = type === 'timestamp' ? nowText : type === 'integer' ? 0 : type === 'boolean' ? false : '';
  }
  const source = typeof link.source_url === 'string' ? splitUrl(link.source_url, parser) : undefined;
  if (source !== undefined) full['source_domain'] = source.domain;
  return Object.assign(full, link);
}

/**
 * The given records through the store's bulk writer, as `backlink-query import` writes them: links
 * checked by the import's own reader (the service's record, every rule), the referring domains'
 * own data derived from their links where no domain record is given.
 */
async function loadRecords(writer: GraphWriter, options: TestServiceOptions, nowText: string, parser: DomainParser): Promise<void> {
  const lines = (options.links ?? []).map((link) => `${JSON.stringify(completeLink(link, nowText, parser))}\n`);
  const rejected: RejectedLine[] = [];
  const links: LinkInput[] = [];
  for await (const batch of readLinkRecords(each(lines), { format: 'ndjson', onReject: (line) => rejected.push(line) })) links.push(...batch);
  if (rejected.length > 0) {
    const first = rejected[0]!;
    const more = rejected.length > 1 ? ` (and ${rejected.length - 1} more)` : '';
    throw new StoreError('invalid_record', `links[${first.line - 1}]: ${first.reason}${more}`);
  }
  if (options.domains) await writer.domains(options.domains);
  const derived = new DerivedDomains();
  derived.add(links);
  await writer.domains(derived.records(), { keep: true });
  if (options.pages) await writer.pages(options.pages);
  await writer.links(links);
  if (options.keywords) await writer.keywords(options.keywords);
  await writer.finish();
}

async function* each<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}

/** Statuses whose response has no body (a `Response` refuses one). */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * A `fetch` answered by `app.inject`: the request's method, path and query, headers and body go
 * in as they are (the URL's host as `Host`), and the status, headers and body come back as a
 * `Response`. An aborted signal rejects it, as `fetch` does; so does a closed service, with the
 * `TypeError` a `fetch` that cannot connect rejects with.
 */
function injectFetch(app: FastifyInstance, closed: () => boolean): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    request.signal.throwIfAborted();
    if (closed()) throw new TypeError('fetch failed: the test service is closed (createTestService).');
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    const payload = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    const response = await app.inject({ method: request.method as 'GET', url: url.pathname + url.search, headers, signal: request.signal, ...(payload ? { payload } : {}) });
    request.signal.throwIfAborted();
    const out = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) out.append(name, String(one));
    }
    const empty = NO_BODY.has(response.statusCode) || request.method === 'HEAD';
    return new Response(empty ? null : new Uint8Array(response.rawPayload), { status: response.statusCode, statusText: response.statusMessage, headers: out });
  };
}
