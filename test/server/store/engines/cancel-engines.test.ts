/**
 * Each engine stops the statement of an abandoned call the way it can, on the real engine: DuckDB
 * interrupts it, PostgreSQL receives a cancel request (the backend is idle again), and a SQLite
 * worker skips a statement still waiting in its line and interrupts one running (through the
 * interrupt extension, built here with the machine's C compiler). The statements run inside
 * `forCall`, as the routes run them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { forCall, QueryCancelledError } from '../../../../src/server/store/call-signal.js';
import { openDuckdbConnection } from '../../../../src/server/store/engines/duckdb/connection.js';
import { openPostgresConnection } from '../../../../src/server/store/engines/postgres/connection.js';
import { raw, sql } from '../../../../src/server/store/fragment.js';
import { workerConnection } from '../../../../src/server/store/engines/sqlite/connection.js';
import { interruptExtension } from '../../../../src/server/store/engines/sqlite/interrupt.js';
import { freshPostgresDatabase } from '../../support/postgres-database.js';

const dir = mkdtempSync(join(tmpdir(), 'bq-cancel-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A new SQLite file in WAL mode (as the server's) with one table `t (x INTEGER)`. */
function walFile(name: string): string {
  const file = join(dir, name);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (x INTEGER)');
  db.close();
  return file;
}

/** A statement that runs for many seconds on each engine unless stopped. */
const LONG_SQLITE = raw('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000000000) SELECT count(*) AS c FROM n');

describe('DuckDB', () => {
  it('interrupts the running statement of an abandoned call; the connection serves the next one', async () => {
    const connection = await openDuckdbConnection(':memory:', { readers: 1, statementTimeoutMs: 60_000 });
    try {
      const call = new AbortController();
      const running = forCall(call.signal, () => connection.all(raw('SELECT sum(hash(a.range * b.range)) AS s FROM range(200000) a, range(200000) b')));
      setTimeout(() => call.abort(), 200);
      await expect(running).rejects.toBeInstanceOf(QueryCancelledError);
      expect(await connection.all(sql`SELECT ${41} + 1 AS n`)).toEqual([{ n: 42 }]);
    } finally {
      await connection.close();
    }
  });

  it('takes a call abandoned while it waits for a connection out of the line', async () => {
    const connection = await openDuckdbConnection(':memory:', { readers: 1, statementTimeoutMs: 60_000 });
    try {
      const first = new AbortController();
      const busy = forCall(first.signal, () => connection.all(raw('SELECT sum(hash(a.range * b.range)) AS s FROM range(200000) a, range(200000) b')));
      const second = new AbortController();
      const waiting = forCall(second.signal, () => connection.all(sql`SELECT ${1} AS n`));
      second.abort();
      await expect(waiting).rejects.toBeInstanceOf(QueryCancelledError);
      first.abort();
      await expect(busy).rejects.toBeInstanceOf(QueryCancelledError);
    } finally {
      await connection.close();
    }
  });
});

describe('SQLite worker threads', () => {
  it('build the interrupt extension', async () => {
    expect(await interruptExtension()).toMatch(/bq-interrupt-[0-9a-f]{16}\.so$/);
  });

  it('skip the statement of a call abandoned while it waited, and interrupt one running', async () => {
    const file = walFile('cancel.db');
    const connection = await workerConnection(file, { readers: 1, statementTimeoutMs: 60_000 });
    try {
      await connection.all(sql`SELECT ${1} AS ready`); // the thread is up and idle
      const first = new AbortController();
      let firstEnded = false;
      const running = forCall(first.signal, () => connection.all(LONG_SQLITE)).finally(() => (firstEnded = true));
      await new Promise((resolve) => setTimeout(resolve, 200)); // the thread has begun it
      // A statement with a trace: had the thread run it after all, the table would hold its row.
      const second = new AbortController();
      const queued = forCall(second.signal, () => connection.all(sql`INSERT INTO t (x) VALUES (${1})`));
      second.abort();
      // Out of the line at once, while the thread is still inside the long statement.
      await expect(queued).rejects.toBeInstanceOf(QueryCancelledError);
      expect(firstEnded).toBe(false);
      // The running statement (minutes of work) is interrupted: the thread itself answers it as
      // cancelled (a statement taken out of the line before it began has no such cause).
      first.abort();
      const error = await running.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QueryCancelledError);
      expect((error as Error).cause).toMatchObject({ code: 'CANCELLED' });
      expect(await connection.all(sql`SELECT count(*) AS n FROM t WHERE x = ${1}`)).toEqual([{ n: 0 }]);
    } finally {
      await connection.close();
    }
  });
});

