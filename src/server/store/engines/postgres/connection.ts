/**
 * A {@link SqlConnection} over a `pg.Pool`.
 *
 * - `pg` is an optional dependency, loaded with dynamic `import()`; when it is missing the server's
 *   `MissingDependencyError` (src/peers.ts) names the package to install.
 * - Type parsers live on the pool, not in pg's global registry: int8 (counts, BIGINT columns)
 *   and numeric (sums of BIGINT) come back as JS numbers, so other pg users in the same process
 *   are not affected.
 * - Every session starts with `statement_timeout` and `lock_timeout` (startup parameters), and
 *   every query has a client-side read timeout a little past the statement timeout, for a server
 *   that stops answering altogether. Errors that mean "try later" (statement timeout or cancel,
 *   lock timeout, deadlock, serialization failure, too many connections, the server shutting
 *   down, refused or reset connections, a pool that cannot connect in time) reject with
 *   {@link StoreUnavailableError}; the server answers them with a retryable 503.
 * - A client whose connection failed is destroyed, never returned to the pool, and idle clients
 *   the server drops are removed by pg.Pool (its `error` event is handled), so the pool recovers
 *   by itself when PostgreSQL comes back.
 *
 * @module
 */
import type { CustomTypesConfig, Pool, PoolClient, PoolConfig, QueryResultRow } from 'pg';
import { importPeer, loadOnce } from '../../../../peers.js';
import { SERVER } from '../../../deps.js';
import { callSignal, cancelledAlready, currentCall, isQueryCancelled, onCallAbort, onCallEnd, QueryCancelledError } from '../../call-signal.js';
import { isStoreUnavailable, StoreUnavailableError, type SqlConnection, type StoreDialect, NO_COUNT_BEFORE_LIMIT } from '../../connection.js';
import { numbered, type Fragment } from '../../fragment.js';

/** The dialect facts of PostgreSQL. */
export const postgresStoreDialect: StoreDialect = Object.freeze({ filter: 'postgres' });

/** The pg module (its default export). @internal */
export type PgModule = typeof import('pg').default;

/** Loads `pg` once; throws `MissingDependencyError` (src/peers.ts) when it is not installed. */
export const loadPg: () => Promise<PgModule> = loadOnce(async () => {
  const module = await importPeer(SERVER, 'pg', () => import('pg'));
  return (module.default ?? module) as PgModule;
});

/** Options of {@link openPostgresConnection}. */
export interface PostgresConnectionOptions {
  /** `postgres://user:password@host:port/database` */
  readonly url: string;
  /** Connections in the pool (default 10). */
  readonly poolSize?: number;
  /** How long one statement may run before PostgreSQL cancels it (default 5,000 ms; 0: the server's default, normally none). */
  readonly statementTimeoutMs?: number;
  /** How long a statement waits for a lock (default 2,000 ms; 0: the server's default, normally none). */
  readonly lockTimeoutMs?: number;
  /** How long to wait for a connection, new or from the pool (default 5,000 ms). */
  readonly connectTimeoutMs?: number;
  /** How long an unused connection stays open (default 30,000 ms). */
  readonly idleTimeoutMs?: number;
  /** The `application_name` the sessions show in `pg_stat_activity` (default `backlink-query`). */
  readonly applicationName?: string;
  /** Told about errors of idle connections (the server restarted, the network dropped); default: ignored. */
  readonly onError?: (error: Error) => void;
  /** Server settings every session starts with (startup options, `-c name=value`), e.g. `{ synchronous_commit: 'on' }`; they override the URL's own `options`. */
  readonly settings?: Readonly<Record<string, string>>;
  /** Server settings every session starts with unless the URL's own `options` set them too. */
  readonly defaultSettings?: Readonly<Record<string, string>>;
  /**
   * Run the reads of one call (`forCall`) in one `REPEATABLE READ READ ONLY` transaction on one
   * client, so that they all see the database as it was at its first (default false: each read on
   * a client of its own, seeing what was committed when it began). `write` is never in it.
   */
  readonly snapshotPerCall?: boolean;
}

