/**
 * Bad days on the ClickHouse cluster (issue 52): a shard that is down, or that dies while a call
 * waits on it, makes the call answer 503 with Retry-After in the service's error envelope, quickly:
 * never a 500, a hang, or a wrong or partial answer. Once the shard is back, the same server
 * answers right again by itself. A load that loses a shard fails naming the shard; the same load
 * run again once the shard is back gives the answers of a clean load (links and domains are
 * ReplacingMergeTree rows: those written twice count once).
 *
 * On a two-shard cluster of this file's own (scripts/engines/clickhouse.sh cluster-start in a
 * folder under a reaper; the shared test cluster is never touched), whose shards it stops and
 * starts again on their data and ports (`shard-stop K`, `shard-start K`), or freezes and kills
 * (SIGSTOP, then SIGKILL: a crash with the call's request in flight). The server is a real one on
 * a loopback port, spoken to over HTTP. Every scenario opens a new store and server on the
 * database (nothing read ahead). Which shard holds a target is read from the shards' own tables.
 * Expected answers are the fixture's, worked out by hand (test/server/http/operations.test.ts and
 * csv.test.ts derive the same numbers from test/server/support/fixture.ts).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadServerDeps } from '../../../../../src/server/deps.js';
import { createServer } from '../../../../../src/server/server.js';
import { isStoreUnavailable } from '../../../../../src/server/store/connection.js';
import { openClickhouseStore, type ClickhouseStore } from '../../../../../src/server/store/engines/clickhouse/clickhouse-store.js';
import { openLedgerAt } from '../../../../../src/server/store/open.js';
import { makeBaseDir, runScript, startServer as startEngine, type RunningServer as RunningEngine } from '../../../../setup/engine-processes.js';
import { KEYS, loadFixture, NOW } from '../../../support/fixture.js';

const BASE = '/_api/apis/v4/backlinks/v1';
const AUTH = { authorization: `Apikey ${KEYS[0].key}` };
/** No call may take longer, shard down or not (a read's bound is 5 s; a refused connection fails at once). */
const CALL_BOUND_MS = 10_000;
const TARGETS = ['example.com', 'rival.com', 'other.co.uk', 'third.com', 'boundary.com'] as const;
type TargetName = (typeof TARGETS)[number];

let base: Awaited<ReturnType<typeof makeBaseDir>>;
let engine: RunningEngine;
let clusterDir: string;
let urls: string[];
let ledgerDir: string;
const database = `bq_bad_days_${Math.random().toString(36).slice(2, 10)}`;
/** The shard (1 or 2) of each target, read from the shards' tables after the clean load. */
const shardOf = new Map<string, number>();
/** Pids frozen with SIGSTOP and not yet killed (thawed at the end whatever happens). */
const frozen = new Set<number>();

// ---- what is right, by hand ---------------------------------------------------------------------

interface Check {
  readonly name: string;
  readonly path: string;
  /** The targets whose shards the call reads. */
  readonly needs: readonly TargetName[];
  /** The part of a 200 answer that is compared. */
  project(body: any): unknown;
  readonly expected: unknown;
}

const counts = (body: any) => {
  const { backlinks_count, domains_count, nofollows_count, new_count, lost_count } = body.data;
  return { backlinks_count, domains_count, nofollows_count, new_count, lost_count };
};

