/**
 * What the load and fault tests share: the short/full durations (`SOAK=full` is `npm run soak`),
 * a bounded HTTP load loop over loopback that keeps every response's status, charge and error
 * body, the twelve operations as requests on the fixture, and the checks every scenario makes.
 *
 * The loop is our own rather than autocannon's: autocannon drops the requests still in flight
 * when its duration ends, and the server charges those too, so the units ledger could not be
 * matched against the charges the client saw. Here every started request is awaited to the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { operations, OPERATION_NAMES, type OperationName } from '../../../src/catalogue/operations.js';
import type { ApiKeyConfig } from '../../../src/server/store/ledger.js';

/** `npm run soak` sets SOAK=full: the long versions. */
export const SOAK = process.env['SOAK'] === 'full';

/** A duration in ms: `short` seconds in `npm test`, `full` seconds in `npm run soak`. */
export const seconds = (short: number, full: number): number => (SOAK ? full : short) * 1000;

/** Where a soak run's figures are collected; `npm run soak` prints them as one table at its end (scripts/soak-summary.mjs). */
export const FIGURES_FILE = '.tmp/soak/figures.ndjson';

/**
 * Prints a scenario's figures (requests, 5xx, lost units, cancelled queries, ...) and, in a soak
 * run, keeps them for the table printed at the end.
 */
export function recordFigures(scenario: string, figures: Readonly<Record<string, unknown>>): void {
  process.stdout.write(`${scenario}: ${JSON.stringify(figures)}\n`);
  if (!SOAK) return;
  mkdirSync('.tmp/soak', { recursive: true });
  appendFileSync(FIGURES_FILE, `${JSON.stringify({ scenario, ...figures })}\n`);
}

/** A key with its rate and concurrency limits lifted, and units enough for a full soak. */
export const LOAD_KEY = { id: 'load', key: 'load-key-0123456789', units: 1_000_000_000_000, rate: 1_000_000_000, concurrency: 1_000_000_000 } as const satisfies ApiKeyConfig;
export const LOAD_AUTH = { authorization: `Apikey ${LOAD_KEY.key}` };

/** One answer as the client saw it. */
export interface Outcome {
  readonly path: string;
  /** HTTP status; 0 when the request failed (socket error) or timed out. */
  readonly status: number;
  readonly timedOut: boolean;
  /** The socket error, when there was one. */
  readonly error?: string;
  /** `X-Units-Charged` / `X-Units-Remaining` (200 answers). */
  readonly charged?: number;
  readonly remaining?: number;
  readonly retryAfter?: string;
  /** The error envelope's `retryable`, and the kind its `type` names (error answers). */
  readonly retryable?: boolean;
  readonly kind?: string;
  /** ms since the epoch. */
  readonly started: number;
  readonly ended: number;
}

const header = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** One GET, bounded by `timeoutMs`; never rejects. */
export function get(base: string, path: string, options: { headers?: Record<string, string>; timeoutMs: number; agent?: Agent }): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    let settled = false;
    const done = (outcome: Omit<Outcome, 'path' | 'started' | 'ended'>) => {
      if (settled) return;
      settled = true;
      resolve({ path, started, ended: Date.now(), ...outcome });
    };
    const req = httpRequest(`${base}${path}`, { method: 'GET', headers: options.headers ?? {}, agent: options.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (error) => done({ status: 0, timedOut: false, error: error.message }));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        const charged = header(res.headers['x-units-charged']);
        const remaining = header(res.headers['x-units-remaining']);
        const retryAfter = header(res.headers['retry-after']);
        let envelope: { error?: { retryable?: boolean; type?: string } } = {};
        if (status >= 400) {
          try {
            envelope = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            envelope = {};
          }
        }
        done({
          status,
          timedOut: false,
          ...(charged === undefined ? {} : { charged: Number(charged) }),
          ...(remaining === undefined ? {} : { remaining: Number(remaining) }),
          ...(retryAfter === undefined ? {} : { retryAfter }),
          ...(envelope.error ? { retryable: envelope.error.retryable, kind: envelope.error.type?.slice(envelope.error.type.lastIndexOf('#') + 1) } : {}),
        });
      });
    });
    req.setTimeout(options.timeoutMs, () => {
      done({ status: 0, timedOut: true, error: `no answer within ${options.timeoutMs} ms` });
      req.destroy();
    });
    req.on('error', (error) => done({ status: 0, timedOut: false, error: `${(error as NodeJS.ErrnoException).code ?? ''} ${error.message}`.trim() }));
    req.end();
  });
}

