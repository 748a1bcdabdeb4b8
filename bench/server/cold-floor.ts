/**
 * Cold calls against their floor (issue 51): distinct filters on a target's links, each sent once
 * to `serve` on a seeded embedded database, and the same lists read by floor B in this process on
 * the same files, in the same run: the page's keys and its total from the column file in one
 * statement, then the page's rows by id from SQLite, built into records and serialized, all
 * hand-written here (no code of the store). Filters: 1-3 conditions joined by AND over scores,
 * counts, flags, dates, `=` on the language and `LIKE '%word%'` on anchors, titles and URLs, words
 * and values drawn from the target's own links; orders: the default one half of the time, else a
 * field and direction drawn. Each filter text is used once in the run (the server never saw it).
 *
 * Phases: one at a time (server then floor, alternating which goes first), then ten at a time
 * (server), then ten at a time (floor, on as many DuckDB and SQLite connections as the server
 * has readers). Each server answer is checked against the floor's (total, and the page's links
 * in order). Prints a Markdown summary.
 *
 *   node --import tsx bench/server/cold-floor.ts --db DATA/embedded/links-1000000.db [--count 200] [--target example.com] [--seed 1] [--prof DIR] [--cwd CHECKOUT]
 *
 * `--cwd` runs the `serve` of another checkout (its code against this floor, for a before and after).
 */
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { operations } from '../../src/catalogue/operations.js';
import { Random } from '../../src/server/sample/random.js';
import { cleanUp } from './processes.js';
import { startServerProcess } from './server-process.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    count: { type: 'string', default: '200' },
    target: { type: 'string', default: 'example.com' },
    seed: { type: 'string', default: '1' },
    prof: { type: 'string' },
    concurrency: { type: 'string', default: '10' },
    workers: { type: 'string' },
    cwd: { type: 'string' },
  },
});
if (!values.db) throw new Error('--db DATA/embedded/links-1000000.db is required (npm run bench:server seeds it)');
const DB = resolve(values.db);
const COUNT = Number(values.count);
const TARGET = values.target!;
const CONCURRENCY = Number(values.concurrency);
const LIMIT = 100;
const KEY = 'cold-floor-key-0123456789';
const random = new Random(Number(values.seed));

// ---- The floor's connections (read-only, as the server's) ----
const sqlite = new Database(DB, { readonly: true });
const duck = await DuckDBInstance.create(`${DB}.duckdb`, { access_mode: 'READ_ONLY' });
const ducks: DuckDBConnection[] = await Promise.all(Array.from({ length: CONCURRENCY }, () => duck.connect()));
const sqlites = Array.from({ length: CONCURRENCY }, () => new Database(DB, { readonly: true }));

// ---- Value pools, from the target's own links ----
const sampled = sqlite
  .prepare(`SELECT anchor, source_title, source_url, target_url, lang, domain_score, page_score, external_links_count, internal_links_count, source_size, first_seen_at, last_seen_at FROM links WHERE target_domain = ? ORDER BY random() LIMIT 5000`)
  .all(TARGET) as Record<string, string | number>[];
if (sampled.length === 0) throw new Error(`${TARGET} has no links in ${DB}.`);
const wordsOf = (field: string) => [...new Set(sampled.flatMap((row) => String(row[field]).split(/[^A-Za-z0-9]+/).filter((word) => word.length >= 3)))];
const WORDS: Record<string, string[]> = Object.fromEntries(['anchor', 'source_title', 'source_url', 'target_url'].map((field) => [field, wordsOf(field)]));
const LANGS = [...new Set(sampled.map((row) => String(row['lang'])).filter((lang) => lang !== ''))];
const pick = <T>(items: readonly T[]): T => items[random.int(0, items.length - 1)]!;

/** A condition: its filter text and its hand-written DuckDB SQL with bound values. */
interface Condition {
  readonly text: string;
  readonly sql: string;
  readonly params: DuckDBValue[];
}

const NUMBERS = ['domain_score', 'page_score', 'external_links_count', 'internal_links_count', 'source_size'];
const FLAGS = ['is_nofollow', 'is_ugc', 'is_sponsored', 'is_image', 'is_lost', 'is_sitewide_main'];
const DATES = ['first_seen_at', 'last_seen_at'];
const TEXTS = ['anchor', 'source_title', 'source_url', 'target_url'];