const CHECKS: readonly Check[] = [
  {
    name: 'overview of example.com',
    path: 'overview?url=example.com&scope=ROOT_DOMAIN',
    needs: ['example.com'],
    project: (body) => body.data,
    // L1-L7: 5 referring domains, 6 source pages, L2-L4 nofollow, L4 sponsored, L3 ugc, L6 frame,
    // L7 form, L5 image; 5 IPs in 3 class-C nets; L3 and L6 new, L4 and L7 lost; example.com's score.
    expected: { backlinks_count: 7, domains_count: 5, urls_count: 6, follows_count: 4, nofollows_count: 3, sponsored_count: 1, ugc_count: 1,
      frames_count: 1, forms_count: 1, images_count: 1, texts_count: 6, ips_count: 5, ip_class_c_count: 3, new_count: 2, lost_count: 2, score: 70 },
  },
  { name: 'overview of rival.com', path: 'overview?url=rival.com&scope=ROOT_DOMAIN', needs: ['rival.com'], project: counts,
    expected: { backlinks_count: 6, domains_count: 6, nofollows_count: 1, new_count: 0, lost_count: 0 } },
  { name: 'overview of other.co.uk', path: 'overview?url=other.co.uk&scope=ROOT_DOMAIN', needs: ['other.co.uk'], project: counts,
    expected: { backlinks_count: 9, domains_count: 9, nofollows_count: 0, new_count: 0, lost_count: 0 } },
  { name: 'overview of third.com', path: 'overview?url=third.com&scope=ROOT_DOMAIN', needs: ['third.com'], project: counts,
    expected: { backlinks_count: 4, domains_count: 4, nofollows_count: 0, new_count: 0, lost_count: 0 } },
  // B2, B3 and B4 are new (at or after 2026-05-16T12:00:00), B1 a second too early.
  { name: 'overview of boundary.com', path: 'overview?url=boundary.com&scope=ROOT_DOMAIN', needs: ['boundary.com'], project: counts,
    expected: { backlinks_count: 4, domains_count: 4, nofollows_count: 0, new_count: 3, lost_count: 0 } },
  {
    name: 'links of example.com',
    path: 'links?url=example.com&scope=ROOT_DOMAIN',
    needs: ['example.com'],
    project: (body) => ({ total: body.meta.total, sources: body.data.map((row: { source_url: string }) => row.source_url).sort() }),
    expected: { total: 7, sources: ['https://alpha.org/post-1', 'https://alpha.org/post-2', 'https://beta.net/links', 'https://delta.de/a;b', 'https://epsilon.fr/',
      'https://gamma.io/review', 'https://gamma.io/review'] },
  },
  {
    name: 'ref-domains of example.com',
    path: 'ref-domains?url=example.com&scope=ROOT_DOMAIN&order_by=domain&direction=ASC',
    needs: ['example.com'],
    project: (body) => body.data.map((row: { domain: string; backlinks_count: number }) => [row.domain, row.backlinks_count]),
    expected: [['alpha.org', 2], ['beta.net', 1], ['delta.de', 1], ['epsilon.fr', 1], ['gamma.io', 2]],
  },
  {
    name: 'matrix of example.com and rival.com',
    path: 'matrix?urls=example.com,rival.com&scope=ROOT_DOMAIN',
    needs: ['example.com', 'rival.com'],
    project: (body) => ({ total: body.meta.total, rows: body.data }),
    expected: {
      total: 6,
      rows: [
        { domain: 'alpha.org', domain_score: 60, ip_address: '198.51.100.1', country: 'US', matches_count: 2, backlinks_counts: [2, 1] },
        { domain: 'beta.net', domain_score: 60, ip_address: '198.51.100.7', country: 'US', matches_count: 2, backlinks_counts: [1, 1] },
        { domain: 'delta.de', domain_score: 25, ip_address: '192.0.2.44', country: 'DE', matches_count: 2, backlinks_counts: [1, 1] },
        { domain: 'epsilon.fr', domain_score: 15, ip_address: '192.0.2.45', country: 'FR', matches_count: 2, backlinks_counts: [1, 1] },
        { domain: 'gamma.io', domain_score: 80, ip_address: '203.0.113.5', country: 'DE', matches_count: 2, backlinks_counts: [2, 1] },
        { domain: 'zeta.com', domain_score: 55, ip_address: '198.51.100.20', country: 'NL', matches_count: 1, backlinks_counts: [0, 1] },
      ],
    },
  },
  {
    // rival.com: 5 shared of 6 referring domains in all; other.co.uk: 5 of 9; third.com shares 4 (too few).
    name: 'competitors of example.com',
    path: 'competitors?domain=example.com',
    needs: [...TARGETS],
    project: (body) => ({ total: body.meta.total, rows: body.data }),
    expected: { total: 2, rows: [{ domain: 'rival.com', similarity: 5 / 6, common_refdomains: 5 }, { domain: 'other.co.uk', similarity: 5 / 9, common_refdomains: 5 }] },
  },
];

// ---- the cluster, the store, the server ----------------------------------------------------------

const script = (...args: string[]) => runScript('clickhouse.sh', args, { BQ_CLICKHOUSE_DIR: clusterDir });
const pidOf = (shard: number) => Number(readFileSync(join(clusterDir, `shard${shard}`, 'ch.pid'), 'utf8').trim());
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Runs SQL on one shard (1 or 2) over HTTP; the answer's text. */
async function onShard(shard: number, text: string): Promise<string> {
  const response = await fetch(`${urls[shard - 1]}/`, { method: 'POST', body: text, signal: AbortSignal.timeout(30_000) });
  const body = await response.text();
  if (!response.ok) throw new Error(`shard ${shard}: ${body}`);
  return body.trim();
}

