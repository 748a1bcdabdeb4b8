/**
 * The guard in front of every operation (and every other keyed route, such as the balance): the
 * API key from the Authorization header or the `key` query parameter (401, same body whether
 * missing or wrong), then the key's rate and concurrency limits (429 with Retry-After). Runs in
 * `onRequest`, before validation, so an unauthenticated caller learns nothing about parameters.
 * A call whose client leaves is stopped (its signal aborts, which cancels its queries) and keeps
 * its slot until its work has ended, so leaving never makes room for more work than the limit;
 * one that leaves while its admission is decided (a round trip to the primary with `serve
 * --workers`) gives its slot back when the admission comes, and logs its 499 then.
 * The `key` query parameter is taken out of the query before anything else reads it, so it is
 * neither validated as a parameter nor echoed nor logged.
 *
 * The limits are the accounts' ({@link Accounts.admit}, the `fastify.accounts` decoration of
 * `store.ts`), not @fastify/rate-limit's: see `../accounts/rate-limiter.ts` for why.
 *
 * @module
 * @internal
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { serverPlugin } from '../deps.js';
import { ServiceError } from '../errors.js';
import { routeOperation } from '../validation/fastify-plugin.js';
import type { KeyRing } from '../accounts/key-ring.js';
import type { Accounts, Admission } from '../accounts/accounts.js';
import type { RateLimits } from '../accounts/rate-limiter.js';
import { STORE_PLUGIN } from './store.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The id of the key the request authenticated with (also when it was then refused with 429);
     * null on routes that take no key, and before the guard's onRequest hook. @internal
     */
    apiKeyId: string | null;
    /** The call the guard admitted under its key's limits; null when it was not admitted. @internal */
    admittedCall: AdmittedCall | null;
  }
}

/** How an abandoned call ended, for its log line. @internal */
export interface Abandoned {
  readonly keyId: string;
  readonly units: number;
  /** Whether the call's store work was stopped by the abandonment (not whether it had any). */
  readonly cancelled: boolean;
  /** Milliseconds from the request to the end of its work. */
  readonly ms: number;
}

/** A call admitted under its key's limits, from admission to the end of its work. @internal */
export class AdmittedCall {
  readonly keyId: string;
  /** Units charged (0 until the answer is charged, and when it is not written). */
  units = 0;
  readonly #abort = new AbortController();
  readonly #release: () => void;
  readonly #reply: FastifyReply;
  #released = false;
  #work: Promise<unknown> | undefined;
  #running = false;

  constructor(keyId: string, release: () => void, reply: FastifyReply) {
    this.keyId = keyId;
    this.#release = release;
    this.#reply = reply;
  }

  /** Aborted when the client goes away before its answer is written: the call's queries stop. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /**
   * Runs the call's store work. The call's slot (its place among the key's calls at once) is held
   * until this work ends, also when the client leaves first: leaving stops the work, it does not
   * free the slot early.
   */
  work<T>(running: Promise<T>): Promise<T> {
    this.#work = running;
    this.#running = true;
    const ended = () => void (this.#running = false);
    running.then(ended, ended);
    return running;
  }

  /** The call is over (answered, or its work stopped): its slot is given back, once. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#release();
  }

  /**
   * The client left: stops the work, and gives the slot back once the work has stopped (not when
   * the client left). Says how the call ended, for its log line.
   */
  async abandon(): Promise<Abandoned> {
    const working = this.#running;
    this.#abort.abort();
    await this.#work?.catch(() => undefined);
    this.release();
    return { keyId: this.keyId, units: this.units, cancelled: working, ms: this.#reply.elapsedTime };
  }
}

/** Whether a route takes a key: every operation, and routes configured `{ keyed: true }`. @internal */
export const isKeyed = (request: FastifyRequest): boolean =>
  routeOperation(request) !== undefined || (request.routeOptions.config as { keyed?: unknown } | undefined)?.keyed === true;

/** Takes the `key` parameter out of the parsed query; returns it (the first, when repeated). */
function takeQueryKey(request: FastifyRequest): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  if (!query || !Object.hasOwn(query, 'key')) return undefined;
  const value = query['key'];
  delete query['key'];
  return typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined;
}

/** Requests whose admission is being decided (awaited from the accounts). */
const deciding = new WeakSet<FastifyRequest>();
/**
 * Requests whose client left while their admission was decided: the abort hook found no admitted
 * call to abandon yet, so the onRequest hook ends the call once the admission comes.
 */
const leftWhileDeciding = new WeakSet<FastifyRequest>();

/** The name of {@link guardPlugin}, for the `dependencies` of plugins that read its decorations. @internal */
export const GUARD_PLUGIN = 'backlink-query-guard';

/** Options of {@link guardPlugin}. @internal */
export interface GuardOptions {
  readonly ring: () => KeyRing;
  readonly limitsOf: (keyId: string) => RateLimits;
  /** Told about a call whose client left, once its work has ended. */
  readonly onAbandoned: (request: FastifyRequest, call: Abandoned) => void;
}

/**
 * The guard's hooks, and the request decorations `apiKeyId` and `admittedCall`. Admits calls with
 * the instance's `accounts` (registered before it by `storePlugin`).
 *
 * @example
 * ```ts
 * await fastify.register(guardPlugin, { ring: () => ring, limitsOf: () => DEFAULT_RATE_LIMITS, onAbandoned: () => {} });
 * ```
 * @internal
 */
export const guardPlugin = serverPlugin<GuardOptions>(
  async (fastify, { ring, limitsOf, onAbandoned }) => {
    const { accounts } = fastify;
    fastify.decorateRequest('apiKeyId', null);
    fastify.decorateRequest('admittedCall', null);
    fastify.addHook('onRequest', async (request, reply) => {
      if (!isKeyed(request)) return;
      const queryKey = request.method === 'GET' ? takeQueryKey(request) : undefined;
      const keyId = ring().authenticate(request.headers.authorization, queryKey);
      if (keyId === undefined) {
        throw new ServiceError(401, 'A valid API key is required: send the header "Authorization: Apikey <key>" or the query parameter key=<key>.');
      }
      request.apiKeyId = keyId;
      deciding.add(request);
      let admission: Admission;
      try {
        admission = await accounts.admit(keyId, limitsOf(keyId));
      } finally {
        deciding.delete(request);
      }
      if (leftWhileDeciding.has(request)) {
        // The client left while the admission was decided (with `serve --workers`, a round trip
        // to the primary): no work ran, so an admitted call's slot goes back at once; nobody is
        // left to answer, admitted or refused, and the call's one log line is its 499.
        if (admission.ok) admission.release();
        onAbandoned(request, { keyId, units: 0, cancelled: false, ms: reply.elapsedTime });
        reply.hijack();
        return;
      }
      if (!admission.ok) {
        const what = admission.reason === 'rate' ? 'requests per second' : 'requests at once';
        throw new ServiceError(429, `Too many ${what} for this key; retry after ${admission.retryAfterSeconds} s.`, [], {
          'Retry-After': String(admission.retryAfterSeconds),
        });
      }
      request.admittedCall = new AdmittedCall(keyId, admission.release, reply);
    });
    // A call answered (or refused) is over: its work ended before its answer was written.
    fastify.addHook('onResponse', async (request) => request.admittedCall?.release());
    fastify.addHook('onRequestAbort', async (request) => {
      const call = request.admittedCall;
      if (call) onAbandoned(request, await call.abandon());
      else if (deciding.has(request)) leftWhileDeciding.add(request);
    });
  },
  { name: GUARD_PLUGIN, dependencies: [STORE_PLUGIN] },
);