function condition(): Condition {
  const kind = pick(['number', 'number', 'flag', 'date', 'text', 'text', 'text', 'lang']);
  if (kind === 'number') {
    const field = pick(NUMBERS);
    const op = pick(['>', '<', '>=', '<=']);
    const value = Number(pick(sampled)[field]);
    return { text: `${field} ${op} ${value}`, sql: `${field} ${op} ?`, params: [value] };
  }
  if (kind === 'flag') {
    const field = pick(FLAGS);
    const value = random.int(0, 1) === 1;
    return { text: `${field} = ${value}`, sql: `${field} = ?`, params: [value] };
  }
  if (kind === 'date') {
    const field = pick(DATES);
    const op = pick(['>=', '<']);
    const value = String(pick(sampled)[field]).slice(0, 7);
    return { text: `${field} ${op} '${value}'`, sql: `${field} ${op} ?`, params: [value] };
  }
  if (kind === 'lang') {
    const value = pick(LANGS);
    return { text: `lang = '${value}'`, sql: 'lang = ?', params: [value] };
  }
  const field = pick(TEXTS);
  const word = pick(WORDS[field]!);
  return { text: `${field} LIKE '%${word}%'`, sql: `contains(${field}, ?)`, params: [word] };
}

/** One request: a filter, its order, its floor SQL. */
interface Probe {
  readonly filter: string;
  readonly orderBy: string;
  readonly direction: 'ASC' | 'DESC';
  readonly where: string;
  readonly params: DuckDBValue[];
}

const ORDERS = ['page_score', 'domain_score', 'first_seen_at', 'last_seen_at', 'anchor', 'source_url', 'external_links_count'];
const RANKED = new Set(['first_seen_at', 'last_seen_at', 'anchor', 'source_url']);
const seen = new Set<string>();
function probe(): Probe {
  for (;;) {
    const conditions = Array.from({ length: random.int(1, 3) }, condition);
    const filter = conditions.map((c) => c.text).join(' AND ');
    if (seen.has(filter)) continue;
    seen.add(filter);
    const byDefault = random.int(0, 1) === 0;
    return {
      filter,
      orderBy: byDefault ? 'page_score' : pick(ORDERS),
      direction: byDefault ? 'DESC' : pick(['ASC', 'DESC'] as const),
      where: conditions.map((c) => c.sql).join(' AND '),
      params: conditions.flatMap((c) => c.params),
    };
  }
}

// ---- Floor B ----
const LINK_COLUMNS = [
  'source_url', 'target_url', 'anchor', 'redirect_url', 'source_title', 'target_title', 'image_url', 'image_alt', 'ip_address', 'lang', 'source_size',
  'external_links_count', 'internal_links_count', 'response_code', 'page_score', 'domain_score', 'first_seen_at', 'last_seen_at', 'source_domain',
  'is_nofollow', 'is_ugc', 'is_sponsored', 'is_form', 'is_frame', 'is_image', 'is_sitewide_main', 'is_lost',
];
const BOOLEANS = new Set(LINK_COLUMNS.filter((c) => c.startsWith('is_')));
const rowsById = (db: Database.Database, n: number) => db.prepare(`SELECT id, ${LINK_COLUMNS.join(', ')} FROM links WHERE id IN (${Array.from({ length: n }, () => '?').join(', ')})`);
const byIdCache = new Map<Database.Database, Map<number, Database.Statement>>();

interface Answer {
  readonly total: number;
  readonly links: string[];
  readonly ms: number;
}

/** Each floor call's parts, ms: the keys and count from the column file, the rows from SQLite and their records, the JSON. */
const floorParts: [number, number, number][] = [];

async function floor(p: Probe, at: number): Promise<Answer> {
  const started = performance.now();
  const connection = ducks[at]!;
  const sort = RANKED.has(p.orderBy) ? `o_${p.orderBy}` : p.orderBy;
  const result = await connection.run(
    `SELECT id, count(*) OVER () AS total FROM links WHERE target_domain = ? AND ${p.where} ORDER BY ${sort} ${p.direction}, id LIMIT ${LIMIT}`,
    [TARGET, ...p.params],
  );
  const keyed = (await result.getRows()) as [bigint, bigint][];
  const keysRead = performance.now();
  const ids = keyed.map(([id]) => Number(id));
  const total = keyed.length > 0 ? Number(keyed[0]![1]) : 0;
  let records: Record<string, unknown>[] = [];
  if (ids.length > 0) {
    const db = sqlites[at]!;
    let statements = byIdCache.get(db);
    if (!statements) byIdCache.set(db, (statements = new Map()));
    let statement = statements.get(ids.length);
    if (!statement) statements.set(ids.length, (statement = rowsById(db, ids.length)));
    const rows = statement.all(...ids) as Record<string, unknown>[];
    const position = new Map(ids.map((id, i) => [id, i]));
    rows.sort((a, b) => position.get(a['id'] as number)! - position.get(b['id'] as number)!);
    records = rows.map((row) => {
      const record: Record<string, unknown> = {};
      for (const column of LINK_COLUMNS) record[column] = BOOLEANS.has(column) ? row[column] === 1 : row[column];
      return record;
    });
  }
  const rowsRead = performance.now();
  // Serialized as an answer is, and timed with it.
  JSON.stringify({ meta: { request_id: 'x', status_code: 200, success: true, total }, data: records });
  const ms = performance.now() - started;
  floorParts.push([keysRead - started, rowsRead - keysRead, performance.now() - rowsRead]);
  return { total, links: records.map((r) => `${r['source_url']} ${r['target_url']}`), ms };
}