/** Options of {@link runLoad}. */
export interface LoadOptions {
  readonly base: string;
  /** Paths, taken in turn (each connection starts at its own offset, so all are mixed at once). */
  readonly paths: readonly string[];
  readonly concurrency: number;
  /** No request starts after this long. */
  readonly durationMs: number;
  /** No request starts after this many in all (a bound on the count, whatever the speed). */
  readonly maxRequests?: number;
  /** The client's bound on one request; past it the request counts as timed out. */
  readonly timeoutMs?: number;
  readonly headers?: Record<string, string>;
  /** Stops the loops early (checked before each request). */
  readonly stop?: () => boolean;
  /** Called with each outcome as it arrives. */
  readonly onOutcome?: (outcome: Outcome) => void;
}

/**
 * `concurrency` loops over keep-alive connections, each sending its next request when the last
 * one is answered, until the duration, the count or `stop` ends them; resolves once every
 * started request has been answered (or failed, or timed out).
 */
export async function runLoad(options: LoadOptions): Promise<Outcome[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const deadline = Date.now() + options.durationMs;
  const maxRequests = options.maxRequests ?? 5_000_000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const outcomes: Outcome[] = [];
  let sent = 0;
  const loop = async (offset: number) => {
    for (let i = offset; Date.now() < deadline && sent < maxRequests && !options.stop?.(); i++) {
      sent++;
      const outcome = await get(options.base, options.paths[i % options.paths.length]!, { headers: options.headers ?? LOAD_AUTH, timeoutMs, agent });
      outcomes.push(outcome);
      options.onOutcome?.(outcome);
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, (_, c) => loop(c)));
  } finally {
    agent.destroy();
  }
  return outcomes;
}

/** Counts by status (0: failed or timed out). */
export function byStatus(outcomes: readonly Outcome[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const outcome of outcomes) counts[outcome.status] = (counts[outcome.status] ?? 0) + 1;
  return counts;
}

/** Units charged over all answers, by their `X-Units-Charged`. */
export const unitsCharged = (outcomes: readonly Outcome[]): number => outcomes.reduce((sum, o) => sum + (o.charged ?? 0), 0);

/** A short account of a run for failure messages. */
export function describeRun(outcomes: readonly Outcome[]): string {
  const failed = outcomes.filter((o) => o.status === 0 || o.status >= 500).slice(0, 5);
  return `${outcomes.length} requests, by status ${JSON.stringify(byStatus(outcomes))}, slowest ${slowest(outcomes)} ms; first failures: ${JSON.stringify(failed)}`;
}

/** The 503s that are not the store's retryable one (`retryable: true`, kind `unavailable`, a Retry-After in seconds). */
export const badUnavailables = (outcomes: readonly Outcome[]): Outcome[] =>
  outcomes.filter((o) => o.status === 503 && !(o.retryable === true && o.kind === 'unavailable' && /^\d+$/.test(o.retryAfter ?? '')));

/** The slowest answer, in ms. */
export const slowest = (outcomes: readonly Outcome[]): number => outcomes.reduce((most, o) => Math.max(most, o.ended - o.started), 0);

const BACKLINKS = '/_api/apis/v4/backlinks/v1';
const ROOT = 'url=example.com&scope=ROOT_DOMAIN';

/**
 * Requests on the fixture (test/server/support/fixture.ts) that answer 200 and charge, at least one per
 * operation of the catalogue: plain, with filters, paged, CSV.
 */
