/**
 * PostgreSQL stops in the middle of the load and comes back. On a cluster of this test's own
 * (started by scripts/engines/postgres.sh on a free port; the shared one is never touched):
 * while it is down every call is answered 503 `retryable: true` with Retry-After, quickly, never
 * 500 and never hanging; once it is up again (same data, same port) the server answers 200 by
 * itself within a bounded time, with no restart; and the ledger lost exactly what the 200s said
 * they charged.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBaseDir, startServer as startEngine, type RunningServer as RunningEngine } from '../../setup/engine-processes.js';
import { badUnavailables, byStatus, describeRun, LOAD_KEY, FIXTURE_PATHS, get, LOAD_AUTH, runLoad, seconds, slowest, SOAK, startFixtureServer, unitsCharged, type Outcome } from './load-kit.js';

const CONCURRENCY = 20;
const BEFORE_MS = seconds(1, 20);
const OUTAGE_MS = seconds(2, 20);
/** Load after the recovery (past its first second, when the rest of the pool reconnects). */
const AFTER_MS = seconds(1, 20);
/** How long the server may take to answer 200 again once PostgreSQL accepts connections. */
const RECOVERY_BOUND_MS = 15_000;
/** No call may take longer than this, outage or not (the pool's connect timeout is 2 s here). */
const CALL_BOUND_MS = 8_000;

let base: Awaited<ReturnType<typeof makeBaseDir>>;
let engine: RunningEngine;
let dataDir: string;
let port: string;

beforeAll(async () => {
  base = await makeBaseDir();
  engine = await startEngine('postgres', base.dir);
  dataDir = join(base.dir, 'postgres');
  port = new URL(engine.url).port;
});

afterAll(async () => {
  await engine?.stop(); // scripts/engines/postgres.sh stop: pg_ctl stop, then the folder goes
  await base?.remove();
});

/**
 * `pg_ctl stop -m fast` / `pg_ctl start` on this test's cluster, as scripts/engines/postgres.sh
 * runs them (the newest installed PostgreSQL, as the postgres user when we are root), the start
 * with the same data directory, port and settings.
 */
function pgCtl(action: 'stop' | 'start'): Promise<void> {
  const args =
    action === 'stop'
      ? `-D "$BASE/data" -m fast -w -t 60 stop`
      : `-D "$BASE/data" -l "$BASE/server.log" -w -t 60 -o "-p $PORT -k $BASE/sock -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start`;
  const script = `set -euo pipefail
    PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)
    as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
    cd /tmp
    as_pg "$PGBIN/pg_ctl" ${args}`;
  return new Promise((resolve, reject) =>
    execFile('bash', ['-c', script], { env: { ...process.env, BASE: dataDir, PORT: port }, timeout: 90_000 }, (error, _stdout, stderr) =>
      error ? reject(new Error(`pg_ctl ${action} failed: ${error.message}\n${stderr}`)) : resolve(),
    ),
  );
}

async function balance(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query('SELECT units_remaining FROM api_keys WHERE id = $1', [LOAD_KEY.id])).rows[0].units_remaining);
  } finally {
    await client.end();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PostgreSQL stops under load and comes back', () => {
  it(
    'retryable 503s while it is down, 200 again by itself once it is up, the ledger exact',
    async () => {
      const server = await startFixtureServer({ engine: 'postgres', url: engine.url, statementTimeoutMs: 5_000, connectTimeoutMs: 2_000 });
      try {
        const before = await balance(engine.url);
        let done = false;
        let upAt = Infinity;
        let recoveredAt = Infinity;
        const load = runLoad({
          base: server.url,
          paths: FIXTURE_PATHS,
          concurrency: CONCURRENCY,
          durationMs: BEFORE_MS + OUTAGE_MS + RECOVERY_BOUND_MS + AFTER_MS + 120_000, // ended by `stop` below
          timeoutMs: 30_000,
          stop: () => done || !server.alive(),
          onOutcome: (o) => {
            if (o.status === 200 && o.started >= upAt && recoveredAt === Infinity) recoveredAt = o.ended;
          },
        });

        await sleep(BEFORE_MS);
        const stoppingAt = Date.now();
        await pgCtl('stop');
        const downAt = Date.now();
        await sleep(OUTAGE_MS);
        const startingAt = Date.now();
        await pgCtl('start');
        upAt = Date.now();
        while (recoveredAt === Infinity && server.alive() && Date.now() - upAt < RECOVERY_BOUND_MS) await sleep(50);
        await sleep(1_000 + AFTER_MS);
        done = true;
        const outcomes = await load;
        const summary = `${describeRun(outcomes)}\nserver stderr: ${server.err().slice(0, 2_000)}`;
        const phase = (from: number, to: number) => outcomes.filter((o) => o.started >= from && o.ended <= to);

        // Throughout: the server stayed up and answered every call 200 or 503 (no 500, no socket
        // error, no timeout), each 503 retryable with Retry-After, none after a long wait.
        expect(server.alive(), summary).toBe(true);
        expect(outcomes.filter((o) => o.status !== 200 && o.status !== 503), summary).toEqual([]);
        expect(badUnavailables(outcomes), summary).toEqual([]);
        expect(slowest(outcomes), summary).toBeLessThan(CALL_BOUND_MS);

        // Before the stop: all 200.
        const healthy = phase(0, stoppingAt);
        expect(healthy.length, summary).toBeGreaterThan(CONCURRENCY);
        expect(byStatus(healthy), summary).toEqual({ 200: healthy.length });
        // While it was down: every call 503, and many of them (the load went on).
        const down = phase(downAt, startingAt);
        expect(down.length, summary).toBeGreaterThan(CONCURRENCY);
        expect(byStatus(down), describeRun(down)).toEqual({ 503: down.length });
        // Back up: a 200 within the bound, without restarting the server...
        expect(recoveredAt - upAt, summary).toBeLessThan(RECOVERY_BOUND_MS);
        // ...and from a moment after it, every call 200 again (no pooled connection left broken).
        const after = phase(recoveredAt + 1_000, Infinity);
        expect(after.length, summary).toBeGreaterThan(CONCURRENCY);
        expect(byStatus(after), describeRun(after)).toEqual({ 200: after.length });
        const single: Outcome = await get(server.url, FIXTURE_PATHS[0]!, { headers: LOAD_AUTH, timeoutMs: 10_000 });
        expect(single.status).toBe(200);

        // The ledger lost exactly what the 200s said they charged: a 503 charged nothing.
        expect(await server.stop()).toBe(0);
        expect(before - (await balance(engine.url)), summary).toBe(unitsCharged([...outcomes, single]));
        console.log(
          `[postgres-outage] ${describeRun(outcomes).slice(0, 120)}; down ${startingAt - downAt} ms: ${down.length} calls, slowest ${slowest(down)} ms; ` +
            `first 200 ${recoveredAt - upAt} ms after the start`,
        );
      } finally {
        await server.stop(2_000);
      }
    },
    BEFORE_MS + OUTAGE_MS + RECOVERY_BOUND_MS + 1_000 + AFTER_MS + (SOAK ? 180_000 : 90_000),
  );
});