async function openStore(name: string): Promise<ClickhouseStore> {
  const { tldts } = await loadServerDeps();
  return openClickhouseStore({ urls, database: name, parser: tldts, ledger: await openLedgerAt({ kind: 'sqlite', file: join(ledgerDir, `${name}.db`) }) });
}

interface Served {
  readonly store: ClickhouseStore;
  readonly app: FastifyInstance;
  readonly origin: string;
  close(): Promise<void>;
}

/** A server on a loopback port over a store of `name` (a new store: nothing read ahead). */
async function serve(name = database, store?: ClickhouseStore): Promise<Served> {
  const opened = store ?? (await openStore(name));
  const app = await createServer({ store: opened, keys: KEYS, now: () => NOW, rateLimits: { perSecond: 1_000_000, concurrent: 1_000_000 } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { store: opened, app, origin: `http://127.0.0.1:${port}`, close: async () => (await app.close(), await opened.close()) };
}

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: any;
  readonly ms: number;
}

async function call(served: Served, path: string): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(`${served.origin}${BASE}/${path}`, { headers: AUTH, signal: AbortSignal.timeout(60_000) });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* compared below as text */
  }
  return { status: response.status, headers: response.headers, body, ms: performance.now() - started };
}

function expectRight(check: Check, answer: Answer): void {
  expect(answer.status, `${check.name}: ${JSON.stringify(answer.body).slice(0, 500)}`).toBe(200);
  expect(check.project(answer.body), check.name).toEqual(check.expected);
}

/** The retryable 503 of the error envelope, with Retry-After, answered within the bound. */
function expectUnavailable(check: Check, answer: Answer, ms = answer.ms): void {
  expect(answer.status, `${check.name}: ${JSON.stringify(answer.body).slice(0, 500)}`).toBe(503);
  expect(answer.headers.get('retry-after'), check.name).toMatch(/^[1-9][0-9]*$/);
  expect(answer.body, check.name).toEqual({
    meta: { request_id: answer.headers.get('x-request-id'), status_code: 503, success: false },
    error: {
      type: expect.stringMatching(/#unavailable$/),
      code: 503,
      message: 'The database cannot answer right now; retry shortly.',
      retryable: true,
      details: [{ rule: 'store_unavailable', message: expect.any(String) }],
    },
  });
  expect(ms, check.name).toBeLessThan(CALL_BOUND_MS);
}

/**
 * Every check with shard `down` out of reach: 503 for a call that reads it, and for any other
 * call 503 or the right answer (never a 500, a hang, or a wrong or partial answer).
 */
async function expectWhileDown(served: Served, down: number): Promise<void> {
  for (const check of CHECKS) {
    const answer = await call(served, check.path);
    if (check.needs.some((target) => shardOf.get(target) === down)) expectUnavailable(check, answer);
    else if (answer.status === 503) expectUnavailable(check, answer);
    else expectRight(check, answer);
  }
}

/** How soon after a shard is back the server answers from it again, by itself. */
const RECOVERY_BOUND_MS = 15_000;

/**
 * Every check answered right. The first one is asked again until it is (a 503 meanwhile, while the
 * server finds the shard again), within the recovery bound.
 */
async function expectAllRight(served: Served): Promise<void> {
  const [first, ...rest] = CHECKS;
  const until = performance.now() + RECOVERY_BOUND_MS;
  for (let answer = await call(served, first!.path); answer.status !== 200; answer = await call(served, first!.path)) {
    expectUnavailable(first!, answer);
    expect(performance.now(), 'the server should answer right again soon after the shard is back').toBeLessThan(until);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  for (const check of [first!, ...rest]) expectRight(check, await call(served, check.path));
}

/** Kills a frozen shard (SIGKILL) and waits until its process is gone. */
async function kill(pid: number): Promise<void> {
  process.kill(pid, 'SIGKILL');
  frozen.delete(pid);
  await expect.poll(() => alive(pid), { timeout: 15_000, interval: 100 }).toBe(false);
}

/**
 * The store's requests to the shards pass through here (the server runs in this process, so its
 * `fetch` is this one): `holdNext` holds the next one that matches until the test lets it go,
 * before it is sent (`before`) or once its whole answer has arrived (`after`).
 */
const realFetch = globalThis.fetch;
interface Hold {
  readonly when: 'before' | 'after';
  match(url: URL, body: string): boolean;
  reached(): void;
  readonly release: Promise<void>;
}
let hold: Hold | undefined;

function holdNext(when: Hold['when'], match: Hold['match']): { reached: Promise<void>; release: () => void } {
  let reached!: () => void;
  let release!: () => void;
  const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  hold = { when, match, reached, release: released };
  return { reached: reachedPromise, release };
}

/** A statement of a call: its query id is the request's id (a UUID), a dash and a number. */
const ofCall = (url: URL) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-[0-9]+$/.test(url.searchParams.get('query_id') ?? '');

beforeAll(async () => {
  base = await makeBaseDir();
  engine = await startEngine('clickhouseCluster', base.dir);
  clusterDir = join(base.dir, 'clickhouseCluster');
  urls = engine.url.split(',');
  expect(urls).toHaveLength(2);
  ledgerDir = mkdtempSync(join(tmpdir(), 'bq-bad-days-'));
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const waiting = hold;
    if (!waiting || !urls.includes(url.origin) || !waiting.match(url, typeof init?.body === 'string' ? init.body : '')) return realFetch(input, init);
    hold = undefined;
    if (waiting.when === 'before') {
      waiting.reached();
      await waiting.release;
      return realFetch(input, init);
    }
    const response = await realFetch(input, init);
    const body = await response.arrayBuffer();
    waiting.reached();
    await waiting.release;
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  });
  // The clean load.
  const store = await openStore(database);
  try {
    await loadFixture(store);
  } finally {
    await store.close();
  }
  // Where each target's links are, as the shards hold them.
  for (const shard of [1, 2]) {
    const lines = await onShard(shard, `SELECT DISTINCT target_domain FROM ${database}.links_local FINAL FORMAT TSV`);
    for (const domain of lines.split('\n').filter((line) => line !== '')) shardOf.set(domain, shard);
  }
}, 180_000);

