/**
 * The generated-filter workload against a running server (issue 27 item 4, issue 51 item 4): value
 * pools and scope targets from a sample of each target's rows, the requests of generated.ts, then
 * three phases on the same server process:
 *
 * - cold, one at a time: each request a filter text the server has not seen;
 * - cold, CONNECTIONS connections: the same, each connection taking the next request;
 * - warm, CONNECTIONS connections: each connection takes a filter and reads it page by page
 *   (offset 0, 100, ..., 900), then the next filter.
 *
 * On the embedded store, floor B (floor.ts) answers the same requests in this process, in the same
 * run: one at a time, interleaved with the server's answers (server first, then floor, then the
 * other way round for the next request); at CONNECTIONS at a time, right after the server's phase,
 * on as many connections. Each server answer is compared with the floor's: the total, and the
 * page's rows in order (a difference is a check violation).
 *
 * Requests are sent with node:http over keep-alive connections (one per concurrent loop, as
 * autocannon's connections); each response's latency is taken from just before its request is
 * written to the end of its body. Bodies are parsed and checked after each phase, so the checks do
 * not delay the measurement: the row count agrees with `meta.total` and the offset, every row
 * passes the filter in the package's evaluator, rows come in the requested order (code point
 * order for text, as `compareCodePoints`; ties allowed), and, per warm filter, every page reports
 * the same total, no row repeats across pages, and the order holds across page boundaries. After
 * the phases, each (operation, target) list of at most EXACT_TOTAL_MAX_ROWS rows is read whole and
 * every ROOT_DOMAIN filter's total on it is compared with the rows the evaluator keeps (exact totals).
 */
import { writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import { operations } from '../../src/catalogue/operations.js';
import type { FilterNode } from '../../src/ast/nodes.js';
import type { DomainParser } from '../../src/server/deps.js';
import { compilePredicate } from '../../src/evaluate/compile-predicate.js';
import { compareCodePoints } from '../../src/evaluate/text-order.js';
import { parseFilter } from '../../src/syntax/parse.js';
import { valuePools } from '../../src/testing/records.js';
import type { BenchOptions } from './args.js';
import type { BenchCall, BenchTargets } from './calls.js';
import { BENCH_KEY } from './databases.js';
import {
  CONNECTIONS,
  describeRequest,
  DIRECTIONS,
  GENERATED_OPERATIONS,
  generateRequests,
  generatorSettings,
  LIMIT,
  PHASES,
  requestPath,
  SCOPES,
  scopeTargets,
  sortableFields,
  visible,
  type GeneratedOperation,
  type GeneratedRequest,
  type GeneratorSettings,
  type Phase,
  type Slot,
} from './generated.js';
import { FloorB, type FloorAnswer } from './floor.js';
import { quantile, type LoadResult } from './load.js';

/** Latencies of a group of responses (its 2xx answers), for one row of a report table. */
export interface GroupSummary {
  readonly name: string;
  /** Responses in the group (any status). */
  readonly responses: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
  readonly non2xx: number;
  /** Floor B's latencies on the same requests (the embedded store only). */
  readonly floor?: { readonly answers: number; readonly p50: number; readonly p90: number; readonly p99: number; readonly max: number };
}

/** One response, named by its exact request. */
export interface TimedRequest {
  readonly request: string;
  readonly path: string;
  readonly ms: number;
  readonly status: number;
  readonly total?: number;
}

/** One phase's measurements: LoadResult's fields (so the report's failure texts apply) and more. */
export interface PhaseResult extends LoadResult {
  readonly phase: Phase;
  /** Requests sent (a warm filter counts once per page). */
  readonly requests: number;
  readonly p90: number;
  /** Per operation; for the warm phase also the first pages and the later ones. */
  readonly groups: readonly GroupSummary[];
  /** Totals of the phase's filters (warm: of each filter's first page): how many select nothing, the median, how many fill a page. */
  readonly matched: { readonly answered: number; readonly zero: number; readonly medianTotal: number; readonly full: number };
  /** The slowest responses (any status). */
  readonly slowest: readonly TimedRequest[];
  /** (order_by, direction) pairs used, per operation, of how many there are. */
  readonly orders: readonly { readonly operation: GeneratedOperation; readonly used: number; readonly pairs: number }[];
  /** Check violations found in this phase's answers (each a failure of the run). */
  readonly violations: number;
  /** Floor B on the same requests (the embedded store only): its seconds and answers per second, and the server answers compared with it and differing. */
  readonly floor?: { readonly seconds: number; readonly rps: number; readonly compared: number; readonly differing: number };
}

/** Everything the generated workload measured on one database. */
export interface GeneratedResult {
  readonly settings: GeneratorSettings;
  readonly targets: readonly string[];
  /** Whether floor B answered beside the server (the embedded store), or why not. */
  readonly floor: { readonly measured: true } | { readonly measured: false; readonly why: string };
  /** Distinct hosts, folders and pages found per target for the narrow scopes (drawn as often as the sampled links point into each). */
  readonly scopeTargets: readonly { readonly target: string; readonly hosts: number; readonly folders: number; readonly pages: number }[];
  /** The rows the value pools were built from, per (operation, target). */
  readonly sample: readonly { readonly operation: GeneratedOperation; readonly target: string; readonly rows: number; readonly total: number | undefined }[];
  /** Requests outside the phases (the value sample, the whole lists of the exact-total check) that failed: each a failure of the run. */
  readonly sampleFailures: readonly string[];
  readonly phases: readonly PhaseResult[];
  /** What the checks covered. */
  readonly checked: { readonly responses: number; readonly rows: number; readonly warmFilters: number };
  /**
   * The exact-total check: the (operation, target) lists read whole after the phases (at most
   * EXACT_TOTAL_MAX_ROWS rows), how many filters' totals were compared, and the lists too large.
   */
  readonly exact: {
    readonly lists: readonly { readonly operation: GeneratedOperation; readonly target: string; readonly rows: number }[];
    readonly filters: number;
    readonly skipped: readonly { readonly operation: GeneratedOperation; readonly target: string; readonly total: number | undefined }[];
  };
  /** How many checks failed, and the first of them, each with its exact request. */
  readonly violationCount: number;
  readonly violations: readonly string[];
  /** The first non-2xx answers (or connection errors), each with its exact request and the body's start. */
  readonly failedResponses: readonly string[];
  readonly requestCount: number;
  /** The first requests as the report prints them. */
  readonly firstRequests: readonly string[];
  /** Every request with its measurements, one JSON object per line. */
  readonly file: string;
  /** Set when the workload itself could not run (it counts as a failure). */
  readonly error?: string;
}

/**
 * A target's whole list (of one operation) is read after the phases when it holds at most this
 * many rows, and every generated filter's total on it is compared with the rows the evaluator
 * keeps: totals checked exactly, not only for consistency.
 */
export const EXACT_TOTAL_MAX_ROWS = 20_000;
/** Rows per request when reading a whole list (the server's largest `limit`). */
const WHOLE_LIST_PAGE = 10_000;

/** The deepest offset the value sample reads at (an offset is a skip over an index range). */
const SAMPLE_MAX_OFFSET = 100_000;

/** Requests the report prints; the file holds them all. */
export const PRINTED_REQUESTS = 50;
const KEPT_MESSAGES = 40;
const SLOWEST = 5;
const TIMEOUT_MS = 30_000;

interface Raw {
  readonly status: number;
  readonly ms: number;
  readonly body: string;
  readonly error?: string;
  readonly timeout?: boolean;
}

/** GET `path` on a keep-alive connection of `agent`; the latency runs to the end of the body. */
function get(agent: Agent, base: URL, path: string): Promise<Raw> {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = httpRequest({ host: base.hostname, port: base.port, path, agent, headers: { authorization: `Apikey ${BENCH_KEY.key}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (error) => resolve({ status: 0, ms: performance.now() - started, body: '', error: error.message }));
    });
    req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on('error', (error) => resolve({ status: 0, ms: performance.now() - started, body: '', error: error.message, timeout: error.message.startsWith('no answer') }));
    req.end();
  });
}

/** Runs `work` over `items` with `connections` loops (the `at`-th loop passing `at`), each taking the next item; resolves to the seconds taken. */
async function pool<T>(items: readonly T[], connections: number, work: (item: T, at: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  const loop = async (_: unknown, at: number) => {
    while (next < items.length) await work(items[next++]!, at);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(connections, items.length)) }, loop));
  return (performance.now() - started) / 1000;
}

interface ListBody {
  readonly meta: { readonly total?: unknown };
  readonly data: unknown;
}

/** The value pools of each (operation, target): rows of three pages over HTTP, fetched in a fixed order. */
async function samplePools(
  base: URL,
  targets: readonly string[],
): Promise<{ slots: Slot[]; sample: GeneratedResult['sample']; failures: string[]; scopes: GeneratedResult['scopeTargets'] }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const slots: Slot[] = [];
  const sample: { operation: GeneratedOperation; target: string; rows: number; total: number | undefined }[] = [];
  const failures: string[] = [];
  const scopes: GeneratedResult['scopeTargets'][number][] = [];
  try {
    // Target-major, so that consecutive requests (i mod 9) alternate operations.
    for (const target of targets) {
      // The hosts, folders and pages of the narrow scopes: from the target URLs of the links sampled (links come first).
      let narrow = scopeTargets([]);
      for (const operation of GENERATED_OPERATIONS) {
        const orderBy = operations[operation].params.order_by.default;
        const page = async (direction: string, offset: number): Promise<{ rows: Record<string, unknown>[]; total: number | undefined }> => {
          const path = `${operations[operation].path}?${new URLSearchParams({ url: target, scope: 'ROOT_DOMAIN', order_by: orderBy, direction, limit: String(LIMIT), offset: String(offset) }).toString()}`;
          const raw = await get(agent, base, path);
          if (raw.status !== 200) {
            failures.push(`sample ${path} answered ${raw.status || raw.error}: ${raw.body.slice(0, 300)}`);
            return { rows: [], total: undefined };
          }
          const body = JSON.parse(raw.body) as ListBody;
          return { rows: Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : [], total: typeof body.meta.total === 'number' ? body.meta.total : undefined };
        };
        // The default order's top and bottom (an index serves both) and a page in between: its
        // middle, or SAMPLE_MAX_OFFSET rows down on a list so long that the middle costs a long skip.
        const top = await page('DESC', 0);
        const bottom = await page('ASC', 0);
        const middle = top.total !== undefined && top.total > 3 * LIMIT ? await page('DESC', Math.min(SAMPLE_MAX_OFFSET, Math.floor(top.total / 2))) : { rows: [] };
        const rows = [...top.rows, ...bottom.rows, ...middle.rows];
        if (operation === 'links') {
          narrow = scopeTargets(rows.map((row) => row['target_url']).filter((url): url is string => typeof url === 'string'));
          scopes.push({ target, hosts: new Set(narrow.SUBDOMAIN).size, folders: new Set(narrow.SUBFOLDER).size, pages: new Set(narrow.PAGE).size });
        }
        slots.push({ operation, target, pools: { fields: valuePools(rows).fields }, scopes: narrow });
        sample.push({ operation, target, rows: rows.length, total: top.total });
      }
    }
  } finally {
    agent.destroy();
  }
  return { slots, sample, failures, scopes };
}

/** One response of a phase, with its parsed check. */
interface Answer extends Omit<Raw, 'body'> {
  readonly request: GeneratedRequest;
  readonly offset: number | undefined;
  /** The body until the phase's checks are done (then dropped, with the rows, to keep memory flat). */
  body: string;
  total?: number;
  rows?: readonly Record<string, unknown>[] | undefined;
  /** Rows in the answer, kept after `rows` is dropped. */
  count?: number;
  /** Floor B's answer to the same request and page (the embedded store); its rows dropped after the comparison. */
  floor?: FloorAnswer;
}

type Compare = (a: unknown, b: unknown) => number | undefined;

/** The order of a field's values as the server must sort them: numbers, false < true, text by code point. */
function comparer(operation: GeneratedOperation, field: string): Compare {
  const type = sortableFields(operation).find((f) => f.name === field)?.type;
  if (type === 'integer' || type === 'number') return (a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : undefined);
  if (type === 'boolean') return (a, b) => (typeof a === 'boolean' && typeof b === 'boolean' ? Number(a) - Number(b) : undefined);
  return (a, b) => (typeof a === 'string' && typeof b === 'string' ? compareCodePoints(a, b) : undefined);
}

/** The checker of one run: compiled filters per request, and the violations found. */
class Checker {
  readonly violations: string[] = [];
  count = 0;
  rows = 0;
  responses = 0;
  private readonly predicates = new Map<number, (row: Record<string, unknown>) => boolean>();
  private readonly base: URL;

  constructor(base: URL) {
    this.base = base;
  }

  violation(request: GeneratedRequest, offset: number | undefined, what: string): void {
    this.count++;
    if (this.violations.length < KEPT_MESSAGES) this.violations.push(`${what}; request ${this.base.origin}${requestPath(request, offset)} (${describeRequest(request)})`);
  }

  predicate(request: GeneratedRequest): (row: Record<string, unknown>) => boolean {
    let p = this.predicates.get(request.id);
    if (!p) {
      const ast: FilterNode = parseFilter(request.filter, { operation: request.operation });
      p = compilePredicate(ast);
      this.predicates.set(request.id, p);
    }
    return p;
  }

  /** Order of consecutive rows (one violation per page, naming the first pair out of order); `prev` is the last row of the page before. */
  order(request: GeneratedRequest, offset: number | undefined, rows: readonly Record<string, unknown>[], prev?: Record<string, unknown>): void {
    const compare = comparer(request.operation, request.orderBy);
    const sequence = prev ? [prev, ...rows] : rows;
    let first: string | undefined;
    let bad = 0;
    for (let i = 1; i < sequence.length; i++) {
      const a = sequence[i - 1]![request.orderBy];
      const b = sequence[i]![request.orderBy];
      const c = compare(a, b);
      if (c !== undefined && (request.direction === 'ASC' ? c <= 0 : c >= 0)) continue;
      bad++;
      if (first !== undefined) continue;
      const where = prev ? 'the last row of the page before and the first row of this page' : `rows ${i - 1} and ${i}`;
      first =
        c === undefined
          ? `${request.orderBy} of ${where} is ${JSON.stringify(a)} then ${JSON.stringify(b)}: not both of the field's type`
          : `out of ${request.direction} order by ${request.orderBy}: ${where} are ${JSON.stringify(a)} then ${JSON.stringify(b)}`;
    }
    if (first !== undefined) this.violation(request, offset, `${first}${bad > 1 ? ` (${bad} pairs out of order in this page)` : ''}`);
  }

  /** Parses and checks one 2xx page on its own: the body, its row count against the total, the filter, the order. */
  page(answer: Answer): void {
    const { request, offset } = answer;
    this.responses++;
    let body: ListBody;
    try {
      body = JSON.parse(answer.body) as ListBody;
    } catch {
      this.violation(request, offset, `the body is not JSON: ${answer.body.slice(0, 200)}`);
      return;
    }
    const total = body.meta?.total;
    if (!Array.isArray(body.data) || typeof total !== 'number' || !Number.isInteger(total) || total < 0) {
      this.violation(request, offset, `no list and total in the answer: ${answer.body.slice(0, 200)}`);
      return;
    }
    const rows = body.data as Record<string, unknown>[];
    answer.total = total;
    answer.rows = rows;
    this.rows += rows.length;
    const expected = Math.min(LIMIT, Math.max(0, total - (offset ?? 0)));
    if (rows.length !== expected) this.violation(request, offset, `${rows.length} rows with total ${total} at offset ${offset ?? 0} (expected ${expected})`);
    const keep = this.predicate(request);
    const outside = rows.findIndex((row) => !keep(row));
    if (outside !== -1) {
      const shown = Object.fromEntries(Object.entries(rows[outside]!).filter(([k]) => request.filter.includes(k) || k === request.orderBy));
      this.violation(request, offset, `row ${outside} does not pass the filter in the package's evaluator: ${JSON.stringify(shown)}`);
    }
    this.order(request, offset, rows);
  }

  /**
   * A checked 2xx page against floor B's answer to the same request and page: the same total and
   * the same records in the same order (every field of the record). Returns whether it was compared
   * and whether it differs.
   */
  againstFloor(answer: Answer): { compared: boolean; differs: boolean } {
    const { request, offset, floor, rows, total } = answer;
    if (!floor || !rows || total === undefined) return { compared: false, differs: false };
    const fields = Object.keys(operations[request.operation].record);
    const line = (row: Record<string, unknown>) => JSON.stringify(fields.map((field) => row[field] ?? null));
    if (total !== floor.total) {
      this.violation(request, offset, `total ${total}, but floor B counts ${floor.total}`);
      return { compared: true, differs: true };
    }
    const server = rows.map(line);
    const ours = floor.rows.map(line);
    const at = server.findIndex((row, i) => row !== ours[i]);
    if (at !== -1 || server.length !== ours.length) {
      const i = at === -1 ? Math.min(server.length, ours.length) : at;
      this.violation(request, offset, `row ${i} of ${server.length} differs from floor B's (${ours.length} rows): server ${server[i] ?? 'none'}, floor ${ours[i] ?? 'none'} (fields ${fields.join(', ')})`);
      return { compared: true, differs: true };
    }
    return { compared: true, differs: false };
  }

  /** The pages of one warm filter, in offset order: the same total, no row twice, the order across pages. */
  pages(answers: readonly Answer[]): void {
    const request = answers[0]!.request;
    const totals = new Set(answers.map((a) => a.total));
    if (totals.size > 1) this.violation(request, undefined, `the pages report different totals: ${answers.map((a) => `offset ${a.offset}: ${a.total}`).join(', ')}`);
    const seen = new Map<string, number>();
    answers.forEach((answer, i) => {
      const rows = answer.rows ?? [];
      for (const row of rows) {
        const key = JSON.stringify(row);
        const before = seen.get(key);
        if (before !== undefined) this.violation(request, answer.offset, `a row of the page at offset ${answers[before]!.offset} comes again: ${key.slice(0, 300)}`);
        else seen.set(key, i);
      }
      const prev = answers[i - 1]?.rows?.at(-1);
      if (prev && rows.length > 0) this.order(request, answer.offset, rows.slice(0, 1), prev);
    });
  }
}

/** Latency percentiles of the 2xx answers among `answers`, and of floor B's answers to the same requests. */
function group(name: string, answers: readonly Answer[]): GroupSummary {
  const ok = Float64Array.from(answers.filter((a) => a.status >= 200 && a.status < 300).map((a) => a.ms)).sort();
  const floors = answers.flatMap((a) => (a.floor ? [a.floor.ms] : []));
  const floor = Float64Array.from(floors).sort();
  return {
    name,
    responses: answers.length,
    p50: quantile(ok, 0.5),
    p90: quantile(ok, 0.9),
    p99: quantile(ok, 0.99),
    max: ok.length > 0 ? ok[ok.length - 1]! : Number.NaN,
    non2xx: answers.filter((a) => a.status < 200 || a.status >= 300).length,
    ...(floor.length > 0 ? { floor: { answers: floor.length, p50: quantile(floor, 0.5), p90: quantile(floor, 0.9), p99: quantile(floor, 0.99), max: floor[floor.length - 1]! } } : {}),
  };
}

/** The warm phase's groups of first pages (cold calls) and of the pages after them, which its goal holds. */
export const WARM_FIRST_PAGES = 'first page (offset 0)';
export const WARM_LATER_PAGES = 'later pages (offset 100-900)';

function summarize(phase: Phase, connections: number, seconds: number, answers: readonly Answer[], base: URL, violations: number, floor: PhaseResult['floor']): PhaseResult {
  const ok = answers.filter((a) => a.status >= 200 && a.status < 300);
  const sorted = Float64Array.from(ok.map((a) => a.ms)).sort();
  const statusCodes: Record<string, number> = {};
  for (const a of answers) if (a.status > 0) statusCodes[String(a.status)] = (statusCodes[String(a.status)] ?? 0) + 1;
  const errors = answers.filter((a) => a.status === 0 && !a.timeout).length;
  const timeouts = answers.filter((a) => a.status === 0 && a.timeout).length;
  const all = group('all', answers);
  // Warm paging is held to its goal on the pages after the first (issue 51: "pages 2+ of a filter
  // seen once"): a filter's first page is a cold call. Its groups by operation and scope are of those.
  const held = phase === 'warm' ? answers.filter((a) => (a.offset ?? 0) > 0) : answers;
  const groups = [
    all,
    ...GENERATED_OPERATIONS.map((op) => group(op, held.filter((a) => a.request.operation === op))),
    ...SCOPES.map((scope) => group(scope, held.filter((a) => a.request.scope === scope))),
    ...SCOPES.flatMap((scope) => GENERATED_OPERATIONS.map((op) => group(`${scope} ${op}`, held.filter((a) => a.request.scope === scope && a.request.operation === op)))),
  ];
  if (phase === 'warm') groups.push(group(WARM_FIRST_PAGES, answers.filter((a) => a.offset === 0)), group(WARM_LATER_PAGES, held));
  const firsts = answers.filter((a) => (a.offset ?? 0) === 0 && a.total !== undefined);
  const totals = Float64Array.from(firsts.map((a) => a.total!)).sort();
  const requests = [...new Map(answers.map((a) => [a.request.id, a.request])).values()];
  const orders = GENERATED_OPERATIONS.map((operation) => ({
    operation,
    used: new Set(requests.filter((r) => r.operation === operation).map((r) => `${r.orderBy} ${r.direction}`)).size,
    pairs: sortableFields(operation).length * DIRECTIONS.length,
  }));
  return {
    phase,
    connections,
    seconds,
    requests: answers.length,
    responses: answers.filter((a) => a.status > 0).length,
    rps: ok.length / seconds,
    p50: all.p50,
    p90: all.p90,
    p99: all.p99,
    mean: sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length),
    max: all.max,
    non2xx: answers.filter((a) => a.status > 0 && (a.status < 200 || a.status >= 300)).length,
    errors,
    timeouts,
    statusCodes,
    groups,
    matched: { answered: firsts.length, zero: firsts.filter((a) => a.total === 0).length, medianTotal: quantile(totals, 0.5), full: firsts.filter((a) => a.total! >= LIMIT).length },
    slowest: [...answers]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SLOWEST)
      .map((a) => ({
        request: `${describeRequest(a.request)}${a.offset === undefined ? '' : ` offset ${a.offset}`}`,
        path: `${base.origin}${requestPath(a.request, a.offset)}`,
        ms: a.ms,
        status: a.status,
        ...(a.total === undefined ? {} : { total: a.total }),
      })),
    orders,
    violations,
    ...(floor ? { floor } : {}),
  };
}

