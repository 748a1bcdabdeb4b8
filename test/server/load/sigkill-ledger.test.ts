/**
 * SIGKILL under load: the units ledger against the charges the clients received (issue 28, item 2).
 *
 * On each store (the embedded store, the default; the same served by `serve --workers 2`, whose
 * primary keeps the ledger; PostgreSQL, on a cluster of this test's own), a database seeded once
 * serves a key with a large balance. In each round `serve` starts as a
 * process of its own, twenty clients send a mix of calls priced per request and per line (several
 * operations, several `limit`s, so the charges differ), and at a seeded random moment the process
 * gets SIGKILL. The calls in flight then end with a connection error ("no answer"). The stored
 * balance is read from the database once nothing of the killed process is left in it, and the
 * next round's `serve` must report that same balance (a restart keeps the stored balance of a
 * known key id, whatever the keys file says).
 *
 * What is expected is computed from the client's own records alone, never from the server's code:
 *
 * - spent = what the balance lost; received = the sum of `X-Units-Charged` over the complete 200
 *   answers (status, headers and the whole body, its last byte arrived);
 * - never a charge without an answer: spent ≤ received, exactly;
 * - only the calls in flight may differ, in the client's favour: received − spent ≤ the charges of
 *   the answers whose last byte arrived at most {@link DURABLE_WITHIN_MS} before the kill (or
 *   after it).
 *
 * Both hold per round and over all rounds. Every round is checked before the test fails, so a
 * failure tells how many rounds of how many broke which rule, and for each whether the calls cut
 * off by the kill had already received their headers (an answer cut off mid-body) or not (a charge
 * whose answer was never written).
 *
 * `SIGKILL_SEED=N` replays the kill moments of a run (the seed is printed; the timing of the
 * server is not replayable, so the same seed is not the same run).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadStoreDeps } from '../../../src/server/deps.js';
import { makeBaseDir, startServer as startEngine, type RunningServer as RunningEngine } from '../../setup/engine-processes.js';
import { cliCommand } from '../../helpers/cli-command.js';
import { recordFigures, seconds, SOAK } from './load-kit.js';

/**
 * The durability rule of docs/server.md ("Units"): a charge is written with the store write that
 * follows its answer, which this test bounds by 1 s under load. A kill may lose the charges of
 * answers whose last byte arrived less than this before it (in the client's favour), never an
 * older one.
 */
const DURABLE_WITHIN_MS = 1_000;

const ROOT = new URL('../../..', import.meta.url).pathname;
/** The stores, and the embedded store served by `serve --workers 2` (the primary is what is killed). */
const ENGINES = ['embedded', 'embedded --workers 2', 'postgres'] as const;
type Engine = (typeof ENGINES)[number];
/** Rounds per store: start, load, SIGKILL, read the ledger. */
const ROUNDS = SOAK ? 16 : 2;
/**
 * The kill comes at a random moment of the round's load: more than DURABLE_WITHIN_MS after its
 * first answer (so that there are answers before the window, whose charges must all be stored),
 * at most this much later. The longer the rounds, the smaller a loss the second rule catches: it
 * lets a kill lose the charges of the window's answers, so a server that drops a fraction p of all
 * charges passes rounds shorter than about 1/p seconds (the soak's average ~9 s: p > ~0.1).
 */
const LOAD_MS = seconds(1, 16);
const CONCURRENCY = 20;
/** The sample's size (seed 3): `example.com` and `zenzu.co.uk` are among its targets. */
const LINKS = SOAK ? 20_000 : 1_000;
const NOW = '2026-06-15';
/** The test key: a balance no round can spend, its rate and concurrency limits lifted. */
const KEY = { id: 'sigkill-ledger', key: 'sigkill-ledger-key-0123456789', units: 1_000_000_000_000, rate: 1_000_000_000, concurrency: 1_000_000_000 };
const AUTH = { authorization: `Apikey ${KEY.key}` };
const SEED = Number(process.env['SIGKILL_SEED'] ?? Math.floor(Math.random() * 2 ** 31));