/** A {@link SqlConnection} on PostgreSQL, with its pool for engine-specific work (COPY, migrations). */
export interface PostgresConnection extends SqlConnection {
  readonly pool: Pool;
  /**
   * Runs `work` on one client of the pool. The client goes back to the pool afterwards, or is
   * destroyed when its connection failed; errors that mean "try later" become
   * {@link StoreUnavailableError}.
   */
  withClient<T>(work: (client: PoolClient) => Promise<T>): Promise<T>;
  /** Like {@link withClient}, inside BEGIN ... COMMIT (ROLLBACK when `work` fails). */
  withTransaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T>;
}

/** SQLSTATEs after which the same request may succeed later. */
const RETRYABLE_STATES: Readonly<Record<string, string>> = {
  '57014': 'A database statement ran past its time limit or was cancelled; retry later.',
  '55P03': 'The database rows are locked by another writer; retry shortly.',
  '40001': 'The database aborted the statement because of a concurrent write; retry.',
  '40P01': 'The database aborted the statement because of a deadlock; retry.',
  '53300': 'The database has no free connection; retry later.',
  '57P01': 'The database is shutting down; retry later.',
  '57P02': 'The database restarted after a crash; retry later.',
  '57P03': 'The database is starting up; retry later.',
};

/** SQLSTATEs after which the session is gone. */
const SESSION_ENDED = new Set(['57P01', '57P02', '57P03']);

const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'EAI_AGAIN', 'ENOTFOUND']);

/** pg's own messages for a connection that failed or timed out (it gives them no code). */
const CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|Connection closed|connection timeout|Client was closed/i;

const codeOf = (error: unknown): string => String((error as { code?: unknown } | null)?.code ?? '');

/** Whether an error means the client's connection is gone (so the client must not be reused). @internal */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = codeOf(error);
  if (SOCKET_CODES.has(code) || code.startsWith('08') || SESSION_ENDED.has(code)) return true;
  if (error instanceof AggregateError && error.errors.some(isConnectionFailure)) return true;
  return !/^[0-9A-Z]{5}$/.test(code) && CONNECTION_MESSAGES.test(error.message);
}

/**
 * The error a caller sees: {@link StoreUnavailableError} for anything worth retrying, else the
 * error as it is (a bug in a query, a constraint violation).
 *
 * @internal
 */
export function toStoreError(error: unknown): unknown {
  if (isStoreUnavailable(error)) return error;
  const message = RETRYABLE_STATES[codeOf(error)];
  if (message !== undefined) return new StoreUnavailableError(message, { cause: error });
  if (isConnectionFailure(error)) {
    return new StoreUnavailableError(`The database cannot be reached (${(error as Error).message}); retry later.`, { cause: error, retryAfterSeconds: 2 });
  }
  return error;
}

const placeholder = (index: number): string => `$${index}`;

/**
 * Settings as the `options` startup parameter: `-c name=value`, separated by spaces, with spaces
 * and backslashes in values escaped by a backslash (as PostgreSQL reads them). Names are settings'
 * names: letters, digits, `_` and `.`.
 *
 *
 * @internal
 */
export function startupOptions(settings: Readonly<Record<string, string>>): string {
  return Object.entries(settings)
    .map(([name, value]) => {
      if (!/^[A-Za-z_][A-Za-z0-9_.]*$/.test(name)) throw new TypeError(`Not a setting's name: ${JSON.stringify(name)}`);
      return `-c ${name}=${value.replace(/[\\ ]/g, (c) => `\\${c}`)}`;
    })
    .join(' ');
}

/**
 * The connection URL and the `options` startup parameter: `defaults`, then the URL's own
 * `options`, then `settings` (PostgreSQL applies them in order, so a later one wins; pg takes a
 * parameter of the URL over the same one of its config, so the URL's is taken out and joined).
 */
function withSettings(
  url: string,
  settings: Readonly<Record<string, string>> = {},
  defaults: Readonly<Record<string, string>> = {},
): { connectionString: string; options?: string } {
  if (Object.keys(settings).length === 0 && Object.keys(defaults).length === 0) return { connectionString: url };
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  const own = parsed?.searchParams.get('options') ?? '';
  if (parsed && own !== '') parsed.searchParams.delete('options');
  return { connectionString: parsed && own !== '' ? parsed.toString() : url, options: [startupOptions(defaults), own, startupOptions(settings)].filter(Boolean).join(' ') };
}