describe('SQLite worker threads, calls abandoned after their statement ended', () => {
  it("never interrupt the next call's statement: two such calls abandoned while it runs leave it running", async () => {
    const file = walFile('stale.db');
    const connection = await workerConnection(file, { readers: 1, statementTimeoutMs: 60_000 });
    /** Keeps the main thread busy: the thread's answers wait, unread, as a busy server's do. */
    const block = (ms: number) => {
      const until = Date.now() + ms;
      while (Date.now() < until);
    };
    try {
      await connection.all(sql`SELECT ${1} AS ready`);
      const short = raw('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) SELECT count(*) AS c FROM n');
      const [a, b, last] = [new AbortController(), new AbortController(), new AbortController()];
      // Three calls in the one thread's line: two short statements, then a long one.
      const first = forCall(a.signal, () => connection.all(short)).catch((e: unknown) => e);
      const second = forCall(b.signal, () => connection.all(short)).catch((e: unknown) => e);
      const long = forCall(last.signal, () => connection.all(LONG_SQLITE)).catch((e: unknown) => e);
      // The short ones end and the long one begins while their answers wait unread; then both
      // short calls are abandoned, some time apart. Before the fix, each abandonment interrupted
      // the thread's statement (the long one): the first made it run again, the second failed it.
      block(600);
      a.abort();
      block(200);
      b.abort();
      block(200);
      last.abort();
      const error = await long;
      // The long statement ended because its own call was abandoned, not because of the others.
      expect(error).toBeInstanceOf(QueryCancelledError);
      expect((error as Error).cause).toMatchObject({ code: 'CANCELLED' });
      // The short calls' statements had ended: abandoned, their callers are told so all the same.
      expect(await first).toBeInstanceOf(QueryCancelledError);
      expect(await second).toBeInstanceOf(QueryCancelledError);
      expect(await connection.all(sql`SELECT ${2} AS again`)).toEqual([{ again: 2 }]);
    } finally {
      await connection.close();
    }
  });
});

describe('SQLite worker threads, waiting in line', () => {
  it('say a statement waited in line past its bound, not that something held a lock', async () => {
    const file = walFile('line.db');
    // Writes wait in the writer's line at most the lock bound: 5 ms, far shorter than 3,000 writes take (300 were once all written in time).
    const connection = await workerConnection(file, { readers: 1, lockTimeoutMs: 5 });
    try {
      const outcomes = await Promise.allSettled(Array.from({ length: 3_000 }, (_, i) => connection.write(sql`INSERT INTO t (x) VALUES (${i})`)));
      const messages = outcomes.flatMap((o) => (o.status === 'rejected' ? [String((o.reason as Error).message)] : []));
      expect(messages.length).toBeGreaterThan(0);
      expect(messages.filter((m) => /locked/.test(m))).toEqual([]);
      expect(messages.every((m) => /waited in line past its time bound/.test(m))).toBe(true);
    } finally {
      await connection.close();
    }
  });
});

describe('PostgreSQL', () => {
  it('cancels the running statement of an abandoned call: the backend is idle again', async () => {
    const url = await freshPostgresDatabase(inject('postgresUrl'), 'cancel');
    const connection = await openPostgresConnection({ url, statementTimeoutMs: 60_000, applicationName: 'bq-cancel-test' });
    const watcher = await openPostgresConnection({ url });
    const single = await openPostgresConnection({ url, poolSize: 1, statementTimeoutMs: 60_000, applicationName: 'bq-cancel-test' });
    const sleeping = () =>
      watcher.all<{ n: number }>(sql`SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = ${'bq-cancel-test'} AND state = ${'active'} AND query LIKE ${'SELECT pg_sleep%'}`);
    try {
      const call = new AbortController();
      const running = forCall(call.signal, () => connection.all(raw('SELECT pg_sleep(60)')));
      await expect.poll(async () => (await sleeping())[0]!.n, { timeout: 10_000 }).toBe(1);
      call.abort();
      await expect(running).rejects.toBeInstanceOf(QueryCancelledError);
      await expect.poll(async () => (await sleeping())[0]!.n, { timeout: 10_000 }).toBe(0);
      // A call waiting for a connection of the pool (of one, busy) leaves the line when abandoned.
      const holder = new AbortController();
      const busy = forCall(holder.signal, () => single.all(raw('SELECT pg_sleep(60)')));
      await expect.poll(async () => (await sleeping())[0]!.n, { timeout: 10_000 }).toBe(1);
      const waiter = new AbortController();
      const waiting = forCall(waiter.signal, () => single.all(sql`SELECT ${1}::int AS n`));
      waiter.abort();
      await expect(waiting).rejects.toBeInstanceOf(QueryCancelledError);
      holder.abort();
      await expect(busy).rejects.toBeInstanceOf(QueryCancelledError);
      // The session the cancel reached serves the next statements (no cancel is left to stop them).
      for (let i = 0; i < 3; i++) expect(await connection.all(sql`SELECT ${41}::int + 1 AS n, pg_sleep(0.1)::text AS s`)).toEqual([{ n: 42, s: '' }]);
    } finally {
      await connection.close();
      await watcher.close();
      await single.close().catch(() => undefined);
    }
  });
});