/**
 * Reads each (operation, target) list of at most EXACT_TOTAL_MAX_ROWS rows whole (no filter, the
 * default order) and compares each answered filter's `meta.total` on it with the number of rows the
 * package's evaluator keeps. Run after the phases, so that it warms nothing they measure.
 */
async function exactTotals(
  base: URL,
  sample: GeneratedResult['sample'],
  answers: readonly Answer[],
  checker: Checker,
  failures: string[],
): Promise<GeneratedResult['exact']> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const lists: { operation: GeneratedOperation; target: string; rows: number }[] = [];
  const skipped: { operation: GeneratedOperation; target: string; total: number | undefined }[] = [];
  let filters = 0;
  try {
    for (const { operation, target, total } of sample) {
      if (total === undefined || total > EXACT_TOTAL_MAX_ROWS) {
        skipped.push({ operation, target, total });
        continue;
      }
      const rows: Record<string, unknown>[] = [];
      let broken = false;
      for (let offset = 0; offset < total && !broken; offset += WHOLE_LIST_PAGE) {
        const path = `${operations[operation].path}?${new URLSearchParams({ url: target, scope: 'ROOT_DOMAIN', limit: String(WHOLE_LIST_PAGE), offset: String(offset) }).toString()}`;
        const raw = await get(agent, base, path);
        if (raw.status !== 200) {
          failures.push(`whole list ${path} answered ${raw.status || raw.error}: ${raw.body.slice(0, 300)}`);
          broken = true;
        } else rows.push(...((JSON.parse(raw.body) as { data: Record<string, unknown>[] }).data ?? []));
      }
      if (broken) continue;
      const distinct = new Set(rows.map((row) => JSON.stringify(row))).size;
      if (rows.length !== total || distinct !== total) {
        failures.push(`whole list of ${operation} ${target}: ${rows.length} rows (${distinct} distinct) read in pages of ${WHOLE_LIST_PAGE}, total ${total}`);
        continue;
      }
      lists.push({ operation, target, rows: rows.length });
      for (const answer of answers) {
        const { request } = answer;
        if (request.operation !== operation || request.target !== target || request.scope !== 'ROOT_DOMAIN' || answer.total === undefined || (answer.offset ?? 0) !== 0) continue;
        filters++;
        const kept = rows.filter(checker.predicate(request)).length;
        if (kept !== answer.total) checker.violation(request, answer.offset, `total ${answer.total}, but the evaluator keeps ${kept} of the ${total} rows of the whole list`);
      }
    }
  } finally {
    agent.destroy();
  }
  return { lists, filters, skipped };
}

