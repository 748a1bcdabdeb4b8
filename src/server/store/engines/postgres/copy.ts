/**
 * The fast way to write links on PostgreSQL: each batch is streamed with `COPY ... FROM STDIN`
 * (text format) into a temporary table, then merged into `links` (or the table a load fills in its
 * place) with one `INSERT ... SELECT ... ON CONFLICT (link_key) DO UPDATE`, so a re-import replaces the stored
 * link as the shared upsert does. New links get their ids in batch order (the tie-break of the
 * links list), whatever order the temporary table is scanned in.
 *
 * COPY is spoken through pg's own client with a small custom query object (pg calls its
 * `submit` and `handle*` methods as it does for pg-copy-streams), so no extra dependency is
 * needed. The socket's back-pressure is respected: memory stays at one chunk per batch.
 *
 * @module
 * @internal
 */
import type { Duplex } from 'node:stream';
import type { Connection, PoolClient, Submittable } from 'pg';
import { LINK_COLUMNS, type LinkRow } from '../../inputs.js';
import type { LinkSink, LinksTable } from '../../loads/writer.js';
import type { PostgresConnection } from './connection.js';

/** What the COPY query needs of pg's connection (its public methods, untyped in @types/pg). */
interface CopyWire {
  readonly stream: Duplex;
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
  sendCopyFail(message: string): void;
}

const ESCAPES: Readonly<Record<string, string>> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const SPECIAL = /[\\\n\r\t]/g;

/**
 * One value in COPY's text format: `\N` for null, `t`/`f`, decimal numbers, bytea as `\\x<hex>`
 * (the bytea hex form with its backslash escaped), text with backslash, newline, carriage
 * return and tab escaped.
 */
export function copyField(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  switch (typeof value) {
    case 'string':
      return value.replace(SPECIAL, (c) => ESCAPES[c]!);
    case 'boolean':
      return value ? 't' : 'f';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`Cannot store ${value} in a link column.`);
      return String(value);
    case 'bigint':
      return String(value);
    default:
      if (value instanceof Uint8Array) return `\\\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
      throw new TypeError(`Cannot store a ${typeof value} in a link column.`);
  }
}

/** Rows per CopyData message (a few hundred kB). */
const ROWS_PER_CHUNK = 1_000;

/** The batch in COPY text format, one chunk at a time: the row's position, then LINK_COLUMNS. */
function* copyChunks(rows: readonly LinkRow[]): Generator<Buffer> {
  for (let start = 0; start < rows.length; start += ROWS_PER_CHUNK) {
    let text = '';
    const end = Math.min(rows.length, start + ROWS_PER_CHUNK);
    for (let i = start; i < end; i++) {
      text += String(i);
      for (const value of rows[i]!.values) text += `\t${copyField(value)}`;
      text += '\n';
    }
    yield Buffer.from(text, 'utf8');
  }
}

/** Resolves when the socket can take more (or is gone: the query then fails on its own). */
function drained(stream: Duplex): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      stream.off('error', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
    stream.on('error', done);
  });
}

/**
 * `COPY ... FROM STDIN` as a pg query object: pg sends the statement, the server answers
 * CopyInResponse, the chunks follow as CopyData, then CopyDone; the server's CommandComplete and
 * ReadyForQuery settle the promise (an ErrorResponse, or a broken connection, rejects it).
 */
class CopyFrom implements Submittable {
  readonly done: Promise<number>;
  #resolve!: (rows: number) => void;
  #reject!: (error: Error) => void;
  #failed: Error | undefined;
  #rowCount = 0;

  constructor(
    private readonly text: string,
    private readonly chunks: Iterable<Buffer>,
  ) {
    this.done = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  submit(connection: Connection): void {
    (connection as unknown as CopyWire).query(this.text);
  }

  handleCopyInResponse(connection: Connection): void {
    void this.#pump(connection as unknown as CopyWire);
  }

  async #pump(wire: CopyWire): Promise<void> {
    try {
      for (const chunk of this.chunks) {
        if (this.#failed) return; // the server said no: it drops whatever else we send
        wire.sendCopyFromChunk(chunk);
        if (wire.stream.writableNeedDrain) await drained(wire.stream);
      }
      if (!this.#failed) wire.endCopyFrom();
    } catch (error) {
      // Encoding failed: abort the COPY; the server answers with an error, we report ours.
      this.#failed = error as Error;
      wire.sendCopyFail((error as Error).message);
    }
  }

  handleCopyData(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}

  handleCommandComplete(message: { text?: string; command?: string; rowCount?: number }): void {
    const count = message.rowCount ?? Number(/\d+$/.exec(message.text ?? '')?.[0] ?? 0);
    this.#rowCount = Number.isFinite(count) ? count : 0;
  }

  handleError(error: Error): void {
    const reason = this.#failed ?? error;
    this.#failed ??= error;
    this.#reject(reason);
  }

  handleReadyForQuery(): void {
    if (this.#failed) this.#reject(this.#failed);
    else this.#resolve(this.#rowCount);
  }
}

/** Runs `COPY ... FROM STDIN` on a client and resolves with the number of rows copied. */
export function copyFrom(client: PoolClient, text: string, chunks: Iterable<Buffer>): Promise<number> {
  const copy = new CopyFrom(text, chunks);
  client.query(copy);
  return copy.done;
}

const STAGE = 'bq_links_in';
const COLUMNS = LINK_COLUMNS.join(', ');
const UPDATES = LINK_COLUMNS.filter((c) => c !== 'link_key')
  .map((c) => `${c} = excluded.${c}`)
  .join(', ');

/** The last row of each identity, in first-seen position (as the writer's batches are). */
function uniqueRows(rows: readonly LinkRow[]): readonly LinkRow[] {
  const byKey = new Map<string, LinkRow>();
  for (const row of rows) byKey.set(row.key.toString('hex'), row);
  return byKey.size === rows.length ? rows : [...byKey.values()];
}

/**
 * A {@link LinkSink} writing each batch with COPY into a temporary table and one merge into
 * `links` (or the load's `table`). A load runs it on the connection of its transaction
 * (`beginTransaction`): the temporary table is made by the first batch and emptied for each later
 * one, and dropped when the load commits.
 */
export function copyLinkSink(connection: PostgresConnection, table: LinksTable = 'links'): LinkSink {
  let staged = false;
  return async (input) => {
    if (input.length === 0) return;
    const rows = uniqueRows(input);
    await connection.withTransaction(async (client) => {
      if (staged) await client.query(`TRUNCATE ${STAGE}`);
      else {
        await client.query(`CREATE TEMP TABLE ${STAGE} (LIKE ${table} INCLUDING DEFAULTS) ON COMMIT DROP`);
        await client.query(`ALTER TABLE ${STAGE} DROP COLUMN id, ADD COLUMN ord integer NOT NULL`);
        staged = true;
      }
      await copyFrom(client, `COPY ${STAGE} (ord, ${COLUMNS}) FROM STDIN`, copyChunks(rows));
      await client.query(
        `INSERT INTO ${table} (${COLUMNS}) SELECT ${COLUMNS} FROM ${STAGE} ORDER BY ord
         ON CONFLICT (link_key) DO UPDATE SET ${UPDATES}`,
      );
    });
  };
}
