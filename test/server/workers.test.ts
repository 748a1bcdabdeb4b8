/**
 * `serve --workers 2` as a user runs it: one primary and two worker processes on one port. The
 * limits and the units of a key hold across the processes (issue 28, item 3), a worker that dies
 * is replaced, SIGTERM stops every process after writing the charges, and a killed primary takes
 * its workers with it.
 *
 * Expected values come from the interface (overview costs 45 units per request) and from the
 * keys written here; which process answered a call is read from its request log line (`pid`), so
 * each test shows that both workers served.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli, waitFor } from './support/cli-process.js';
import { BASE } from './support/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'bq-workers-'));
const db = join(dir, 'sample.db');
const running: ReturnType<typeof spawnCli>[] = [];
afterAll(() => {
  for (const serve of running) serve.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

beforeAll(async () => {
  const seed = spawnCli(['seed', '--links', '1500', '--seed', '3', '--db', db, '--now', '2026-06-15']);
  expect(await seed.exit).toBe(0);
}, 120_000);

/** Starts `serve --workers 2` on the sample with `keys`; resolves once the banner is complete. */
async function serveWorkers(keys: object[]) {
  const keysFile = join(dir, `keys-${running.length}.json`);
  writeFileSync(keysFile, JSON.stringify(keys));
  const serve = spawnCli(['serve', '--port', '0', '--db', db, '--now', '2026-06-15', '--workers', '2', '--keys', keysFile]);
  running.push(serve);
  const [, url] = await waitFor(serve.out, /listening on (http:\/\/127\.0\.0\.1:\d+)\n/, serve.exit);
  await waitFor(serve.out, /Stop: Ctrl\+C/, serve.exit);
  return { ...serve, url: url! };
}

/** The request log lines: which process answered which status. */
function answeredBy(out: string): { pid: number; status: number }[] {
  return requestLines(out).map(({ pid, status }) => ({ pid, status }));
}

/** Every request log line, whole. */
function requestLines(out: string): { pid: number; status: number; key_id: string | null; operation: string | null; units: number; abandoned?: string }[] {
  return out
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as ReturnType<typeof requestLines>[number]);
}

/**
 * An overview call on a raw connection of its own whose client closes its side (FIN, as an aborted
 * `fetch` does) as soon as it has sent it; resolves to the status of the whole answer received
 * before the server closed, or undefined when none arrived.
 */
function leavingCall(url: string, key: string): Promise<number | undefined> {
  const { hostname, port, host } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.write(`GET ${BASE}/overview?url=example.com&scope=ROOT_DOMAIN HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Apikey ${key}\r\nConnection: close\r\n\r\n`);
  socket.end();
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  return new Promise((resolve, reject) => {
    socket.on('error', reject);
    socket.on('close', () => {
      const end = received.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(received.slice(0, Math.max(end, 0)));
      const whole = end >= 0 && length !== null && Buffer.byteLength(received.slice(end + 4), 'latin1') >= Number(length[1]);
      resolve(whole ? Number(/^HTTP\/1\.1 (\d{3})/.exec(received)![1]) : undefined);
    });
  });
}

/** The balance endpoint's status for `key`. */
const balanceStatus = async (url: string, key: string) => (await fetch(`${url}/_api/apis/v4/units/v1/balance`, { headers: { authorization: `Apikey ${key}` } })).status;

/**
 * One overview call on a connection of its own: the primary hands each new connection to the
 * next worker in turn, so calls at once reach both.
 */