/** Whatever a test left behind: frozen shards thawed, stopped ones started (each a no-op when it runs). */
afterEach(async () => {
  hold = undefined;
  for (const pid of frozen) {
    try {
      process.kill(pid, 'SIGCONT');
    } catch {
      /* gone */
    }
  }
  frozen.clear();
  for (const shard of [1, 2]) await script('shard-start', String(shard));
}, 120_000);

afterAll(async () => {
  vi.restoreAllMocks();
  for (const pid of frozen) {
    try {
      process.kill(pid, 'SIGCONT');
    } catch {
      /* gone */
    }
  }
  await engine?.stop().catch(() => undefined);
  await base?.remove();
  if (ledgerDir) rmSync(ledgerDir, { recursive: true, force: true });
}, 120_000);

describe('ClickHouse: a shard down', () => {
  it('the fixture lies on both shards', () => {
    expect([...shardOf.keys()].sort()).toEqual([...TARGETS].sort());
    expect(new Set(shardOf.values())).toEqual(new Set([1, 2]));
  });

  it.each([2, 1])(
    'shard %i stopped before the calls: 503 with Retry-After where it is needed, right once it is back',
    async (down) => {
      const served = await serve();
      try {
        await script('shard-stop', String(down));
        await expectWhileDown(served, down);
        await script('shard-start', String(down));
        await expectAllRight(served);
      } finally {
        await served.close();
      }
    },
    180_000,
  );

  /** Shard 2 frozen while `check` waits on it, then killed: 503, and right once it is back. */
  async function diesWhileWaiting(check: Check): Promise<void> {
    const served = await serve();
    try {
      // Frozen, the server still takes connections (the kernel queues them) but answers nothing.
      const pid = pidOf(2);
      process.kill(pid, 'SIGSTOP');
      frozen.add(pid);
      let answered = false;
      const pending = call(served, check.path).finally(() => (answered = true));
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(answered, 'the call should be waiting on the frozen shard').toBe(false);
      await kill(pid);
      expectUnavailable(check, await pending);
      await script('shard-start', '2');
      await expectAllRight(served);
    } finally {
      await served.close();
    }
  }

  it(
    'shard 2 dies while a call about a target on it waits for its answer: 503, right once it is back',
    async () => {
      const onShard2 = TARGETS.find((target) => shardOf.get(target) === 2)!;
      await diesWhileWaiting(CHECKS.find((c) => c.needs.length === 1 && c.needs[0] === onShard2)!);
    },
    180_000,
  );

  it(
    'shard 2 dies while a call across targets (the matrix, one of whose targets it holds) waits on it: 503, right once it is back',
    async () => {
      const matrix = CHECKS.find((c) => c.path.startsWith('matrix'))!;
      expect(matrix.needs.some((target) => shardOf.get(target) === 2)).toBe(true);
      await diesWhileWaiting(matrix);
    },
    180_000,
  );

  it(
    'shard 2 stops between the statements of a call: 503, never part of an answer',
    async () => {
      // Each call's first statement on shard 2 is answered; shard 2 stops before the store reads that answer.
      const served = await serve();
      try {
        let unavailable = 0;
        for (const check of CHECKS.filter((c) => c.needs.some((target) => shardOf.get(target) === 2))) {
          const held = holdNext('after', (url) => url.origin === urls[1] && ofCall(url));
          const pending = call(served, check.path);
          const first = await Promise.race([held.reached.then(() => true), pending.then(() => false)]);
          // The bound counts from the statement's answer let through (stopping a shard takes seconds of its own).
          let released = performance.now();
          if (first) {
            await script('shard-stop', '2');
            released = performance.now();
            held.release();
          } else {
            hold = undefined;
          }
          const answer = await pending;
          if (answer.status === 503) {
            unavailable++;
            expectUnavailable(check, answer, first ? performance.now() - released : answer.ms);
          } else {
            expectRight(check, answer);
          }
          if (first) await script('shard-start', '2');
        }
        expect(unavailable, 'at least one call should have needed shard 2 after its first statement there').toBeGreaterThan(0);
        await expectAllRight(served);
      } finally {
        hold = undefined;
        await served.close();
      }
    },
    300_000,
  );
});