/** Options of {@link runGenerated}. */
export interface GeneratedRunOptions {
  readonly settings: GeneratorSettings;
  /** Filter texts the server has already been sent (the per-operation calls'), never generated again. */
  readonly exclude: ReadonlySet<string>;
  /** Where every request and its measurements are written (JSON lines). */
  readonly file: string;
  readonly log: (text: string) => void;
  /**
   * Floor B's database (the embedded store's SQLite file, its column file beside it) and what it
   * needs, or why there is none (another store).
   */
  readonly floor: { readonly file: string; readonly parser: DomainParser; readonly newSince: string } | { readonly none: string };
}

/**
 * Builds the pools, generates the requests, runs the three phases against `baseUrl` and checks
 * every answer. A workload that cannot run (an exception) is returned as `error`, never thrown, so
 * the rest of the database's results are kept.
 */
export async function runGenerated(baseUrl: string, targets: readonly string[], options: GeneratedRunOptions): Promise<GeneratedResult> {
  const { settings, log } = options;
  const base = new URL(baseUrl);
  const floorOption = options.floor;
  const floorState: GeneratedResult['floor'] = 'none' in floorOption ? { measured: false, why: floorOption.none } : { measured: true };
  const empty = { settings, targets, floor: floorState, scopeTargets: [], sample: [], sampleFailures: [], phases: [], checked: { responses: 0, rows: 0, warmFilters: 0 }, exact: { lists: [], filters: 0, skipped: [] }, violationCount: 0, violations: [], failedResponses: [], requestCount: 0, firstRequests: [], file: options.file };
  try {
    const { slots, sample, failures: sampleFailures, scopes } = await samplePools(base, targets);
    log(
      `generated: value pools from ${sample.reduce((n, s) => n + s.rows, 0)} sampled rows of ${slots.length} (operation, target); ` +
        `hosts, folders, pages: ${scopes.map((x) => `${x.target} ${x.hosts}, ${x.folders}, ${x.pages}`).join('; ')}${sampleFailures.length > 0 ? `; ${sampleFailures.length} sample requests FAILED` : ''}`,
    );
    const t = performance.now();
    const requests = generateRequests(slots, settings, options.exclude);
    log(`generated: ${requests.length} requests (seed ${settings.seed}) in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    const checker = new Checker(base);
    const failedResponses: string[] = [];
    const answersOf = new Map<Phase, Answer[]>();
    const phases: PhaseResult[] = [];
    const floor = 'none' in floorOption ? undefined : await FloorB.open(floorOption.file, CONNECTIONS, floorOption.parser, floorOption.newSince);
    try {
      if (floor) {
        // The floor's statements are built before they are timed; build them all now, so that an
        // unreadable target or filter fails before any phase.
        for (const request of requests) for (let page = 0; page < (request.phase === 'warm' ? settings.warmPages : 1); page++) floor.statement(request, page * settings.limit);
      }
      for (const phase of PHASES) {
        const mine = requests.filter((r) => r.phase === phase);
        const connections = phase === 'cold-c1' ? 1 : CONNECTIONS;
        const agent = new Agent({ keepAlive: true, maxSockets: connections });
        const answers: Answer[] = [];
        const send = async (request: GeneratedRequest, offset: number | undefined): Promise<Answer> => {
          const answer: Answer = { ...(await get(agent, base, requestPath(request, offset))), request, offset };
          answers.push(answer);
          return answer;
        };
        const violationsBefore = checker.count;
        let seconds: number;
        let floorSeconds = 0;
        // Floor B's answers, by request id and offset, to attach to the server's after the phase.
        const floorAnswers = new Map<string, FloorAnswer>();
        const atFloor = async (request: GeneratedRequest, offset: number, at: number) => {
          const answer = await floor!.answer(request, offset, at);
          floorAnswers.set(`${request.id}@${offset}`, answer);
          return answer;
        };
        try {
          if (phase === 'warm') {
            const pages = async (request: GeneratedRequest, ask: (offset: number) => Promise<unknown>) => {
              for (let page = 0; page < settings.warmPages; page++) await ask(page * settings.limit);
            };
            seconds = await pool(mine, connections, (request) => pages(request, (offset) => send(request, offset)));
            if (floor) floorSeconds = await pool(mine, connections, (request, at) => pages(request, (offset) => atFloor(request, offset, at)));
          } else if (phase === 'cold-c1' && floor) {
            // Server and floor in turn on each request, which goes first alternating; the phase's seconds are the server's share.
            let floorMs = 0;
            const elapsed = await pool(mine, 1, async (request) => {
              if (request.id % 2 === 0) {
                await send(request, undefined);
                floorMs += (await atFloor(request, 0, 0)).ms;
              } else {
                floorMs += (await atFloor(request, 0, 0)).ms;
                await send(request, undefined);
              }
            });
            floorSeconds = floorMs / 1000;
            seconds = Math.max(elapsed - floorSeconds, 1e-9);
          } else {
            seconds = await pool(mine, connections, async (request) => void (await send(request, undefined)));
            if (floor) floorSeconds = await pool(mine, connections, async (request, at) => void (await atFloor(request, 0, at)));
          }
        } finally {
          agent.destroy();
        }
        for (const answer of answers) {
          const f = floorAnswers.get(`${answer.request.id}@${answer.offset ?? 0}`);
          if (f) answer.floor = f;
        }
        // The checks, after the phase: parsing and evaluating never delay a measured response.
        let compared = 0;
        let differing = 0;
        for (const answer of answers) {
          if (answer.status === 200) {
            checker.page(answer);
            const c = checker.againstFloor(answer);
            if (c.compared) compared++;
            if (c.differs) differing++;
          } else if (failedResponses.length < KEPT_MESSAGES) {
            failedResponses.push(
              `${answer.status || answer.error} after ${answer.ms.toFixed(0)} ms: ${base.origin}${requestPath(answer.request, answer.offset)} (${describeRequest(answer.request)}): ${visible(answer.body.slice(0, 300))}`,
            );
          }
        }
        if (phase === 'warm') {
          const byFilter = new Map<number, Answer[]>();
          for (const a of answers) byFilter.set(a.request.id, [...(byFilter.get(a.request.id) ?? []), a]);
          for (const pages of byFilter.values()) {
            pages.sort((a, b) => a.offset! - b.offset!);
            // A failed page is a failure already; the cross-page checks need every page.
            if (pages.every((a) => a.status === 200 && a.rows)) checker.pages(pages);
          }
        }
        for (const answer of answers) {
          answer.count = answer.rows?.length;
          answer.body = '';
          answer.rows = undefined;
          if (answer.floor) answer.floor = { total: answer.floor.total, rows: [], ms: answer.floor.ms };
        }
        answersOf.set(phase, answers);
        const floorResult = floor ? { seconds: floorSeconds, rps: floorAnswers.size / Math.max(floorSeconds, 1e-9), compared, differing } : undefined;
        const result = summarize(phase, connections, seconds, answers, base, checker.count - violationsBefore, floorResult);
        phases.push(result);
        const f = result.groups[0]!.floor;
        log(
          `generated ${phase}: ${result.requests} requests in ${seconds.toFixed(1)} s, ${result.rps.toFixed(1)} req/s, p50 ${result.p50.toFixed(2)} ms, p90 ${result.p90.toFixed(2)} ms, ` +
            `p99 ${result.p99.toFixed(2)} ms, max ${result.max.toFixed(1)} ms, status ${JSON.stringify(result.statusCodes)}${result.errors + result.timeouts > 0 ? `, ${result.errors} errors, ${result.timeouts} timeouts` : ''}` +
            `${f && floorResult ? `; floor B p50 ${f.p50.toFixed(2)} ms, p99 ${f.p99.toFixed(2)} ms, ${floorResult.rps.toFixed(1)} answers/s, ${differing} of ${compared} answers differ` : ''}` +
            `${result.violations > 0 ? `, ${result.violations} check violations` : ''}`,
        );
      }
    } finally {
      floor?.close();
    }
    const exact = await exactTotals(base, sample, [...answersOf.values()].flat(), checker, sampleFailures);
    log(
      `generated: totals compared with the evaluator over whole lists for ${exact.filters} filters (${exact.lists.map((l) => `${l.operation} ${l.target}`).join(', ') || 'no list'}` +
        `${exact.skipped.length > 0 ? `; too large: ${exact.skipped.map((l) => `${l.operation} ${l.target}`).join(', ')}` : ''})`,
    );
    if (checker.count > 0) log(`generated: ${checker.count} check violations, the first: ${checker.violations[0]}`);

    const lines = PHASES.flatMap((phase) =>
      (answersOf.get(phase) ?? []).map((a) =>
        JSON.stringify({
          id: a.request.id,
          phase,
          operation: a.request.operation,
          scope: a.request.scope,
          url: a.request.url,
          order_by: a.request.orderBy,
          direction: a.request.direction,
          filter: a.request.filter,
          offset: a.offset ?? 0,
          status: a.status || a.error,
          ms: Number(a.ms.toFixed(3)),
          total: a.total,
          rows: a.count,
          ...(a.floor ? { floor_ms: Number(a.floor.ms.toFixed(3)), floor_total: a.floor.total } : {}),
        }),
      ),
    );
    writeFileSync(options.file, `${lines.join('\n')}\n`);
    return {
      ...empty,
      scopeTargets: scopes,
      sample,
      sampleFailures,
      phases,
      checked: { responses: checker.responses, rows: checker.rows, warmFilters: requests.filter((r) => r.phase === 'warm').length },
      exact,
      violationCount: checker.count,
      violations: checker.violations,
      failedResponses,
      requestCount: requests.length,
      firstRequests: requests.slice(0, PRINTED_REQUESTS).map((r) => `${String(r.id + 1).padStart(3)} ${r.phase.padEnd(8)} ${describeRequest(r)}`),
    };
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    log(`generated: FAILED: ${message}`);
    return { ...empty, error: message };
  }
}

/**
 * The workload as run.ts runs it for one database: the settings of `--generated-count` and
 * `--generated-seed`, the three largest targets, the per-operation calls' filters excluded, and
 * floor B on the embedded store's files.
 */
export function runGeneratedPhase(
  baseUrl: string,
  context: {
    readonly targets: BenchTargets;
    readonly calls: readonly BenchCall[];
    readonly options: BenchOptions;
    readonly file: string;
    readonly log: (text: string) => void;
    readonly floor: GeneratedRunOptions['floor'];
  },
): Promise<GeneratedResult> {
  const exclude = new Set(context.calls.flatMap((call) => (call.query['filter'] === undefined ? [] : [call.query['filter']])));
  return runGenerated(
    baseUrl,
    context.targets.largest.map((t) => t.domain),
    { settings: generatorSettings(context.options.generatedCount, context.options.generatedSeed), exclude, file: context.file, log: context.log, floor: context.floor },
  );
}
