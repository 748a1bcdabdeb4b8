/**
 * The accounts of `serve --workers N` (node:cluster): the primary keeps the one {@link Accounts}
 * of the server (the per-key limits and the charges, over its store's ledger) and answers its
 * workers' requests for it over node:cluster's IPC channel, so a key's limits and balance hold
 * across the processes; each worker serves HTTP and runs queries on a store of its own.
 *
 * The requests a worker makes together (in one task of its event loop, up to its microtask
 * checkpoint) go in one message, and so do the primary's answers to them. The primary handles a
 * worker's requests in the order they were made.
 *
 * A worker that dies gives its calls' slots and holds back (its unwritten charges are lost, in the
 * clients' favour, as for a killed server); a request of it that arrives after that is ignored.
 * A worker whose primary is gone exits at once (node:cluster's own rule): its calls in flight get
 * no answer, and none is charged.
 *
 * @module
 * @internal
 */
import type { ChildProcess } from 'node:child_process';
import { errorBrand } from '../shared/brand.js';
import type { Accounts, Admission } from './accounts/accounts.js';
import { StoreUnavailableError, isStoreUnavailable } from './store/connection.js';
import type { Hold } from './accounts/charge-book.js';

type Op = 'admit' | 'free' | 'hold' | 'charge' | 'release' | 'commit' | 'balance';
/** A worker's request: its id, what it asks, and the arguments of the Accounts method. */
type Request = readonly [id: number, op: Op, args: readonly unknown[]];
/** A failure of the primary's accounts, as it crosses the channel. */
interface Failure {
  readonly message: string;
  /** Set when the store could not answer (a retryable 503, as in one process). */
  readonly retryAfterSeconds?: number;
}
/** The primary's answer to a request: its id, and its result or its failure. */
type Answer = readonly [id: number, ok: true, result: unknown] | readonly [id: number, ok: false, failure: Failure];

const PRIMARY_ACCOUNTS_ERROR = /* @__PURE__ */ errorBrand<PrimaryAccountsError>('PrimaryAccountsError');

/**
 * The primary's accounts failed on a worker's request, other than by a store that cannot answer
 * now (which stays a {@link StoreUnavailableError}); the server answers it as a 500.
 *
 * @example
 * ```ts
 * throw new PrimaryAccountsError('disk I/O error');
 * ```
 */
export class PrimaryAccountsError extends Error {
  override readonly name = 'PrimaryAccountsError';
  /** @param message - the primary's error message */
  constructor(message: string) {
    super(`The server's primary process failed: ${message}`);
    PRIMARY_ACCOUNTS_ERROR.mark(this);
  }
}

/**
 * Whether `value` is a {@link PrimaryAccountsError}, across realms and package copies.
 *
 * @example
 * ```ts
 * isPrimaryAccountsError(new PrimaryAccountsError('disk I/O error')); // true
 * ```
 */
export function isPrimaryAccountsError(value: unknown): value is PrimaryAccountsError {
  return PRIMARY_ACCOUNTS_ERROR.is(value);
}

/** A failure of the primary as the worker's error: the store's stays a retryable 503, anything else a 500. */
const failed = (failure: Failure): Error =>
  failure.retryAfterSeconds === undefined
    ? new PrimaryAccountsError(failure.message)
    : new StoreUnavailableError(failure.message, { retryAfterSeconds: failure.retryAfterSeconds });

/** One message of either side: requests (worker to primary) or answers (primary to worker). */
interface AccountsMessage {
  readonly bq: 'accounts';
  readonly requests?: readonly Request[];
  readonly answers?: readonly Answer[];
}

const isAccountsMessage = (message: unknown): message is AccountsMessage => (message as { bq?: unknown } | null)?.bq === 'accounts';

/** Items pushed in one task of the event loop, sent together at its microtask checkpoint. */
function batcher<T>(send: (items: T[]) => void): { push(item: T): void; flush(): T[] } {
  let items: T[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const batch = items;
    items = [];
    return batch;
  };
  return {
    push(item) {
      items.push(item);
      if (scheduled) return;
      scheduled = true;
      queueMicrotask(() => {
        const batch = flush();
        if (batch.length > 0) send(batch);
      });
    },
    flush,
  };
}

