/**
 * ClickHouse over its HTTP interface, with `fetch` alone (no client package): one
 * {@link ClickhouseShard} per server of the cluster, each able to run a query and to insert rows
 * as JSONEachRow data.
 *
 * Values reach ClickHouse two ways, neither of them by pasting input into SQL by hand:
 * - rows to insert travel as JSON data after `FORMAT JSONEachRow`, never as SQL;
 * - a {@link Fragment}'s `?` are replaced, in one pass over the package's own SQL text, by
 *   {@link clickhouseLiteral}, the escaping function the injection suite proves on the real server
 *   (the Debian server, 18.16, has no query parameters).
 *
 * A server that cannot be reached, times out or is overloaded rejects with
 * {@link StoreUnavailableError}; a query error is a {@link StoreQueryError} with ClickHouse's
 * message and exception number.
 *
 * @module
 * @internal
 */
import { randomUUID } from 'node:crypto';
import { clickhouseLiteral } from '../../../../sql/dialects/clickhouse.js';
import { cancelledAlready, nextStatementName, onCallAbort, QueryCancelledError } from '../../call-signal.js';
import { isStoreQueryError, StoreQueryError } from '../../errors.js';
import { isStoreUnavailable, StoreUnavailableError } from '../../connection.js';
import type { Fragment } from '../../fragment.js';

/** Settings every query runs with: SQL's LEFT JOIN (NULL when no row matches), counts as JSON numbers, and the others said below. */
const SETTINGS: Readonly<Record<string, string>> = {
  join_use_nulls: '1',
  join_default_strictness: 'ALL',
  output_format_json_quote_64bit_integers: '0',
  // A write through a Distributed table has reached its shard when the INSERT returns.
  insert_distributed_sync: '1',
  // Keep decompressed blocks of small reads (a page of rows by id, a lookup) in the server's
  // cache: a call reads a few rows out of many blocks. Reads of more than a million rows bypass it.
  use_uncompressed_cache: '1',
};

/**
 * The SQL text of a fragment, each `?` replaced by its value as a ClickHouse literal. Only the
 * package's own SQL holds `?` (values are substituted here, in one pass, and never scanned again).
 *
 *
 * @throws TypeError when the fragment has not one value per `?` (a fragment not built with `sql`).
 */
export function render(fragment: Fragment): string {
  const pieces = fragment.sql.split('?');
  if (pieces.length !== fragment.params.length + 1) {
    throw new TypeError(`a query has ${pieces.length - 1} placeholders for ${fragment.params.length} values`);
  }
  let text = pieces[0]!;
  for (let i = 0; i < fragment.params.length; i++) text += literal(fragment.params[i]) + pieces[i + 1]!;
  return text;
}

/** A value as a literal; Buffers (key hashes) as their hex text, wrapped in `unhex()`. */
function literal(value: unknown): string {
  if (Buffer.isBuffer(value)) return `unhex(${clickhouseLiteral(value.toString('hex'))})`;
  return clickhouseLiteral(value);
}

/** Options of a shard. */
export interface ShardOptions {
  /** The server's HTTP URL, `http://host:8123`. */
  readonly url: string;
  /** The database the store's tables live in. */
  readonly database: string;
  /** How long one request may take (default 5,000 ms); past it the call rejects with StoreUnavailableError. */
  readonly timeoutMs?: number;
  /** User and password, when the server wants them. */
  readonly user?: string;
  readonly password?: string;
}

/**
 * One ClickHouse server.
 *
 * @example
 * ```ts
 * const shard = new ClickhouseShard({ url: 'http://127.0.0.1:8123', database: 'links' });
 * await shard.all(sql`SELECT count() AS n FROM links_local WHERE target_domain = ${'example.com'}`);
 * ```
 */
export class ClickhouseShard {
  readonly url: string;
  readonly database: string;
  readonly #timeoutMs: number;
  readonly #headers: Record<string, string>;