const B = '/_api/apis/v4/backlinks/v1';
const ROOT_DOMAIN = 'url=example.com&scope=ROOT_DOMAIN';
/** Cheap calls (a price per request) and calls priced per line, with limits from 1 to 100. */
const PATHS: readonly string[] = [
  `${B}/overview?${ROOT_DOMAIN}`,
  `${B}/links?${ROOT_DOMAIN}&limit=1`,
  `/_api/apis/v4/keywords/v1/metrics?keyword=seo%20tools&country=US&month=2026-05`,
  `${B}/ref-domains?${ROOT_DOMAIN}&limit=10`,
  `${B}/links?${ROOT_DOMAIN}&limit=7&order_by=domain_score&direction=ASC`,
  `${B}/anchors?${ROOT_DOMAIN}&limit=4`,
  `${B}/overview?url=example.com/news&scope=SUBFOLDER`,
  `${B}/ref-ips?${ROOT_DOMAIN}&limit=3`,
  `${B}/pages?${ROOT_DOMAIN}&limit=6`,
  `${B}/score-profile?${ROOT_DOMAIN}`,
  `${B}/summary?${ROOT_DOMAIN}`,
  `${B}/competitors?domain=example.com&limit=5`,
  `${B}/links?${ROOT_DOMAIN}&limit=100`,
  `/_api/apis/v4/keywords/v1/metrics?keyword=backlink%20checker&country=DE`,
  `${B}/ref-domains?${ROOT_DOMAIN}&limit=50&format=csv`,
  `${B}/comparison?urls=example.com,zenzu.co.uk&scope=ROOT_DOMAIN`,
  `${B}/links?${ROOT_DOMAIN}&limit=20&filter=${encodeURIComponent('domain_score > 10')}`,
];

/** One call as the client saw it. */
interface Call {
  readonly path: string;
  readonly started: number;
  /** When its status line and headers arrived, and what they said. */
  headersAt?: number;
  status?: number;
  charged?: number;
  /** `X-Units-Remaining`: the balance the charge left. */
  remaining?: number;
  /** When its last byte arrived, if the whole body did. */
  lastByteAt?: number;
  /** When the call ended, answered or not. */
  ended?: number;
  error?: string;
}

/** A complete 200 answer: status, headers and the whole body. */
const answered = (call: Call): boolean => call.status === 200 && call.lastByteAt !== undefined;
const sum = (calls: readonly Call[]): number => calls.reduce((total, call) => total + (call.charged ?? 0), 0);

/** One GET; records into `call` as it goes; resolves when it has ended, never rejects. */
function send(base: string, call: Call, agent: Agent): Promise<void> {
  return new Promise((resolve) => {
    const end = (error?: string) => {
      if (call.ended !== undefined) return;
      call.ended = Date.now();
      if (error !== undefined) call.error = error;
      resolve();
    };
    const req = httpRequest(`${base}${call.path}`, { headers: AUTH, agent }, (res) => {
      call.headersAt = Date.now();
      call.status = res.statusCode ?? 0;
      const charged = res.headers['x-units-charged'];
      if (charged !== undefined) call.charged = Number(charged);
      const remaining = res.headers['x-units-remaining'];
      if (remaining !== undefined) call.remaining = Number(remaining);
      const length = Number(res.headers['content-length'] ?? NaN);
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('error', (error) => end(`body: ${error.message}`));
      res.on('aborted', () => end('body: aborted'));
      res.on('end', () => {
        // A body cut off by the kill is no answer, whatever Node makes of its end.
        if (!res.complete || (Number.isFinite(length) && bytes !== length)) return end(`body cut off at ${bytes} of ${length} bytes`);
        call.lastByteAt = Date.now();
        end();
      });
    });
    req.setTimeout(30_000, () => (end('no answer within 30 s'), req.destroy()));
    req.on('error', (error) => end(`${(error as NodeJS.ErrnoException).code ?? ''} ${error.message}`.trim()));
    req.end();
  });
}

/** mulberry32: the kill moments, from {@link SEED}. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const dir = mkdtempSync(join(tmpdir(), 'bq-sigkill-ledger-'));
const keysFile = join(dir, 'keys.json');
const sqliteFile = join(dir, 'ledger.db');
writeFileSync(keysFile, JSON.stringify([KEY]));
const children = new Set<ChildProcess>();
let pgBase: Awaited<ReturnType<typeof makeBaseDir>> | undefined;
let pgEngine: RunningEngine | undefined;

/** The CLI (test/helpers/cli-command.ts) in the repository. */
function cli(args: readonly string[]) {
  const child = spawn(process.execPath, [...cliCommand(), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => (children.delete(child), resolve({ code, signal }))),
  );
  return { child, exit, out: () => stdout, err: () => stderr };
}

