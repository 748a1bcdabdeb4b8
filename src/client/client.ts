/**
 * `createClient`: one method per operation of the catalogue, the running total of units, the
 * budget, and `paginate`. Only web-standard APIs are used, so the client runs unchanged in
 * Node 20+, Deno, Bun and browsers.
 *
 * @module
 */
import { OPERATION_NAMES, operations, type OperationName } from '../catalogue/operations.js';
import { ParameterError } from '../errors/filter-error.js';
import { UnitLedger } from './budget.js';
import { callBalance, callOperation, type AnyResult, type CallContext } from './call.js';
import { preloadChecks, VALIDATION_MODES, type ValidationMode } from './query.js';
import { DEFAULT_RATE_LIMIT, Limiter, type RateLimit } from './limiter.js';
import { paginate } from './paginate.js';
import type { RawParams } from './params.js';
import { REAL_TIMING, resolveRetryPolicy, type RetryPolicy, type Timing } from './retry.js';
import type { CallOptions, OperationMethod, OperationMethods, PaginateOptions, PaginationEnd, Paginators, ParamsOf, ResultOf } from './types.js';

/**
 * Options of {@link createClient}.
 *
 * @example
 * ```ts
 * createClient({ apiKey: 'KEY', baseUrl: 'https://api.example.com', timeout: 10_000, retry: 3, budget: 5_000, rateLimit: true });
 * createClient({ apiKey: 'KEY', baseUrl: 'https://api.example.com', validation: 'server' }); // checks nothing locally, loads nothing more
 * ```
 */
export interface ClientOptions {
  /** The API key, sent as `Authorization: Apikey <key>`. */
  readonly apiKey: string;
  /** The service's base URL (required: there is no default host), e.g. `https://api.example.com`. */
  readonly baseUrl: string;
  /** A `fetch` implementation; default the global `fetch`. */
  readonly fetch?: typeof fetch;
  /** Per-attempt timeout in ms (headers and body), or `false` for none. Default 30,000. */
  readonly timeout?: number | false;
  /** Retry policy (merged over {@link DEFAULT_RETRY_POLICY}), a retry count, or `false`. */
  readonly retry?: Partial<RetryPolicy> | number | false;
  /** Most units the client may spend; a call whose worst case exceeds what is left is not sent. */
  readonly budget?: number;
  /** Client-side limiter: `true` for the service's 10/s and 10 at once, or your own limits. Default off. */
  readonly rateLimit?: boolean | Partial<RateLimit>;
  /** Clock, sleep and random source (for tests). */
  readonly timing?: Partial<Timing>;
  /** Extra request headers (a `User-Agent`, a tracing header). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Where a call's parameters and filter are checked. `'local'` (the default): by the client,
   * before anything is reserved or sent; a mistake rejects with `ParameterError` or `FilterError`
   * (every issue of the filter in it), and the filter is sent as the shortest text that means the
   * same. The parameter rules are loaded with `import()` when the client is created, the filter
   * language (parser and validator, with Chevrotain) on the first call with a filter (their sizes:
   * docs/client.md, section "Size, and where checks run"). `'server'`: values are sent as given
   * (lists comma-joined, an AST or builder result printed) and only the service checks them: a
   * mistake comes back as a 400 `invalid_request` `HttpError` whose `details` name each parameter
   * and rule; the client never loads either. The TypeScript types check the parameters either way.
   */
  readonly validation?: ValidationMode;
}

/**
 * The client: one method per operation, plus units and pagination.
 *
 * @example
 * ```ts
 * const client: Client = createClient({ apiKey: 'KEY', baseUrl: 'https://api.example.com' });
 * ```
 */
export interface Client extends OperationMethods {
  /** Units spent so far by this client (successful calls only). */
  readonly unitsSpent: number;
  /** What is left of the budget (calls in flight counted at their worst case), or `undefined`. */
  readonly budgetRemaining: number | undefined;
  /** Async iterators over the rows of every list operation: `client.paginate.links(params, { maxRows })`. */
  readonly paginate: Paginators;
  /** Calls an operation by its name (`'ref-domains'`), for generic code such as the CLI. */
  call<Op extends OperationName, const P extends ParamsOf<Op>>(operation: Op, params: P, options?: CallOptions): Promise<ResultOf<Op, P>>;
  /**
   * The key's remaining units, read from the service (free of charge): `GET /_api/apis/v4/units/v1/balance`.
   * Services that do not offer it answer 404 (`HttpError`).
   */
  unitsBalance(options?: CallOptions): Promise<number>;
  /**
   * Calls an operation by its name with parameters built at run time (a form, a tool call, a
   * command line): checked at run time as every call is, its result typed as any operation's.
   * Where the parameters are known when the code is written, `call` or the operation's method
   * types them.
   */
  callOperation(operation: OperationName, params: Readonly<Record<string, unknown>>, options?: CallOptions): Promise<AnyResult>;
  /** Pages through an operation by its name. */
  paginateOperation(operation: OperationName, params: Readonly<Record<string, unknown>>, options?: PaginateOptions): AsyncGenerator<Record<string, unknown>, PaginationEnd, undefined>;
  /**
   * The operation `metrics` by its former method name: the same function as {@link Client.metrics}.
   *
   * @deprecated Use `client.metrics`: the interface, the CLI and the MCP tools call the operation
   * `metrics`. This alias stays for code written against 0.x and will be removed in a major release.
   */
  readonly keywordMetrics: OperationMethod<'metrics'>;
}

