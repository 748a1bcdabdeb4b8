/**
 * The call a query runs for, so an abandoned call can stop its queries. The route runs a call's
 * work inside {@link forCall} with the call's `AbortSignal`; every connection (DuckDB, SQLite's
 * workers, PostgreSQL, ClickHouse) reads {@link callSignal} when it starts a statement and, when
 * the signal aborts, stops it the way its engine can (DuckDB's interrupt, a PostgreSQL cancel
 * request, skipping a statement still queued for a SQLite worker, ClickHouse's `KILL QUERY`), then
 * rejects with {@link QueryCancelledError}.
 *
 * The signal travels in `AsyncLocalStorage` rather than through every store method: the stores'
 * queries are written once over the connection port, and a call's whole tree of statements
 * inherits it. Work shared between calls (a cached list, a matrix union, the competitor graph) may
 * have been started by a call that is then abandoned: its other waiters see a
 * {@link QueryCancelledError} that is not theirs, and {@link forCall} runs their work again.
 *
 * @module
 * @internal
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { errorBrand } from '../../shared/brand.js';

/** One run of a call's work: its signal, what runs when the run has ended, and the call's statement names (shared by its runs). */
interface CallRun {
  readonly signal: AbortSignal;
  readonly ends: (() => void)[];
  readonly statements: { readonly id: string; count: number };
}

const calls = new AsyncLocalStorage<CallRun>();

const QUERY_CANCELLED = /* @__PURE__ */ errorBrand<QueryCancelledError>('QueryCancelledError');

/** A statement was stopped because the call it ran for was abandoned. */
export class QueryCancelledError extends Error {
  override readonly name = 'QueryCancelledError';
  constructor(message = 'The query was cancelled: the call it ran for was abandoned.', options?: { cause?: unknown }) {
    super(message, options);
    QUERY_CANCELLED.mark(this);
  }
}

/**
 * Whether an error is a {@link QueryCancelledError}, across realms and package copies (by its
 * brand: an error that is merely named alike is not one).
 */
export const isQueryCancelled = (error: unknown): error is QueryCancelledError => QUERY_CANCELLED.is(error);

/** The signal of the call the current statement runs for (none outside a call: loads, the CLI). */
export const callSignal = (): AbortSignal | undefined => calls.getStore()?.signal;

/**
 * The current run of a call's work (an object of its own for each run, see {@link forCall}), or
 * undefined outside a call: the key of what a connection keeps for one call (PostgreSQL's snapshot).
 */
export const currentCall = (): object | undefined => calls.getStore();

/**
 * Runs `end` once the current run of a call's work has settled (answered, failed or abandoned);
 * returns false, and never runs it, outside a call.
 */
export function onCallEnd(end: () => void): boolean {
  const run = calls.getStore();
  if (!run) return false;
  run.ends.push(end);
  return true;
}

/**
 * A name for the next statement of the current call, unique within it: the call's id (see
 * {@link forCall}), a dash and the statement's number from 1 (`<id>-1`, `<id>-2`, ...), so that
 * every statement of one call can be found afterwards by the prefix `<id>-` (ClickHouse's
 * `query_id`, read back from `system.query_log`). Undefined outside a call.
 */
export function nextStatementName(): string | undefined {
  const statements = calls.getStore()?.statements;
  return statements ? `${statements.id}-${++statements.count}` : undefined;
}

/** Times a call's work is started again after a statement it shared with an abandoned call was cancelled. */
const SHARED_RETRIES = 3;

/**
 * Runs a call's work with its signal. Rejects with {@link QueryCancelledError} when the call's own
 * signal aborted; work cancelled for another call is run again. `id` names the call's statements
 * (see {@link nextStatementName}): the routes pass the request's id (its `X-Request-Id`); by
 * default a new UUID.
 */
export async function forCall<T>(signal: AbortSignal, work: () => Promise<T>, id: string = randomUUID()): Promise<T> {
  // Numbered across the runs of the call: a run started again never reuses a name.
  const statements = { id, count: 0 };
  for (let attempt = 1; ; attempt++) {
    if (signal.aborted) throw new QueryCancelledError();
    const run: CallRun = { signal, ends: [], statements };
    try {
      return await calls.run(run, work);
    } catch (error) {
      if (!isQueryCancelled(error) || signal.aborted || attempt > SHARED_RETRIES) throw error;
    } finally {
      for (const end of run.ends.splice(0)) end();
    }
  }
}

/**
 * Calls `onAbort` when the current call is abandoned, until `done` is called (always call it).
 * Outside a call, or for a call already abandoned, see {@link cancelledAlready}.
 */
export function onCallAbort(onAbort: () => void): () => void {
  const signal = calls.getStore()?.signal;
  if (!signal) return () => undefined;
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

/** Throws {@link QueryCancelledError} when the current call was abandoned already (before a statement starts). */
export function cancelledAlready(): void {
  if (calls.getStore()?.signal.aborted) throw new QueryCancelledError();
}