async function seed(store: string[]): Promise<void> {
  const run = cli(['seed', '--links', String(LINKS), '--seed', '3', '--now', NOW, ...store]);
  const { code } = await run.exit;
  if (code !== 0) throw new Error(`seed ${store.join(' ')} exited ${code}:\n${run.err()}`);
}

/** Each store's `serve` arguments, once its database is seeded. */
const stores: Partial<Record<Engine, Promise<string[]>>> = {};

beforeAll(() => {
  // Both seeds at once; each test waits for its own, so a failure lands on the store it is about.
  stores.embedded = seed(['--db', sqliteFile]).then(() => ['--db', sqliteFile]);
  const workersFile = join(dir, 'ledger-workers.db');
  stores['embedded --workers 2'] = seed(['--db', workersFile]).then(() => ['--db', workersFile, '--workers', '2']);
  stores.postgres = (async () => {
    pgBase = await makeBaseDir();
    // scripts/engines/postgres.sh start: fails, with the server's log, when it cannot start.
    pgEngine = await startEngine('postgres', pgBase.dir);
    await seed(['--database-url', pgEngine.url]);
    return ['--database-url', pgEngine.url];
  })();
  for (const ready of Object.values(stores)) ready.catch(() => {}); // reported by the test that awaits it
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await pgEngine?.stop();
  await pgBase?.remove();
  rmSync(dir, { recursive: true, force: true });
});