// ---- The server ----
const dir = mkdtempSync(join(tmpdir(), 'bq-cold-'));
const keyFile = join(dir, 'keys.json');
writeFileSync(keyFile, JSON.stringify([{ id: 'cold', key: KEY, units: 1e15, rate: 1e6, concurrency: 1e5 }]));
const server = await startServerProcess(['--db', DB, ...(values.workers ? ['--workers', values.workers] : [])], keyFile, {
  ...(values.cwd ? { cwd: resolve(values.cwd) } : {}),
  ...(values.prof ? { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', resolve(values.prof)] } : {}),
});
const base = new URL(server.url);
const agents = Array.from({ length: CONCURRENCY }, () => new Agent({ keepAlive: true, maxSockets: 1 }));

function call(p: Probe, at: number): Promise<Answer> {
  const query = new URLSearchParams({ url: TARGET, scope: 'ROOT_DOMAIN', filter: p.filter, order_by: p.orderBy, direction: p.direction, limit: String(LIMIT) });
  const started = performance.now();
  return new Promise((done, fail) => {
    const req = request({ host: base.hostname, port: base.port, path: `${operations.links.path}?${query}`, agent: agents[at]!, headers: { authorization: `Apikey ${KEY}` } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const ms = performance.now() - started;
        if (res.statusCode !== 200) return fail(new Error(`${res.statusCode} for ${p.filter}: ${text.slice(0, 300)}`));
        const body = JSON.parse(text) as { meta: { total: number }; data: Record<string, unknown>[] };
        done({ total: body.meta.total, links: body.data.map((r) => `${r['source_url']} ${r['target_url']}`), ms });
      });
    });
    req.on('error', fail);
    req.end();
  });
}

/** CPU time of a process so far (every thread), ms, from /proc. */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** CPU time of each thread of a process so far, ms, by thread id: [name, ms]. */
function threadCpu(pid: number): Map<string, [string, number]> {
  const threads = new Map<string, [string, number]>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      threads.set(tid, [name, ((Number(fields[11]) + Number(fields[12])) * 1000) / 100]);
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return threads;
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? 0;
const fmt = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1));
let mismatches = 0;
const compare = (p: Probe, server: Answer, floorAnswer: Answer) => {
  if (server.total !== floorAnswer.total || server.links.join('\n') !== floorAnswer.links.join('\n')) {
    mismatches++;
    if (mismatches <= 5) console.error(`differs: ${p.filter} ORDER BY ${p.orderBy} ${p.direction}: server total ${server.total}, floor ${floorAnswer.total}`);
  }
};

async function pool<T>(items: readonly T[], connections: number, work: (item: T, at: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, async (_, at) => {
    while (next < items.length) await work(items[next++]!, at);
  }));
  return (performance.now() - started) / 1000;
}