  constructor(options: ShardOptions) {
    this.url = options.url.replace(/\/+$/, '');
    this.database = options.database;
    this.#timeoutMs = options.timeoutMs ?? 5_000;
    this.#headers = { 'content-type': 'text/plain; charset=utf-8' };
    if (options.user !== undefined) this.#headers['x-clickhouse-user'] = options.user;
    if (options.password !== undefined) this.#headers['x-clickhouse-key'] = options.password;
  }

  /** The rows of a query, as objects; `settings`: the server's settings for this query alone. */
  async all<Row>(query: Fragment, options: { readonly timeoutMs?: number; readonly settings?: Readonly<Record<string, string>> } = {}): Promise<Row[]> {
    const text = await this.#query(`${render(query)}\nFORMAT JSONEachRow`, options);
    return this.#rows<Row>(text.split('\n'));
  }

  /**
   * The rows of a query that ends in `LIMIT`, and how many rows it had before its `LIMIT` and
   * `OFFSET` (the server's `rows_before_limit_at_least`, which counts every row when the query
   * sorts before its limit): a page and its total in one query.
   */
  async allBeforeLimit<Row>(
    query: Fragment,
    options: { readonly timeoutMs?: number; readonly settings?: Readonly<Record<string, string>> } = {},
  ): Promise<{ rows: Row[]; beforeLimit: number }> {
    const text = await this.#query(`${render(query)}\nFORMAT JSON`, options);
    let answer: { data?: Row[]; rows_before_limit_at_least?: number };
    try {
      answer = JSON.parse(text) as typeof answer;
    } catch {
      // An exception the server wrote after it had begun the answer.
      throw failure(this.url, text.slice(text.lastIndexOf('Code: ')));
    }
    if (!Array.isArray(answer.data) || typeof answer.rows_before_limit_at_least !== 'number') {
      throw new StoreQueryError(`ClickHouse at ${this.url} answered a query with a LIMIT without rows_before_limit_at_least.`);
    }
    return { rows: answer.data, beforeLimit: answer.rows_before_limit_at_least };
  }