describe('ClickHouse: a shard stops mid-load', () => {
  it(
    'the load fails naming the shard; run again once it is back, it gives the answers of a clean load',
    async () => {
      const loaded = `${database}_load`;
      const store = await openStore(loaded);
      let served: Served | undefined;
      try {
        // The first links written to shard 2: it stops before they arrive.
        const held = holdNext('before', (url, body) => url.origin === urls[1] && body.startsWith('INSERT INTO links_local'));
        const load = loadFixture(store);
        load.catch(() => undefined);
        await held.reached;
        await script('shard-stop', '2');
        held.release();
        const failure = await load.then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(isStoreUnavailable(failure), String(failure)).toBe(true);
        expect((failure as Error).message).toBe(`ClickHouse at ${urls[1]} cannot be reached (ECONNREFUSED).`);
        // The fixture's links of each target (its 30 in all), and how many each shard holds.
        const links: Record<TargetName, number> = { 'example.com': 7, 'rival.com': 6, 'other.co.uk': 9, 'third.com': 4, 'boundary.com': 4 };
        const linksOn = (shard: number) => TARGETS.filter((target) => shardOf.get(target) === shard).reduce((sum, target) => sum + links[target], 0);
        // Shard 1's links were written (they went beside shard 2's): the load run again writes them twice.
        await expect.poll(async () => Number(await onShard(1, `SELECT count() FROM ${loaded}.links_local`)), { timeout: 10_000 }).toBe(linksOn(1));

        await script('shard-start', '2');
        // The store is left unmerged (read with FINAL): it still says it holds links.
        await expect.poll(() => store.hasLinks().catch((error: unknown) => String(error)), { timeout: 15_000 }).toBe(true);
        await loadFixture(store);
        // Each link and each of the 13 domains (on every shard) once, however many times written.
        for (const shard of [1, 2]) {
          expect(Number(await onShard(shard, `SELECT count() FROM ${loaded}.domains_local FINAL`)), `domains on shard ${shard}`).toBe(13);
          expect(Number(await onShard(shard, `SELECT count() FROM ${loaded}.links_local FINAL`)), `links on shard ${shard}`).toBe(linksOn(shard));
        }
        expect(Number(await onShard(1, `SELECT count() FROM ${loaded}.links FINAL`))).toBe(30);
        served = await serve(loaded, store);
        for (const check of CHECKS) expectRight(check, await call(served, check.path));
      } finally {
        hold = undefined;
        if (served) await served.close();
        else await store.close();
      }
    },
    300_000,
  );
});
