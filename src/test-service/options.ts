/**
 * The test service's options, its result and its constants: what both {@link createTestService}
 * (service.ts) and the part it loads on its first call (start.ts) name, kept apart so that neither
 * imports the other. Only types of the server and the client: nothing of them is loaded here.
 *
 * @module
 */
import { DEMO_KEY } from '../shared/demo-key.js';
import type { Client, ClientOptions } from '../client/index.js';
import type { ApiKeyConfig, DomainInput, KeywordSnapshotInput, LinkInput, RateLimits, SampleStats, TargetPageInput } from '../server/index.js';

/**
 * The key the test service accepts when no `keys` are given (the demo key of `serve --sample`),
 * as the key `demo` with 10,000,000 units.
 */
export const TEST_SERVICE_KEY = DEMO_KEY;

/**
 * The base URL of the test service: a name under `.test`, which no real host has. Requests never
 * leave the process, so any origin works; error envelopes name `<baseUrl>/errors` as their `type`.
 */
export const TEST_SERVICE_URL = 'http://backlink-query.test';

/**
 * A link record to load: the service's backlink record (`is_new` aside, which the clock decides)
 * where only `source_url` and `target_url` are required. A missing field is `''`, `0` or `false`
 * by its type, a missing timestamp is the service's `now` (so the link counts as new), and a
 * missing `source_domain` is the registrable domain of `source_url`'s host.
 */
export type TestLink = Partial<LinkInput> & Pick<LinkInput, 'source_url' | 'target_url'>;

/** Generated data: the sample `backlink-query seed` writes, the same for the same `links`, `seed` and `now`. */
export interface TestSampleOptions {
  /** Number of links (default 1,000). */
  readonly links?: number;
  /** Seed of the random source (default 1). */
  readonly seed?: number;
}

/** Options of {@link createTestService}. */
export interface TestServiceOptions {
  /** Links to load (see {@link TestLink}); checked as `backlink-query import` checks the service's records. */
  readonly links?: readonly TestLink[];
  /** Domains' own data (score, IP, country); a referring domain without one takes its latest link's score and IP, as on import. */
  readonly domains?: readonly DomainInput[];
  /** Target pages (title, response code, page score) for `pages` and a PAGE target's score. */
  readonly pages?: readonly TargetPageInput[];
  /** Keyword snapshots for `metrics`. */
  readonly keywords?: readonly KeywordSnapshotInput[];
  /**
   * Generated sample data, written before the given records. Default: a sample of 1,000 links
   * (seed 1) when no `links`, `domains`, `pages` or `keywords` are given, none otherwise; `false`: none.
   */
  readonly sample?: TestSampleOptions | boolean;
  /**
   * The keys the service accepts, with their units: key configurations, or the short form of
   * `--keys` (`id:key[:units]`, comma-separated). Default: {@link TEST_SERVICE_KEY} as `demo`
   * with 10,000,000 units. The returned `client` uses the first.
   */
  readonly keys?: readonly ApiKeyConfig[] | string;
  /** The data's clock: what "new" and the current month derive from (default: today at 00:00 UTC). */
  readonly now?: Date;
  /** Per-key rate limits (default the server's: 10 per second, 10 at once). */
  readonly rateLimits?: Partial<RateLimits>;
  /** The base URL the client and the error envelopes use (default {@link TEST_SERVICE_URL}). */
  readonly baseUrl?: string;
  /** Options of the returned `client` besides its key, base URL and `fetch` (retries, budget, validation). */
  readonly client?: Omit<ClientOptions, 'apiKey' | 'baseUrl' | 'fetch'>;
}

/** A running test service; `close()` (or `await using`) frees it. */
export interface TestService extends AsyncDisposable {
  /** A client of the service, with the first key. */
  readonly client: Client;
  /**
   * A `fetch` that the service answers in process, whatever the URL's origin (its host becomes
   * the request's `Host`): for a client of your own, or `createClient({ ..., fetch })` with another key.
   */
  readonly fetch: typeof fetch;
  /** The base URL `client` uses. */
  readonly baseUrl: string;
  /** The key `client` uses. */
  readonly apiKey: string;
  /** What the generated sample holds (its largest target is `sample.topTarget`), or `undefined` without one. */
  readonly sample: SampleStats | undefined;
  /** Closes the service and its database; later calls of `fetch` fail. Calling it again does nothing. */
  close(): Promise<void>;
}