  /** The answer's text to a query run for the current call (see {@link callSignal}). */
  async #query(text: string, { timeoutMs, settings }: { readonly timeoutMs?: number | undefined; readonly settings?: Readonly<Record<string, string>> | undefined }): Promise<string> {
    cancelledAlready();
    // The query of an abandoned call, or one past its time bound: its request is dropped and the
    // query killed by its id, which also stops every shard's part of a distributed query (the
    // server goes on computing after the client left otherwise, and its time limit is not checked
    // in every step of a query). Within a call the id is the call's next statement name (its
    // request's id and a number), by which all its statements are found in system.query_log.
    const queryId = nextStatementName() ?? randomUUID();
    const abandoned = new AbortController();
    const kill = () => void this.#post(`KILL QUERY WHERE query_id = ${clickhouseLiteral(queryId)} ASYNC`, false).catch(() => undefined);
    const done = onCallAbort(() => {
      abandoned.abort();
      kill();
    });
    try {
      return await this.#post(text, true, timeoutMs, { queryId, signal: abandoned.signal, ...(settings ? { settings } : {}) });
    } catch (error) {
      if (abandoned.signal.aborted) throw new QueryCancelledError(undefined, { cause: error });
      // Timed out, or the answer cut off: the query may still run.
      if (isStoreUnavailable(error)) kill();
      throw error;
    } finally {
      done();
    }
  }

  /**
   * Parses JSONEachRow lines. A line that is not JSON is an exception the server sent after it had
   * begun the answer (with status 200 already sent: a time limit reached while streaming).
   */
  #rows<Row>(lines: readonly string[]): Row[] {
    const rows: Row[] = [];
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line === '') continue;
      try {
        rows.push(JSON.parse(line) as Row);
      } catch {
        throw failure(this.url, lines.slice(i).join('\n'));
      }
    }
    return rows;
  }

  /**
   * The rows of a query, handed to `onRows` in batches as the answer arrives: for results larger
   * than one string may hold (a refresh reads millions of links). An error the server sends after
   * some rows (it has already answered 200 by then) rejects with its message.
   */
  async each<Row>(query: Fragment, onRows: (rows: Row[]) => void, options: { readonly timeoutMs?: number } = {}): Promise<void> {
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const response = await this.#send(`${render(query)}\nFORMAT JSONEachRow`, true, timeoutMs);
    const decoder = new TextDecoder();
    let rest = '';
    const parse = (lines: string[]) => {
      const rows = this.#rows<Row>(lines);
      if (rows.length > 0) onRows(rows);
    };
    try {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        const lines = (rest + decoder.decode(chunk, { stream: true })).split('\n');
        rest = lines.pop()!;
        parse(lines);
      }
    } catch (error) {
      throw this.#lost(error, timeoutMs);
    }
    parse([rest + decoder.decode()]);
  }

  /**
   * The answer to a query as `RowBinary` bytes, whole (the caller decodes them): for large reads of
   * numbers, which JSON makes several times slower to decode. The server sends it once complete
   * (`wait_end_of_query`), so that an error is a failed request, never bytes after some rows.
   */
  async binary(query: Fragment, options: { readonly timeoutMs?: number } = {}): Promise<Buffer> {
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const response = await this.#send(`${render(query)}\nFORMAT RowBinary`, true, timeoutMs, { settings: { wait_end_of_query: '1' } });
    try {
      return Buffer.from(await response.arrayBuffer());
    } catch (error) {
      throw this.#lost(error, timeoutMs);
    }
  }

  /**
   * Runs a statement (DDL, ALTER, OPTIMIZE, INSERT ... SELECT) in the store's database, or with
   * `database: null` outside any; `settings`: the server's settings for this statement alone.
   */
  async run(statement: Fragment, options: { readonly timeoutMs?: number; readonly database?: null; readonly settings?: Readonly<Record<string, string>> } = {}): Promise<void> {
    await this.#post(render(statement), options.database !== null, options.timeoutMs, options.settings ? { settings: options.settings } : {});
  }

  /** Inserts rows as JSONEachRow data into `table` (a name written by this package). */
  async insert(table: string, rows: readonly Readonly<Record<string, unknown>>[], options: { readonly timeoutMs?: number } = {}): Promise<void> {
    if (rows.length === 0) return;
    const body = `INSERT INTO ${table} FORMAT JSONEachRow\n${rows.map((row) => JSON.stringify(row)).join('\n')}`;
    await this.#post(body, true, options.timeoutMs);
  }

  async #post(body: string, inDatabase: boolean, timeoutMs = this.#timeoutMs, call: Call = {}): Promise<string> {
    const response = await this.#send(body, inDatabase, timeoutMs, call);
    try {
      return await response.text();
    } catch (error) {
      throw this.#lost(error, timeoutMs);
    }
  }

  /** The error for a request that failed in transit: the time limit, or the connection lost. */
  #lost(error: unknown, timeoutMs: number): Error {
    if (isStoreUnavailable(error) || isStoreQueryError(error)) return error;
    // AbortSignal.timeout's DOMException.
    if ((error as { name?: unknown } | undefined)?.name === 'TimeoutError') {
      return new StoreUnavailableError(`ClickHouse at ${this.url} did not answer within ${timeoutMs} ms.`, { cause: error });
    }
    const code = causeCode(error);
    return new StoreUnavailableError(`ClickHouse at ${this.url} cannot be reached${code ? ` (${code})` : ''}.`, { cause: error });
  }

  /** Sends a request; resolves to a 200 response whose body is still to be read. */
  async #send(body: string, inDatabase: boolean, timeoutMs = this.#timeoutMs, call: Call = {}): Promise<Response> {
    const url = new URL(`${this.url}/`);
    if (inDatabase) url.searchParams.set('database', this.database);
    // A statement of a call that is not killed by its id (a streamed read, a write) is named too.
    const queryId = call.queryId ?? nextStatementName();
    if (queryId !== undefined) url.searchParams.set('query_id', queryId);
    const limit = timeoutMs > 0 ? AbortSignal.timeout(timeoutMs + 1_000) : null;
    const signal = call.signal && limit ? AbortSignal.any([call.signal, limit]) : (call.signal ?? limit);
    for (const [name, value] of Object.entries({ ...SETTINGS, ...call.settings })) url.searchParams.set(name, value);
    if (timeoutMs > 0) url.searchParams.set('max_execution_time', String(Math.ceil(timeoutMs / 1000)));
    let response: Response | undefined;
    for (let attempt = 1; response === undefined; attempt++) {
      try {
        response = await fetch(url, { method: 'POST', headers: this.#headers, body, signal });
      } catch (error) {
        // A kept-alive connection the server closed just as it was reused (ClickHouse closes idle
        // ones after 3 s, Node keeps them 4 s): the request never reached the server; send it again.
        // After a long pause every pooled connection may be stale, so up to three times.
        if (attempt < STALE_RETRIES && isStaleConnection(error)) continue;
        throw this.#lost(error, timeoutMs);
      }
    }
    if (response.ok) return response;
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw this.#lost(error, timeoutMs);
    }
    throw failure(this.url, text);
  }
}