/**
 * Cancels statements of the pool's sessions with `pg_cancel_backend(pid)` on one session of its
 * own, opened on first use (no fork of a new backend per cancel, as the protocol's cancel request
 * costs). When the call returns, the backend has its signal: it stops the statement it runs, or,
 * when it has already finished it and waits for its next command, ignores the signal, so the
 * session can go back to the pool once its cancel has returned.
 */
function canceller(pg: PgModule, config: PoolConfig): { cancel(pid: number): Promise<void>; close(): Promise<void> } {
  let control: Promise<import('pg').Client> | undefined;
  const open = () => {
    control ??= (async () => {
      const client = new pg.Client({ ...config, application_name: `${config.application_name ?? 'backlink-query'} (cancel)` });
      client.on('error', () => (control = undefined));
      await client.connect();
      return client;
    })();
    const opening = control;
    opening.catch(() => {
      if (control === opening) control = undefined;
    });
    return opening;
  };
  // Cancels asked for while one is on its way go together in the next statement: one round trip
  // for a burst of abandoned calls, whose queries compete for the CPU the cancel needs.
  let waiting: { readonly pid: number; readonly resolve: () => void; readonly reject: (error: unknown) => void }[] = [];
  let sending = false;
  const send = async () => {
    sending = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      try {
        await (await open()).query('SELECT pg_cancel_backend(pid) FROM unnest($1::int[]) AS pid', [batch.map((c) => c.pid)]);
        for (const c of batch) c.resolve();
      } catch (error) {
        for (const c of batch) c.reject(error);
      }
    }
    sending = false;
  };
  return {
    cancel: (pid) =>
      new Promise<void>((resolve, reject) => {
        waiting.push({ pid, resolve, reject });
        if (!sending) void send();
      }),
    close: async () => {
      const client = await control?.catch(() => undefined);
      control = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}

/** A fragment as pg's query config: `?` becomes `$1..$n`. @internal */
export const toQuery = (fragment: Fragment): { text: string; values: unknown[] } => ({ text: numbered(fragment, placeholder), values: [...fragment.params] });

/**
 * The pool's type parsers: int8 (20) and numeric (1700) as numbers, everything else as pg does.
 * Values past 2^53 lose precision; the store never holds any (imports reject them).
 */
function typeParsers(pg: PgModule): CustomTypesConfig {
  const getTypeParser = (oid: number, format?: 'text' | 'binary') =>
    (oid === 20 || oid === 1700) && format !== 'binary' ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format ?? 'text');
  return { getTypeParser: getTypeParser as CustomTypesConfig['getTypeParser'] };
}