/** The holds a worker's calls have, by value (a hold crosses the channel as a copy). */
class HeldBy {
  readonly #counts = new Map<string, { hold: Hold; count: number }>();
  static #key = (hold: Hold) => `${hold.charged ? 'c' : 'h'}${hold.units}:${hold.keyId}`;
  add(hold: Hold): void {
    const entry = this.#counts.get(HeldBy.#key(hold));
    if (entry) entry.count++;
    else this.#counts.set(HeldBy.#key(hold), { hold, count: 1 });
  }
  /** Takes one such hold off; false if the worker has none (it was given back already). */
  take(hold: Hold): boolean {
    const key = HeldBy.#key(hold);
    const entry = this.#counts.get(key);
    if (!entry) return false;
    if (--entry.count === 0) this.#counts.delete(key);
    return true;
  }
  *drain(): Iterable<Hold> {
    for (const { hold, count } of this.#counts.values()) for (let i = 0; i < count; i++) yield hold;
    this.#counts.clear();
  }
}

/** A worker process as its primary sees it (`worker.process` of node:cluster). */
type WorkerChannel = Pick<ChildProcess, 'on' | 'send' | 'connected'>;

/** In the primary: answers the requests of `worker` (its process) from `accounts`. @internal */
export function shareAccounts(worker: WorkerChannel, accounts: Accounts): void {
  const admissions = new Map<number, () => void>();
  const holds = new HeldBy();
  let gone = false;
  const answers = batcher<Answer>((batch) => {
    if (!gone && worker.connected) worker.send({ bq: 'accounts', answers: batch } satisfies AccountsMessage);
  });
  const answer = (id: number, work: Promise<unknown>) =>
    void work.then(
      (result) => answers.push([id, true, result]),
      (error: unknown) =>
        answers.push([id, false, isStoreUnavailable(error) ? { message: error.message, retryAfterSeconds: error.retryAfterSeconds } : { message: String((error as Error)?.message ?? error) }]),
    );
  const handle = ([id, op, args]: Request) => {
    // The worker sends what its Accounts methods take (the primary's own types).
    const [a, b] = args as [never, never];
    switch (op) {
      case 'admit':
        return answer(
          id,
          accounts.admit(a, b).then((admission) => {
            if (!admission.ok) return admission;
            if (gone) admission.release();
            else admissions.set(id, admission.release);
            return { ok: true };
          }),
        );
      case 'free':
        admissions.get(a)?.();
        return void admissions.delete(a);
      case 'hold':
        return answer(
          id,
          accounts.hold(a, b).then((held) => {
            if (held.ok && gone) accounts.release(held.hold);
            else if (held.ok) holds.add(held.hold);
            return held;
          }),
        );
      case 'charge':
        if (!holds.take(a)) return answers.push([id, false, { message: 'the hold was given back' }]);
        return answer(
          id,
          accounts.charge(a, b).then((charged) => {
            holds.add(charged.hold);
            return charged;
          }),
        );
      case 'release':
        if (holds.take(a)) accounts.release(a);
        return;
      case 'commit':
        if (holds.take(a)) accounts.commit(a);
        return;
      case 'balance':
        return answer(id, accounts.balance(a));
    }
  };
  worker.on('message', (message: unknown) => {
    if (gone || !isAccountsMessage(message)) return;
    for (const request of message.requests ?? []) handle(request);
  });
  // Every message the worker sent has arrived when its channel closes.
  worker.on('disconnect', () => {
    gone = true;
    for (const release of admissions.values()) release();
    admissions.clear();
    for (const hold of holds.drain()) accounts.release(hold);
  });
}

/**
 * In a worker: the primary's accounts, over node:cluster's IPC channel. `flush` sends the requests
 * not sent yet (the commits of the last answers) before the worker disconnects. @internal
 */
export function remoteAccounts(channel: Pick<NodeJS.Process, 'send' | 'on' | 'connected'> = process): Accounts {
  let next = 0;
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  const send = (batch: Request[], done?: () => void) => {
    if (!channel.connected) return done?.();
    channel.send!({ bq: 'accounts', requests: batch } satisfies AccountsMessage, undefined, undefined, () => done?.());
  };
  const requests = batcher<Request>((batch) => send(batch));
  channel.on('message', (message: unknown) => {
    if (!isAccountsMessage(message)) return;
    for (const [id, ok, value] of message.answers ?? []) {
      const call = waiting.get(id);
      if (!call) continue;
      waiting.delete(id);
      if (ok) call.resolve(value);
      else call.reject(failed(value as Failure));
    }
  });
  const tell = (op: Op, args: readonly unknown[]): number => {
    const id = next++;
    requests.push([id, op, args]);
    return id;
  };
  // The request waits in its batch until the microtask checkpoint: its answer cannot come first.
  const answerTo = <T>(id: number) => new Promise<T>((resolve, reject) => waiting.set(id, { resolve: resolve as (value: unknown) => void, reject }));
  const ask = <T>(op: Op, args: readonly unknown[]): Promise<T> => answerTo<T>(tell(op, args));
  return {
    admit: async (keyId, limits) => {
      const id = tell('admit', [keyId, limits]);
      const admission = await answerTo<Admission>(id);
      if (!admission.ok) return admission;
      let freed = false;
      return { ok: true, release: () => void (freed || ((freed = true), tell('free', [id]))) };
    },
    hold: (keyId, units) => ask('hold', [keyId, units]),
    charge: (hold, units) => ask('charge', [hold, units]),
    release: (hold) => void tell('release', [hold]),
    commit: (hold) => void tell('commit', [hold]),
    balance: (keyId) => ask('balance', [keyId]),
    // The primary writes the charges; the worker sends what it has not sent yet.
    flush: () => new Promise<void>((resolve) => {
      const batch = requests.flush();
      if (batch.length === 0) resolve();
      else send(batch, resolve);
    }),
  };
}