export const FIXTURE_PATHS: readonly string[] = [
  `${BACKLINKS}/overview?${ROOT}`,
  `${BACKLINKS}/summary?${ROOT}`,
  `${BACKLINKS}/links?${ROOT}&limit=5`,
  `${BACKLINKS}/ref-domains?${ROOT}`,
  `${BACKLINKS}/ref-ips?${ROOT}`,
  `${BACKLINKS}/pages?${ROOT}`,
  `${BACKLINKS}/anchors?${ROOT}`,
  `${BACKLINKS}/score-profile?${ROOT}`,
  `${BACKLINKS}/competitors?domain=example.com`,
  `${BACKLINKS}/comparison?urls=example.com,rival.com&scope=ROOT_DOMAIN`,
  `${BACKLINKS}/matrix?urls=example.com,rival.com&scope=ROOT_DOMAIN`,
  `/_api/apis/v4/keywords/v1/metrics?keyword=seo%20tools&country=US&month=2026-05`,
  `${BACKLINKS}/links?${ROOT}&filter=${encodeURIComponent('domain_score > 20 AND is_nofollow = FALSE')}&order_by=domain_score&direction=ASC`,
  `${BACKLINKS}/ref-domains?url=example.com/blog&scope=SUBFOLDER&format=csv`,
  `${BACKLINKS}/anchors?${ROOT}&filter=${encodeURIComponent("anchor LIKE '%xam%' OR anchor = ''")}&limit=2&offset=1`,
  `${BACKLINKS}/overview?url=https://blog.other.co.uk/x&scope=ROOT_DOMAIN&fields=score,lost_count`,
  `${BACKLINKS}/matrix?urls=rival.com,example.com&scope=ROOT_DOMAIN&filter=${encodeURIComponent('backlinks_counts[2] > 1')}`,
  `/_api/apis/v4/keywords/v1/metrics?keyword=seo%20tools&country=US`,
];

/** The operation a path belongs to. */
export function operationOf(path: string): OperationName | undefined {
  const bare = path.split('?')[0];
  return OPERATION_NAMES.find((name) => operations[name].path === bare);
}

/** What {@link startFixtureServer} runs the server on. */
export type FixtureServerConfig =
  | { readonly engine: 'sqlite'; readonly file: string; readonly lockTimeoutMs?: number; readonly statementTimeoutMs?: number; readonly readers?: number }
  | { readonly engine: 'postgres'; readonly url: string; readonly statementTimeoutMs?: number; readonly connectTimeoutMs?: number };

/** A server process started by {@link startFixtureServer}. */
export interface FixtureServer {
  readonly url: string;
  readonly child: ChildProcess;
  /** Resolves with the exit code, or the signal that ended it. */
  readonly exit: Promise<number | NodeJS.Signals | null>;
  /** Whether it is still running. */
  alive(): boolean;
  /** Its stderr so far (a crash's message lands there). */
  err(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when it has exited. */
  stop(graceMs?: number): Promise<number | NodeJS.Signals | null>;
}

const REPO = new URL('../../..', import.meta.url).pathname;

/**
 * The server on the fixture (plus {@link LOAD_KEY}) in a process of its own (`fixture-server.ts`),
 * so that a server that crashes fails the test that made it crash, and nothing else.
 */
export async function startFixtureServer(config: FixtureServerConfig, timeoutMs = 60_000): Promise<FixtureServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/server/load/fixture-server.ts', JSON.stringify(config)], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let running = true;
  child.stdout!.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const exit = new Promise<number | NodeJS.Signals | null>((resolve) => child.on('close', (code, signal) => ((running = false), resolve(code ?? signal))));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the fixture server did not start within ${timeoutMs} ms:\n${stderr}`)), timeoutMs);
    child.stdout!.on('data', () => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match) clearTimeout(timer), resolve(match[1]!);
    });
    void exit.then((code) => (clearTimeout(timer), reject(new Error(`the fixture server exited (${code}) before listening:\n${stderr}`))));
  });
  return {
    url,
    child,
    exit,
    alive: () => running,
    err: () => stderr,
    stop: async (graceMs = 10_000) => {
      if (running) child.kill('SIGTERM');
      const timer = setTimeout(() => running && child.kill('SIGKILL'), graceMs);
      const code = await exit;
      clearTimeout(timer);
      return code;
    },
  };
}