/** A connection over a new pool. No connection is opened until the first query. */
export async function openPostgresConnection(options: PostgresConnectionOptions): Promise<PostgresConnection> {
  const pg = await loadPg();
  const statementTimeoutMs = options.statementTimeoutMs ?? 5_000;
  const lockTimeoutMs = options.lockTimeoutMs ?? 2_000;
  const config: PoolConfig = {
    ...withSettings(options.url, options.settings, options.defaultSettings),
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    idleTimeoutMillis: options.idleTimeoutMs ?? 30_000,
    application_name: options.applicationName ?? 'backlink-query',
    keepAlive: true,
    types: typeParsers(pg),
    // pg sends these as startup parameters, so they hold for every statement of the session.
    ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs, query_timeout: statementTimeoutMs + 5_000 } : {}),
    ...(lockTimeoutMs > 0 ? { lock_timeout: lockTimeoutMs } : {}),
  };
  const pool = new pg.Pool(config);
  const onError = options.onError ?? (() => undefined);
  // An idle client whose connection drops emits 'error' on the pool, which removes it; without a
  // listener the process would crash. A checked-out client between two statements may do the same.
  pool.on('error', (error) => onError(error));
  pool.on('connect', (client) => void client.on('error', () => undefined));

  let closed = false;
  /** Clients whose session must not be reused (a ROLLBACK failed, or a cancel could not be sent). */
  const broken = new WeakSet<PoolClient>();

  /** A client of the pool; a call abandoned while it waits for one leaves at once (the client it is given later goes straight back). */
  const connect = (signal: AbortSignal | undefined): Promise<PoolClient> => {
    const connecting = pool.connect();
    if (!signal) return connecting;
    return new Promise((resolve, reject) => {
      const leave = () => {
        reject(new QueryCancelledError());
        connecting.then((client) => client.release(), () => undefined);
      };
      signal.addEventListener('abort', leave, { once: true });
      connecting.then(
        (client) => (signal.removeEventListener('abort', leave), resolve(client)),
        (error: unknown) => (signal.removeEventListener('abort', leave), reject(error)),
      );
    });
  };

  /** The error a caller sees when no client could be had. */
  const connectError = (error: unknown): unknown => {
    if (isQueryCancelled(error)) return error;
    if (closed) return new StoreUnavailableError('The store is closed.', { cause: error });
    // Waiting for a connection timed out while every connection of the pool was open and in use:
    // the database is up but busy, which is not what "cannot be reached" would tell an operator.
    if (pool.totalCount >= (pool.options.max ?? 10) && /timeout exceeded when trying to connect/i.test(String((error as Error).message))) {
      return new StoreUnavailableError(`Every database connection stayed busy past the wait bound; retry shortly.`, { cause: error });
    }
    return toStoreError(error);
  };

  const withClient = async <T>(work: (client: PoolClient) => Promise<T>): Promise<T> => {
    if (closed) throw new StoreUnavailableError('The store is closed.');
    cancelledAlready();
    let client: PoolClient;
    try {
      client = await connect(callSignal());
    } catch (error) {
      throw connectError(error);
    }
    let destroy = false;
    try {
      return await work(client);
    } catch (error) {
      destroy = isConnectionFailure(error);
      throw toStoreError(error);
    } finally {
      client.release(destroy || broken.has(client));
    }
  };

  const withTransaction = <T>(work: (client: PoolClient) => Promise<T>): Promise<T> =>
    withClient(async (client) => {
      await client.query('BEGIN');
      try {
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        // A session whose ROLLBACK failed is in an unknown state: destroy it.
        await client.query('ROLLBACK').catch(() => void broken.add(client));
        throw error;
      }
    });

  // A statement of an abandoned call is cancelled (see canceller); its session goes back to the
  // pool once the cancel has returned, or is closed when the cancel could not be sent.
  const cancels = canceller(pg, config);
  /** One statement on a client, cancelled when the call it runs for is abandoned. */
  const statement = async <Row>(client: PoolClient, query: Fragment): Promise<Row[]> => {
    cancelledAlready();
    let cancelling: Promise<void> | undefined;
    const done = onCallAbort(() => {
      const pid = (client as unknown as { processID: number | null }).processID;
      // Without a backend pid no cancel can be sent: the session is closed instead.
      if (pid === null) broken.add(client);
      cancelling = pid === null ? Promise.resolve() : cancels.cancel(pid).catch(() => void broken.add(client));
    });
    try {
      return (await client.query<QueryResultRow>(toQuery(query))).rows as Row[];
    } catch (error) {
      throw cancelling ? new QueryCancelledError(undefined, { cause: error }) : error;
    } finally {
      done();
      await cancelling;
    }
  };

  /** A call's snapshot: its client inside `BEGIN`, until the call has ended. */
  interface Snapshot {
    readonly client: Promise<PoolClient>;
    ended: boolean;
    destroy: boolean;
  }
  const snapshots = new WeakMap<object, Snapshot>();
  /** The current call's snapshot, begun by its first read; none outside a call, or once it has ended. */
  const snapshotOfCall = (): Snapshot | undefined => {
    const call = options.snapshotPerCall ? currentCall() : undefined;
    if (call === undefined) return undefined;
    const known = snapshots.get(call);
    if (known) return known.ended ? undefined : known;
    const client = connect(callSignal()).then(async (opened) => {
      try {
        await opened.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        return opened;
      } catch (error) {
        opened.release(true);
        throw error;
      }
    });
    const snapshot: Snapshot = { client, ended: false, destroy: false };
    snapshots.set(call, snapshot);
    onCallEnd(() => {
      snapshot.ended = true;
      // The call has its answer: the client goes back once COMMIT has run after its last statement.
      client.then(
        (opened) => opened.query('COMMIT').then(
          () => opened.release(snapshot.destroy || broken.has(opened)),
          () => opened.release(true),
        ),
        () => undefined,
      );
    });
    return snapshot;
  };

  const rows = async <Row>(query: Fragment): Promise<Row[]> => {
    if (closed) throw new StoreUnavailableError('The store is closed.');
    const snapshot = snapshotOfCall();
    if (!snapshot) return withClient((client) => statement<Row>(client, query));
    let client: PoolClient;
    try {
      client = await snapshot.client;
    } catch (error) {
      throw connectError(error);
    }
    try {
      return await statement<Row>(client, query);
    } catch (error) {
      if (isConnectionFailure(error)) snapshot.destroy = true;
      throw toStoreError(error);
    }
  };
  const writeRows = <Row>(query: Fragment): Promise<Row[]> => withClient((client) => statement<Row>(client, query));

  return {
    dialect: postgresStoreDialect,
    ...NO_COUNT_BEFORE_LIMIT,
    pool,
    withClient,
    withTransaction,
    all: rows,
    write: writeRows,
    transaction: (statements) =>
      withTransaction(async (client) => {
        for (const statement of statements) await client.query(toQuery(statement));
      }),
    close: async () => {
      if (closed) return;
      closed = true;
      await cancels.close();
      await pool.end();
    },
  };
}