/** A request made for a call: its query id (for `KILL QUERY`) and the signal that drops it. */
interface Call {
  readonly queryId?: string;
  readonly signal?: AbortSignal;
  /** Settings of this request beyond {@link SETTINGS}. */
  readonly settings?: Readonly<Record<string, string>>;
}

/**
 * Server exceptions that waiting may cure: 159 time limit, 202 too many simultaneous queries,
 * 252 too many parts, 241 memory limit, 209/210 socket timeout or network error, 279 no connection
 * to another shard (the entry shard's part of a distributed query, that shard down or gone mid-query).
 */
const TRANSIENT = new Set(['159', '202', '252', '241', '209', '210', '279']);

/**
 * The error for an exception text of the server: {@link StoreUnavailableError} where waiting may
 * help, else {@link StoreQueryError}; the exception number is the query error's `code`.
 */
function failure(url: string, text: string): Error {
  const code = /Code: (\d+)/.exec(text)?.[1];
  const message = `ClickHouse at ${url}: ${text.trim().slice(0, 2_000)}`;
  if (code !== undefined && TRANSIENT.has(code)) {
    const what = code === '279' ? `could not reach another shard of the cluster (code 279${unreachable(text)})` : `could not answer now (code ${code})`;
    return new StoreUnavailableError(`ClickHouse at ${url} ${what}.`, { cause: new StoreQueryError(text, code) });
  }
  return new StoreQueryError(message, code);
}

/** `: <why>` of the last try in a 279's log of tries (the shard that could not be reached), or nothing. */
function unreachable(text: string): string {
  const tries = [...text.matchAll(/DB::\w+: (.+?)(?:, e\.what\(\)|$)/gm)].map((match) => match[1]!.trim());
  return tries.length > 1 ? `: ${tries.at(-1)!.slice(0, 200)}` : '';
}

/** Attempts of a request whose kept-alive connection turned out closed. */
const STALE_RETRIES = 3;

function causeCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

/** Whether a fetch failed on a reused connection the server had closed, before the request reached it. */
function isStaleConnection(error: unknown): boolean {
  const code = causeCode(error);
  const message = String((error as { cause?: { message?: unknown } } | undefined)?.cause?.message ?? '');
  return code === 'ECONNRESET' || code === 'EPIPE' || (code === 'UND_ERR_SOCKET' && /other side closed/i.test(message));
}
