/**
 * Another process holds SQLite's write lock on the server's database file for longer than the
 * server's lock bound.
 *
 * What happens: every operation reads (on the reader threads, which WAL never blocks); its charge
 * is written after its answer, by the charge book (accounts/charge-book.ts), so while the lock is
 * held the calls are answered 200 and their charges wait: a write past the lock bound fails and is
 * made again later. Never a 500, never a hang, never a dead server, and the event loop stays free
 * (`/openapi.json` answers at once throughout). Once the lock is released the same calls succeed,
 * without a restart, and the ledger lost exactly what the 200s said they charged.
 *
 * The server runs in a process of its own (fixture-server.ts), so that a crash fails these tests
 * with its message rather than taking the test runner's worker down.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadStoreDeps } from '../../../src/server/deps.js';
import { fileTempDir } from '../../helpers/file-end.js';
import {
  badUnavailables,
  byStatus,
  describeRun,
  FIXTURE_PATHS,
  get,
  LOAD_AUTH,
  LOAD_KEY,
  runLoad,
  seconds,
  slowest,
  SOAK,
  startFixtureServer,
  unitsCharged,
  type FixtureServer,
  type Outcome,
} from './load-kit.js';

const dir = fileTempDir('bq-load-lock-');

/**
 * A separate node process that takes the write lock (BEGIN IMMEDIATE and an INSERT), says
 * "locked", holds it for `holdMs` with its thread asleep, rolls back, says "released" and exits.
 */
function holdWriteLock(file: string, holdMs: number) {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const script = `
    const Database = require(process.argv[1]);
    const db = new Database(process.argv[2], { fileMustExist: true });
    db.exec('BEGIN IMMEDIATE');
    db.prepare("INSERT INTO domains (domain, ip_address, country, domain_score) VALUES ('lock-holder.example', '192.0.2.1', 'US', 1)").run();
    process.stdout.write('locked\\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(process.argv[3]));
    db.exec('ROLLBACK');
    db.close();
    process.stdout.write('released\\n');`;
  const child = spawn(process.execPath, ['-e', script, driver, file, String(holdMs)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
  const locked = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => stdout.includes('locked') && resolve());
    void exit.then((code) => reject(new Error(`the lock holder exited (${code}) before locking:\n${stderr}`)));
  });
  let released = false;
  void exit.then(() => (released = true));
  return { child, locked, exit, released: () => released, err: () => stderr };
}

/** The key's balance, read from the file by a connection of the test's own. */
async function balanceIn(file: string): Promise<number> {
  const { Database } = await loadStoreDeps();
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT units_remaining FROM api_keys WHERE id = ?').get(LOAD_KEY.id) as { units_remaining: number }).units_remaining;
  } finally {
    db.close();
  }
}

/** Every path once, at the same time. */
const everyPath = (server: FixtureServer) => Promise.all(FIXTURE_PATHS.map((path) => get(server.url, path, { headers: LOAD_AUTH, timeoutMs: 10_000 })));

/**
 * Holds the lock for `holdMs` while `concurrency` connections call the operations and another
 * one fetches /openapi.json every 50 ms; checks everything the header says, and returns the
 * outcomes during the hold.
 */
async function underLock(options: { name: string; lockTimeoutMs: number; statementTimeoutMs: number; holdMs: number; concurrency: number; boundMs: number }) {
  const file = join(dir(), `${options.name}.db`);
  const server = await startFixtureServer({ engine: 'sqlite', file, lockTimeoutMs: options.lockTimeoutMs, statementTimeoutMs: options.statementTimeoutMs, readers: 2 });
  let holder: ReturnType<typeof holdWriteLock> | undefined;
  try {
    const before = await balanceIn(file);
    const warm = await everyPath(server);
    expect(byStatus(warm), describeRun(warm)).toEqual({ 200: FIXTURE_PATHS.length });

    holder = holdWriteLock(file, options.holdMs);
    await holder.locked;
    const lock = holder;
    const lockedAt = Date.now();
    const openapi: Outcome[] = [];
    const pinger = (async () => {
      while (!lock.released() && server.alive() && Date.now() - lockedAt < options.holdMs + 10_000) {
        openapi.push(await get(server.url, '/openapi.json', { timeoutMs: 5_000 }));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const during = await runLoad({
      base: server.url,
      paths: FIXTURE_PATHS,
      concurrency: options.concurrency,
      durationMs: Math.max(0, options.holdMs - 500),
      timeoutMs: 30_000,
      stop: () => lock.released() || !server.alive(),
    });
    expect(await holder.exit, holder.err()).toBe(0);
    await pinger;
    const summary = `${describeRun(during)}\nserver stderr: ${server.err().slice(0, 2_000)}`;

    // The server is still there, and answered every call 200 (the reads do not wait for the lock,
    // the charges wait in the ledger): no 503, no 500, no socket error.
    expect(server.alive(), summary).toBe(true);
    expect(byStatus(during), summary).toEqual({ 200: during.length });
    expect(during.length, summary).toBeGreaterThanOrEqual(options.concurrency);
    expect(badUnavailables(during), summary).toEqual([]);
    // Calls were charged while the lock was held: their charges could be written only after it
    // (the ledger's equality below, after the release, shows none was lost).
    expect(unitsCharged(during), summary).toBeGreaterThan(0);
    // No call waited much past the bound.
    expect(slowest(during), summary).toBeLessThan(options.boundMs);
    // The event loop was never blocked by the waiting charges: a ping waits at most as long as
    // the calls it queues behind (every caller is answered 200 now, so the server is busy).
    expect(openapi.length).toBeGreaterThan(options.holdMs / 1000);
    expect(openapi.filter((o) => o.status !== 200 || o.ended - o.started > options.boundMs), JSON.stringify(openapi.slice(0, 5))).toEqual([]);

    // After the release, without a restart: every call succeeds again.
    const after = await everyPath(server);
    expect(byStatus(after), describeRun(after)).toEqual({ 200: FIXTURE_PATHS.length });

    // The ledger lost exactly what the 200s said they charged (a 503 charged nothing).
    expect(await server.stop()).toBe(0);
    expect(before - (await balanceIn(file)), summary).toBe(unitsCharged([...warm, ...during, ...after]));
    console.log(`[sqlite-lock ${options.name}] during the ${options.holdMs} ms hold: ${describeRun(during).slice(0, 200)}; /openapi.json slowest ${slowest(openapi)} ms`);
  } finally {
    holder?.child.kill('SIGKILL');
    await server.stop(2_000);
  }
}

describe('a write lock held by another process', () => {
  const holdMs = seconds(3, 60);
  const timeout = holdMs + (SOAK ? 120_000 : 60_000);

  it(
    'past the 300 ms lock bound, a few callers: 200s within the bound, the event loop free, every charge written after the release',
    async () => {
      await underLock({ name: 'few', lockTimeoutMs: 300, statementTimeoutMs: 5_000, holdMs, concurrency: 4, boundMs: 4 * 300 + 1_500 });
    },
    timeout,
  );

  it(
    'past the lock bound and the statement bound, under load (50 callers): the same, and the server stays up',
    async () => {
      // The ledger's writes wait behind the lock and fail past its bound, again and again: the
      // calls must not wait for them, and a write failing must not take the server down.
      await underLock({ name: 'load', lockTimeoutMs: 300, statementTimeoutMs: 1_500, holdMs, concurrency: 50, boundMs: 1_500 + 1_500 });
    },
    timeout,
  );
});