/**
 * One client of a pool inside `BEGIN ... COMMIT`, as a connection: every statement run on it
 * (its `transaction` and `withTransaction` included, which run within this one) sees what the
 * others wrote, and nothing of it is seen elsewhere until {@link PostgresTransaction.commit}.
 *
 * @internal
 */
export interface PostgresTransaction {
  readonly connection: PostgresConnection;
  /** Commits and gives the client back; the first call ends the transaction, later calls of either do nothing. */
  commit(): Promise<void>;
  /** Rolls back and gives the client back (a client whose ROLLBACK failed is closed instead). */
  rollback(): Promise<void>;
}

/**
 * Takes a client of `connection`'s pool and begins a transaction on it, for work that spans many
 * calls (a load). Its `close` does nothing: the transaction ends with `commit` or `rollback`.
 *
 * @internal
 */
export async function beginTransaction(connection: PostgresConnection): Promise<PostgresTransaction> {
  let client: PoolClient;
  try {
    client = await connection.pool.connect();
  } catch (error) {
    throw toStoreError(error);
  }
  try {
    await client.query('BEGIN');
  } catch (error) {
    client.release(true);
    throw toStoreError(error);
  }
  let ended = false;
  const on = async <T>(work: (client: PoolClient) => Promise<T>): Promise<T> => {
    if (ended) throw new TypeError('This transaction has ended.');
    try {
      return await work(client);
    } catch (error) {
      throw toStoreError(error);
    }
  };
  const rows = <Row>(query: Fragment): Promise<Row[]> => on(async (c) => (await c.query<QueryResultRow>(toQuery(query))).rows as Row[]);
  const end = async (statement: 'COMMIT' | 'ROLLBACK'): Promise<void> => {
    if (ended) return;
    ended = true;
    let destroy = false;
    try {
      await client.query(statement);
    } catch (error) {
      destroy = true;
      if (statement === 'COMMIT') throw toStoreError(error);
    } finally {
      client.release(destroy);
    }
  };
  return {
    connection: {
      dialect: postgresStoreDialect,
      ...NO_COUNT_BEFORE_LIMIT,
      pool: connection.pool,
      withClient: on,
      withTransaction: on,
      all: rows,
      write: rows,
      transaction: (statements) =>
        on(async (c) => {
          for (const statement of statements) await c.query(toQuery(statement));
        }),
      close: async () => {},
    },
    commit: () => end('COMMIT'),
    rollback: () => end('ROLLBACK'),
  };
}