const overview = (url: string, key: string) =>
  new Promise<{ status: number; remaining: string | undefined }>((resolve, reject) => {
    const request = get(`${url}${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`, { agent: false, headers: { authorization: `Apikey ${key}` } }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode!, remaining: response.headers['x-units-remaining'] as string | undefined }));
    });
    request.on('error', reject);
  });

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(condition: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `serve --workers 2` with a key of ample limits, after calls that both workers answered; their pids. */
async function servingOnBoth() {
  const serve = await serveWorkers([{ id: 'k', key: 'k-key-0123456789', units: 1_000_000, rate: 100, concurrency: 100 }]);
  await Promise.all(Array.from({ length: 6 }, () => overview(serve.url, 'k-key-0123456789')));
  await until(() => answeredBy(serve.out()).length >= 6, 'the log lines');
  const workers = [...new Set(answeredBy(serve.out()).map((line) => line.pid))];
  expect(workers).toHaveLength(2);
  return { serve, workers };
}

describe('serve --workers 2', () => {
  it('holds a key to its rate across the processes: 4 per second means 4 of 12 calls at once', async () => {
    const serve = await serveWorkers([{ id: 'rated', key: 'rated-key-0123456789', units: 1_000_000, rate: 4, concurrency: 100 }]);
    const answers = await Promise.all(Array.from({ length: 12 }, () => overview(serve.url, 'rated-key-0123456789')));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, ...Array(8).fill(429)]);
    await until(() => answeredBy(serve.out()).length >= 12, 'the 12 log lines');
    // Both workers took calls: a limit kept per process would have let 8 through.
    expect(new Set(answeredBy(serve.out()).map((line) => line.pid)).size).toBe(2);
    serve.child.kill('SIGTERM');
    expect(await serve.exit).toBe(0);
  }, 120_000);

  it('holds a key to its units across the processes, and SIGTERM writes every charge before it exits', async () => {
    // 200 units pay for 4 overviews (45 each); the other 6 of 10 calls at once are refused.
    const serve = await serveWorkers([{ id: 'small', key: 'small-key-0123456789', units: 200, rate: 100, concurrency: 100 }]);
    const answers = await Promise.all(Array.from({ length: 10 }, () => overview(serve.url, 'small-key-0123456789')));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, ...Array(6).fill(402)]);
    // One ledger: each charge saw the ones before it.
    expect(answers.filter((a) => a.status === 200).map((a) => a.remaining).sort()).toEqual(['110', '155', '20', '65']);
    await until(() => answeredBy(serve.out()).length >= 10, 'the 10 log lines');
    expect(new Set(answeredBy(serve.out()).map((line) => line.pid)).size).toBe(2);
    serve.child.kill('SIGTERM');
    expect(await serve.exit).toBe(0);
    expect(serve.err()).toContain('Server closed; database closed.');
    const file = new Database(db, { readonly: true });
    const stored = file.prepare(`SELECT units_remaining FROM api_keys WHERE id = 'small'`).get();
    file.close();
    expect(stored).toEqual({ units_remaining: 20 });
  }, 120_000);

  it('gives back the slot of every call whose client left, once its work ends, and logs each with 499 (issue 48)', async () => {
    // 20 at once: the 20 calls abandoned below all fit, and so do 20 more once they have ended.
    const key = 'leaving-key-0123456789';
    const serve = await serveWorkers([{ id: 'leaving', key, units: 1_000_000, rate: 1000, concurrency: 20 }]);
    // Clients that leave as soon as they have sent: most while the worker waits for the primary
    // (their admission), some perhaps while the query runs; one may still get its answer first.
    // Whichever way each call goes, what follows holds; at least one must have left, or nothing
    // here was abandoned.
    const received = await Promise.all(Array.from({ length: 20 }, () => leavingCall(serve.url, key)));
    expect(received).toContain(undefined);
    // Each call logs one line once its work has ended: 499 for a client that left before its
    // answer (docs/server.md, "Calls abandoned by the client"), 200 for one that got it whole.
    const lines = () => requestLines(serve.out()).filter((line) => line.key_id === 'leaving');
    await until(() => lines().length >= 20, "the 20 calls' log lines");
    const expected = received.map((status) => status ?? 499).sort();
    expect(lines().map((line) => line.status).sort()).toEqual(expected);
    const left = expected.filter((status) => status === 499).length;
    expect(lines().filter((line) => line.status === 499).map(({ operation, units }) => ({ operation, units }))).toEqual(Array(left).fill({ operation: 'overview', units: 0 }));
    // Every slot is free again: 20 calls at once are all admitted, and the free balance endpoint answers.
    const after = await Promise.all(Array.from({ length: 20 }, () => overview(serve.url, key)));
    expect(after.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(await balanceStatus(serve.url, key)).toBe(200);
    // One line per call and no more: the 20 that left, the 20 after them, the balance's.
    await until(() => lines().length >= 41, 'the 41 log lines');
    expect(lines().map((line) => line.status).sort()).toEqual([...expected, ...Array(21).fill(200)].sort());
    expect(new Set(requestLines(serve.out()).map((line) => line.pid)).size).toBe(2);
    serve.child.kill('SIGTERM');
    expect(await serve.exit).toBe(0);
  }, 120_000);

  it('replaces a worker that dies, and stops every process on SIGTERM', async () => {
    const { serve, workers } = await servingOnBoth();
    process.kill(workers[0]!, 'SIGKILL');
    await waitFor(serve.err, new RegExp(`Worker ${workers[0]} exited \\(SIGKILL\\); starting another\\.`), serve.exit);
    const [, replacing] = await waitFor(serve.err, new RegExp(`Worker (\\d+) listening in place of ${workers[0]}\\.`), serve.exit);
    // Calls go on being answered, by the survivor and the new worker.
    const seen = new Set<number>();
    for (let i = 0; i < 40 && seen.size < 2; i++) {
      const before = answeredBy(serve.out()).length;
      expect((await overview(serve.url, 'k-key-0123456789')).status).toBe(200);
      await until(() => answeredBy(serve.out()).length > before, 'the log line');
      seen.add(answeredBy(serve.out()).at(-1)!.pid);
    }
    expect(seen.has(workers[1]!)).toBe(true);
    const replacement = Number(replacing);
    expect(seen).toEqual(new Set([workers[1], replacement]));
    serve.child.kill('SIGTERM');
    expect(await serve.exit).toBe(0);
    await until(() => !alive(workers[1]!) && !alive(replacement), 'the workers to exit', 5_000);
  }, 120_000);

  it('stops the workers when the primary is killed', async () => {
    const { serve, workers } = await servingOnBoth();
    serve.child.kill('SIGKILL');
    await until(() => workers.every((pid) => !alive(pid)), 'the workers to exit');
  }, 120_000);

  it('needs a database the processes share', async () => {
    const serve = spawnCli(['serve', '--workers', '2', '--port', '0']);
    expect(await serve.exit).toBe(2);
    expect(serve.err()).toContain('--workers needs a database the processes share');
  });
});