/** Checks the client options that are the caller's mistakes, not the service's. */
function checkOptions(options: ClientOptions): string {
  if (typeof options?.apiKey !== 'string' || options.apiKey.trim() === '') {
    throw new ParameterError('apiKey', 'required', 'createClient needs an apiKey.');
  }
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new ParameterError('baseUrl', 'invalid_value', `baseUrl must be an absolute http(s) URL, not ${JSON.stringify(options.baseUrl)}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ParameterError('baseUrl', 'invalid_value', 'baseUrl must use http or https.');
  if (options.budget !== undefined && !(options.budget >= 0)) throw new ParameterError('budget', 'too_small', 'budget must be 0 or more units.');
  if (options.timeout !== undefined && options.timeout !== false && !(options.timeout > 0)) throw new ParameterError('timeout', 'too_small', 'timeout must be more than 0 ms, or false.');
  if (options.validation !== undefined && !VALIDATION_MODES.includes(options.validation)) {
    throw new ParameterError('validation', 'invalid_value', `validation must be 'local' or 'server', not ${JSON.stringify(options.validation)}.`);
  }
  // A base URL may carry a path prefix (a gateway); the operation's path follows it.
  return url.href.replace(/\/+$/, '');
}

function resolveRateLimit(option: ClientOptions['rateLimit']): RateLimit | undefined {
  if (option === undefined || option === false) return undefined;
  return option === true ? DEFAULT_RATE_LIMIT : { ...DEFAULT_RATE_LIMIT, ...option };
}

/**
 * Creates a client of the service.
 *
 * @example
 * ```ts
 * import { createClient } from 'backlink-query';
 * const client = createClient({ apiKey: 'YOUR_KEY', baseUrl: 'https://api.example.com', budget: 10_000 });
 * const { data, units } = await client.links({
 *   url: 'example.com', scope: 'ROOT_DOMAIN', fields: ['anchor', 'domain_score'], filter: 'domain_score > 50', limit: 50,
 * });
 * data[0]?.anchor; // string; data[0]?.source_url does not compile
 * ```
 */
export function createClient(options: ClientOptions): Client {
  const baseUrl = checkOptions(options);
  const validation = options.validation ?? 'local';
  if (validation === 'local') preloadChecks();
  const timing: Timing = { ...REAL_TIMING, ...options.timing };
  const rateLimit = resolveRateLimit(options.rateLimit);
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const context: CallContext = {
    baseUrl,
    ledger: new UnitLedger(options.budget),
    validation,
    transport: {
      fetch: fetchImpl,
      timeout: options.timeout ?? 30_000,
      retry: resolveRetryPolicy(options.retry),
      timing,
      limiter: rateLimit && new Limiter(rateLimit, timing),
      headers: Object.freeze({ Accept: 'application/json, text/csv', ...options.headers, Authorization: `Apikey ${options.apiKey}` }),
    },
  };
  const methods: Record<string, unknown> = {};
  const pagers: Record<string, unknown> = {};
  for (const operation of OPERATION_NAMES) {
    const spec = operations[operation];
    methods[spec.method] = (params: RawParams, callOptions?: CallOptions) => callOperation(context, operation, params, callOptions);
    if (spec.shape === 'list') {
      pagers[spec.method] = (params: RawParams, pageOptions?: PaginateOptions) => paginate(context, operation, params, pageOptions);
    }
  }
  return Object.freeze({
    ...methods,
    keywordMetrics: methods['metrics'],
    paginate: Object.freeze(pagers),
    get unitsSpent() {
      return context.ledger.spent;
    },
    get budgetRemaining() {
      return context.ledger.remaining;
    },
    call: (operation: OperationName, params: RawParams, callOptions?: CallOptions) => callOperation(context, operation, params, callOptions),
    callOperation: (operation: OperationName, params: RawParams, callOptions?: CallOptions) => callOperation(context, operation, params, callOptions),
    unitsBalance: (callOptions?: CallOptions) => callBalance(context, callOptions),
    paginateOperation: (operation: OperationName, params: RawParams, pageOptions?: PaginateOptions) => paginate(context, operation, params, pageOptions),
  }) as unknown as Client;
}