/** `serve` on the store, up and listening. */
async function serve(store: readonly string[]) {
  const run = cli(['serve', '--port', '0', '--keys', keysFile, '--now', NOW, '--quiet', ...store]);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not listen within 120 s:\n${run.err()}`)), 120_000);
    run.child.stdout!.on('data', () => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(run.out());
      if (match) clearTimeout(timer), resolve(match[1]!);
    });
    void run.exit.then(({ code, signal }) => (clearTimeout(timer), reject(new Error(`serve exited (${code ?? signal}) before listening:\n${run.err()}`))));
  });
  return { ...run, url };
}

/** The key's balance as the balance endpoint reports it. */
async function balanceShown(base: string): Promise<number> {
  const response = await fetch(`${base}/_api/apis/v4/units/v1/balance`, { headers: AUTH });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`balance: ${response.status} ${text}`);
  return (JSON.parse(text) as { data: { units_remaining: number } }).data.units_remaining;
}

/**
 * The key's balance as stored, read from the database once the killed process has nothing left
 * in it: on PostgreSQL a statement it sent just before it died may still run (and commit) after
 * its death, so the read waits until no other session is connected to the database (and tells
 * `onLateCharges` what was charged meanwhile, after the process had died).
 */
async function balanceStored(engine: Engine, store: readonly string[], onLateCharges?: (units: number) => void): Promise<number> {
  if (engine !== 'postgres') {
    const { Database } = await loadStoreDeps();
    // Read-write: the killed process left its WAL behind, which the first connection recovers.
    const handle = new Database(store[1]!, { fileMustExist: true });
    try {
      return (handle.prepare('SELECT units_remaining FROM api_keys WHERE id = ?').get(KEY.id) as { units_remaining: number }).units_remaining;
    } finally {
      handle.close();
    }
  }
  const client = new pg.Client({ connectionString: store[1]! });
  await client.connect();
  try {
    const read = async () => Number((await client.query('SELECT units_remaining FROM api_keys WHERE id = $1', [KEY.id])).rows[0].units_remaining);
    const others = async () =>
      Number((await client.query('SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')).rows[0].n);
    const atDeath = await read();
    const deadline = Date.now() + 30_000;
    while ((await others()) > 0) {
      if (Date.now() > deadline) throw new Error('the killed server still has sessions on the database after 30 s');
      await sleep(20);
    }
    const balance = await read();
    onLateCharges?.(atDeath - balance);
    return balance;
  } finally {
    await client.end();
  }
}

/** One round's account. */
interface Round {
  round: number;
  /** How long `serve` took to listen. */
  startMs: number;
  /** From the first call to the kill. */
  loadMs: number;
  calls: number;
  answers: number;
  noAnswer: number;
  /** Calls started and not ended when the kill was sent. */
  inFlight: number;
  /** Calls cut off by the kill after their headers (and charge) had arrived. */
  cutOffMidBody: number;
  cutOffCharges: number;
  received: number;
  spent: number;
  /**
   * The server's own evidence, from its `X-Units-Remaining`: the lowest balance an answer reported,
   * minus the stored balance, is what the charges taken after that one's took, and none of them
   * was answered (a charge without an answer when above zero).
   */
  chargedAfterLastAnswer: number;
  /** Of `spent`, what PostgreSQL committed after the process had died (statements it had sent). */
  chargedAfterDeath: number;
  /** The charges of answers whose last byte arrived within DURABLE_WITHIN_MS of the kill, or after it. */
  recent: number;
  byStatus: Record<string, number>;
  errors: string[];
}

/**
 * Loads a running `serve` and kills it with SIGKILL `killAfterMs` after its first answer (so the
 * kill comes under load however slowly the server warms up); every call's record.
 */
async function loadAndKill(server: Awaited<ReturnType<typeof serve>>, killAfterMs: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const calls: Call[] = [];
  let killing = false;
  let firstAnswer!: () => void;
  const answering = new Promise<void>((resolve) => (firstAnswer = resolve));
  const loop = async (offset: number) => {
    for (let i = offset; !killing; i++) {
      const call: Call = { path: PATHS[i % PATHS.length]!, started: Date.now() };
      calls.push(call);
      await send(server.url, call, agent);
      if (answered(call)) firstAnswer();
    }
  };
  const loops = Promise.all(Array.from({ length: CONCURRENCY }, (_, c) => loop(c * 7)));
  let noAnswer: NodeJS.Timeout | undefined;
  const exitedEarly = await Promise.race([
    answering.then(() => sleep(killAfterMs)).then(() => false),
    server.exit.then(() => true),
    new Promise<boolean>((resolve) => (noAnswer = setTimeout(() => resolve(true), 60_000))), // reported by the caller
  ]);
  clearTimeout(noAnswer);
  killing = true; // no call starts after this
  const inFlight = calls.filter((c) => c.ended === undefined).length;
  const killAt = Date.now();
  server.child.kill('SIGKILL');
  const exit = await server.exit;
  await loops;
  agent.destroy();
  return { calls, killAt, inFlight, exit, exitedEarly };
}

describe('SIGKILL under load: the units ledger', () => {
  for (const engine of ENGINES) {
    it(
      `${engine}: ${ROUNDS} rounds killed at random moments; never a charge without an answer, only the calls in flight may differ`,
      async () => {
        const ready = stores[engine];
        if (!ready) throw new Error(`the ${engine} store was not prepared`);
        const store = await ready; // throws, loudly, when seeding or the PostgreSQL server failed
        const next = random(SEED + ENGINES.indexOf(engine));
        const rounds: Round[] = [];
        let stored = KEY.units;
        for (let r = 1; r <= ROUNDS; r++) {
          const starting = Date.now();
          const server = await serve(store);
          const startMs = Date.now() - starting;
          let killed: Awaited<ReturnType<typeof loadAndKill>>;
          try {
            // The restart kept the stored balance (round 1: the key is new, it gets the file's units).
            expect(await balanceShown(server.url), `round ${r}: serve started on a stored balance of ${stored} reports another`).toBe(stored);
            killed = await loadAndKill(server, DURABLE_WITHIN_MS + 200 + Math.round(LOAD_MS * next()));
          } finally {
            server.child.kill('SIGKILL');
          }
          const { calls, killAt, inFlight, exit, exitedEarly } = killed;
          const early = `round ${r}: serve exited by itself, or gave no answer within 60 s, before the kill (${JSON.stringify(exit)}; ${calls.length} calls: ${JSON.stringify(calls.slice(0, 3))})`;
          expect(exitedEarly, `${early}:\n${server.err()}`).toBe(false);
          expect(exit.signal, `round ${r}: ${server.err()}`).toBe('SIGKILL');
          const before = stored;
          let chargedAfterDeath = 0;
          stored = await balanceStored(engine, store, (units) => (chargedAfterDeath = units));

          const answers = calls.filter(answered);
          const cutOff = calls.filter((c) => !answered(c) && c.charged !== undefined);
          const byStatus: Record<string, number> = {};
          for (const call of calls) {
            const label = answered(call) ? String(call.status) : call.status === undefined ? 'no answer' : `${call.status}, cut off`;
            byStatus[label] = (byStatus[label] ?? 0) + 1;
          }
          rounds.push({
            round: r,
            startMs,
            loadMs: killAt - calls[0]!.started,
            calls: calls.length,
            answers: answers.length,
            noAnswer: calls.length - answers.length,
            inFlight,
            cutOffMidBody: cutOff.length,
            cutOffCharges: sum(cutOff),
            received: sum(answers),
            spent: before - stored,
            chargedAfterLastAnswer: answers.reduce((least, c) => Math.min(least, c.remaining ?? Infinity), before) - stored,
            chargedAfterDeath,
            recent: sum(answers.filter((c) => c.lastByteAt! >= killAt - DURABLE_WITHIN_MS)),
            byStatus,
            errors: [...new Set(calls.filter((c) => c.error !== undefined).map((c) => c.error!))].slice(0, 5),
          });
          // Every complete 200 said what it cost; nothing else claimed a charge.
          expect(answers.filter((c) => c.charged === undefined), `round ${r}: 200 answers without X-Units-Charged`).toEqual([]);
          expect(calls.filter((c) => c.status !== undefined && c.status !== 200 && c.charged !== undefined), `round ${r}: errors with X-Units-Charged`).toEqual([]);
        }

        const received = rounds.reduce((total, round) => total + round.received, 0);
        const spent = KEY.units - stored;
        const allowed = rounds.reduce((total, round) => total + round.recent, 0);
        const withoutAnswer = rounds.filter((round) => round.spent > round.received);
        const lostBeyondWindow = rounds.filter((round) => round.received - round.spent > round.recent);
        const figures = {
          seed: SEED,
          rounds: rounds.length,
          kills: rounds.length,
          calls: rounds.reduce((total, round) => total + round.calls, 0),
          answers: rounds.reduce((total, round) => total + round.answers, 0),
          no_answer: rounds.reduce((total, round) => total + round.noAnswer, 0),
          in_flight_at_kills: rounds.reduce((total, round) => total + round.inFlight, 0),
          cut_off_mid_body: rounds.reduce((total, round) => total + round.cutOffMidBody, 0),
          units_received: received,
          units_spent: spent,
          units_difference: received - spent,
          units_charged_after_death: rounds.reduce((total, round) => total + round.chargedAfterDeath, 0),
          rounds_charged_without_answer: withoutAnswer.length,
          rounds_lost_beyond_window: lostBeyondWindow.length,
        };
        recordFigures(`sigkill ledger (${engine})`, figures);
        const account = `SIGKILL_SEED=${SEED}; ${JSON.stringify(figures)}\nrounds:\n${rounds.map((round) => JSON.stringify(round)).join('\n')}`;

        // The test means something only if the kills came under load, with calls in flight.
        for (const round of rounds) {
          expect(round.inFlight, `round ${round.round}: too few calls in flight at the kill\n${account}`).toBeGreaterThanOrEqual(CONCURRENCY / 2);
          // ...and with answers older than the window, whose charges no kill may lose.
          expect(round.received - round.recent, `round ${round.round}: no answer before the last ${DURABLE_WITHIN_MS} ms\n${account}`).toBeGreaterThan(0);
        }
        // Never a charge without an answer: in no round, nor over all of them.
        expect(
          withoutAnswer.map((round) => ({
            round: round.round,
            charged_without_answer: round.spent - round.received,
            // The server's X-Units-Remaining agrees: charged after the last answer's charge.
            charged_after_last_answer: round.chargedAfterLastAnswer,
            // An answer cut off after its headers charged at most this; beyond it, an answer never written.
            cut_off_mid_body_charges: round.cutOffCharges,
          })),
          `charges without an answer (spent > received)\n${account}`,
        ).toEqual([]);
        expect(spent, account).toBeLessThanOrEqual(received);
        // Only the calls in flight may differ: what a kill may lose is the charges of the answers
        // of its last DURABLE_WITHIN_MS, per round and over all rounds.
        expect(
          lostBeyondWindow.map((round) => ({ round: round.round, lost: round.received - round.spent, allowed: round.recent })),
          `charges lost beyond the last ${DURABLE_WITHIN_MS} ms before a kill (received - spent > recent)\n${account}`,
        ).toEqual([]);
        expect(received - spent, account).toBeLessThanOrEqual(allowed);
      },
      (SOAK ? 600_000 : 300_000) + ROUNDS * (LOAD_MS + 60_000),
    );
  }
});