try {
  const load = loadavg().map((n) => n.toFixed(2)).join(', ');
  // Warm-up: a few calls with filters not used later, both sides.
  for (let i = 0; i < 10; i++) {
    const p = probe();
    await call(p, 0);
    await floor(p, 0);
  }
  const single = Array.from({ length: COUNT }, probe);
  const serverMs: number[] = [];
  const floorMs: number[] = [];
  for (const [i, p] of single.entries()) {
    const [s, f] = i % 2 === 0 ? [await call(p, 0), await floor(p, 0)] : await (async () => { const f = await floor(p, 0); return [await call(p, 0), f]; })();
    serverMs.push(s.ms);
    floorMs.push(f.ms);
    compare(p, s, f);
  }
  const ratios = serverMs.map((ms, i) => ms / floorMs[i]!);
  const singleParts = floorParts.splice(0);
  const concurrentServer = Array.from({ length: COUNT }, probe);
  const concurrentFloor = Array.from({ length: COUNT }, probe);
  const c10Server: number[] = [];
  const c10Floor: number[] = [];
  const serverCpu = cpuOf(server.pid);
  const threadsBefore = threadCpu(server.pid);
  const serverSeconds = await pool(concurrentServer, CONCURRENCY, async (p, at) => void c10Server.push((await call(p, at)).ms));
  const serverCpuMs = cpuOf(server.pid) - serverCpu;
  const threadsAfter = threadCpu(server.pid);
  const byName = new Map<string, number>();
  for (const [tid, [name, ms]] of threadsAfter) byName.set(tid === String(server.pid) ? 'main' : `${name}:${tid}`, ms - (threadsBefore.get(tid)?.[1] ?? 0));
  const floorCpu = process.cpuUsage();
  const floorSeconds = await pool(concurrentFloor, CONCURRENCY, async (p, at) => void c10Floor.push((await floor(p, at)).ms));
  const floorCpuUsed = process.cpuUsage(floorCpu);
  const floorCpuMs = (floorCpuUsed.user + floorCpuUsed.system) / 1000;
  console.log(`Cold calls on ${TARGET}, ${DB}; seed ${values.seed}; load average before ${load}, after ${loadavg().map((n) => n.toFixed(2)).join(', ')}.`);
  console.log('');
  console.log('| phase | n | server p50 | server p90 | server p99 | floor B p50 | floor B p90 | floor B p99 | p50 ratio | p99 ratio | req/s server / floor |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  console.log(`| one at a time | ${COUNT} | ${fmt(quantile(serverMs, 0.5))} | ${fmt(quantile(serverMs, 0.9))} | ${fmt(quantile(serverMs, 0.99))} | ${fmt(quantile(floorMs, 0.5))} | ${fmt(quantile(floorMs, 0.9))} | ${fmt(quantile(floorMs, 0.99))} | ${(quantile(serverMs, 0.5) / quantile(floorMs, 0.5)).toFixed(2)} | ${(quantile(serverMs, 0.99) / quantile(floorMs, 0.99)).toFixed(2)} | |`);
  console.log(`| ${CONCURRENCY} at a time | ${COUNT} | ${fmt(quantile(c10Server, 0.5))} | ${fmt(quantile(c10Server, 0.9))} | ${fmt(quantile(c10Server, 0.99))} | ${fmt(quantile(c10Floor, 0.5))} | ${fmt(quantile(c10Floor, 0.9))} | ${fmt(quantile(c10Floor, 0.99))} | ${(quantile(c10Server, 0.5) / quantile(c10Floor, 0.5)).toFixed(2)} | ${(quantile(c10Server, 0.99) / quantile(c10Floor, 0.99)).toFixed(2)} | ${(COUNT / serverSeconds).toFixed(0)} / ${(COUNT / floorSeconds).toFixed(0)} |`);
  console.log('');
  console.log(
    `Floor B one at a time, median of each part: keys and count from the column file ${fmt(quantile(singleParts.map((p) => p[0]), 0.5))} ms, ` +
      `the rows from SQLite as records ${fmt(quantile(singleParts.map((p) => p[1]), 0.5))} ms, JSON ${fmt(quantile(singleParts.map((p) => p[2]), 0.5))} ms.`,
  );
  console.log(`CPU per call at ${CONCURRENCY} at a time (every thread of the process: the server's, the floor's): server ${(serverCpuMs / COUNT).toFixed(2)} ms, floor B ${(floorCpuMs / COUNT).toFixed(2)} ms (the floor's includes no HTTP client; the server's includes its HTTP and JSON).`);
  console.log(`The server's CPU per call by thread name: ${[...byName].sort((a, b) => b[1] - a[1]).filter(([, ms]) => ms > 0).map(([name, ms]) => `${name} ${(ms / COUNT).toFixed(2)} ms`).join(', ')}.`);
  console.log(`Per-call ratio server / floor B, one at a time: median ${quantile(ratios, 0.5).toFixed(2)}, p90 ${quantile(ratios, 0.9).toFixed(2)}. Answers differing from the floor's: ${mismatches} of ${COUNT}.`);
} finally {
  await server.stop();
  for (const db of sqlites) db.close();
  sqlite.close();
  for (const connection of ducks) connection.closeSync();
  duck.closeSync();
  await cleanUp();
}
