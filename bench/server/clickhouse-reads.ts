/**
 * Rows read per call on the ClickHouse cluster (two shards, or `--shards N`), as ClickHouse counts them: each of the
 * 13 default calls of calls.ts (and a few filtered `links` calls) sent once to a running `serve`,
 * then again (the second time the server's own caches may answer), and each call's statements
 * read back from `system.query_log` of every shard by their `query_id` (the store names a call's
 * statements `<request id>-<n>`, the request id being the answer's X-Request-Id; a shard's part of
 * a distributed statement has the statement's id as its `initial_query_id`). Prints Markdown.
 *
 *   node --import tsx bench/server/clickhouse-reads.ts --links 100000 --data /work/bench-data-ch
 *   node --import tsx bench/server/clickhouse-reads.ts --links 1000000 --filters off
 *   node --import tsx bench/server/clickhouse-reads.ts --links 100000 --shards 4 --data /work/bench-data-ch4
 *   node --import tsx bench/server/clickhouse-reads.ts --links 1000000 --spread-above 100000 --data /work/bench-data-ch
 *
 * With `--spread-above N` the calls go to a copy of the database (`bench_links_<links>_spread_<N>`,
 * made once, beside it) in which the domains of more than N links are spread over every shard: a
 * store opened with `spreadAbove: N` writes one domain record again, and its load moves them.
 *
 * The cluster, its databases (seeded when missing), the key file and the server are the
 * benchmark's own (clickhouse-cluster.ts, databases.ts, server-process.ts, as run.ts uses them).
 * A cluster of N shards other than two (BQ_CLICKHOUSE_SHARDS=N for the script) keeps everything in
 * DATA/shards-N/, so that databases seeded on 2 and on 4 shards never share a folder.
 *
 * What 18.16's log leaves out: the rows read by a local `IN (SELECT ...)` subquery and by a scalar
 * `(SELECT ...)` subquery (`GLOBAL IN`, `JOIN` and `FROM` subqueries are counted). They are added
 * here by running each such subquery of each logged statement alone, on the shard that ran the
 * statement, and reading its own log line (and so on for the subqueries inside it), each distinct
 * subquery of a statement once. Beside it, `SelectedMarks` (the granules each shard's index chose
 * for the statement, its subqueries included; from the log's ProfileEvents) is a count no
 * subquery escapes.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadServerDeps, type DomainParser } from '../../src/server/deps.js';
import { ClickhouseShard } from '../../src/server/store/engines/clickhouse/connection.js';
import { raw, sql } from '../../src/server/store/fragment.js';
import type { Store } from '../../src/server/store/store.js';
import { benchCalls, callPath, largestTargets, type BenchCall } from './calls.js';
import { startClickhouseCluster } from './clickhouse-cluster.js';
import { BENCH_KEY, clickhouseDatabase, clickhouseLedger, forgetSeeds, NOW, prepareDataDir, SEED, writeKeyFile } from './databases.js';
import { cleanUp } from './processes.js';
import { startServerProcess } from './server-process.js';

const log = (text: string) => process.stderr.write(`${text}\n`);

const HELP = `Usage: node --import tsx bench/server/clickhouse-reads.ts [options]

  --links N          the database's size (default 100000), seeded into DATA/clickhouse/ when missing
  --data DIR         the benchmark's data folder (default .bench-data/)
  --filters on|off   a few filtered links calls after the 13 default ones (default on)
  --shards N         the cluster's shards (default 2); N other than 2 keeps its cluster, ledger
                     and seed records in DATA/shards-N/ (2- and N-shard data never mix)
  --spread-above N   read a copy of the database whose domains of more than N links are spread
                     over every shard (made once, beside the database)
`;

/**
 * A copy of the database `from` as `to` (every shard's local tables; the store makes the
 * Distributed ones), whose domains of more than `spreadAbove` links are moved over every shard by
 * a load of one domain record through a store opened with that threshold. Made once: a copy whose
 * `spread` table holds a domain is kept.
 */
async function spreadCopy(cluster: Awaited<ReturnType<typeof startClickhouseCluster>>, from: string, to: string, spreadAbove: number, parser: DomainParser): Promise<void> {
  const entry = cluster.shards[0]!;
  const done = await cluster.query(entry, `SELECT count() FROM system.tables WHERE database = '${to}' AND name = 'spread'`);
  if (done.trim() === '1' && Number((await cluster.query(entry, `SELECT count() FROM ${to}.spread`)).trim()) > 0) return;
  log(`[reads] copying ${from} to ${to} and spreading its domains of more than ${n(spreadAbove)} links`);
  await Promise.all(
    cluster.shards.map(async (shard) => {
      await cluster.query(shard, `DROP DATABASE IF EXISTS ${to}`);
      await cluster.query(shard, `CREATE DATABASE ${to}`);
      const tables = (await cluster.query(shard, `SELECT name FROM system.tables WHERE database = '${from}' AND engine != 'Distributed' ORDER BY name`)).trim().split('\n').filter(Boolean);
      for (const table of tables) {
        await cluster.query(shard, `CREATE TABLE ${to}.${table} AS ${from}.${table}`);
        await cluster.query(shard, `INSERT INTO ${to}.${table} SELECT * FROM ${from}.${table}`);
      }
    }),
  );
  const { openLedgerAt } = await import('../../src/server/store/open.js');
  const { openClickhouseStore } = await import('../../src/server/store/engines/clickhouse/clickhouse-store.js');
  const store = await openClickhouseStore({ urls: cluster.shards, database: to, parser, spreadAbove, ledger: await openLedgerAt({ kind: 'sqlite', file: ':memory:' }, parser) });
  try {
    const [record] = (await cluster.query(entry, `SELECT domain, ip_address, country, domain_score FROM ${to}.domains_local FINAL LIMIT 1 FORMAT JSONEachRow`)).trim().split('\n');
    const domain = JSON.parse(record!) as { domain: string; ip_address: string; country: string; domain_score: string };
    const writer = await store.writer();
    await writer.domains([{ ...domain, domain_score: Number(domain.domain_score) }]);
    const started = performance.now();
    await writer.finish();
    log(`[reads] the load that moved them took ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await store.close();
  }
}

/** A few filtered calls beside the 13 (the filtered, sorted links call is one of those). */
function filteredCalls(top: string): BenchCall[] {
  const target = { url: top, scope: 'ROOT_DOMAIN' };
  return [
    { name: "links, domain_score > 50 AND anchor LIKE '%seo%'", operation: 'links', query: { ...target, filter: "domain_score > 50 AND anchor LIKE '%seo%'" } },
    { name: 'links, is_nofollow = true, by domain_score', operation: 'links', query: { ...target, filter: 'is_nofollow = true', order_by: 'domain_score' } },
    { name: "ref-domains, domain_score > 50", operation: 'ref-domains', query: { ...target, filter: 'domain_score > 50' } },
  ];
}

/** One finished statement in a shard's log. */
interface Line {
  readonly query_id: string;
  readonly initial_query_id: string;
  readonly is_initial_query: number;
  readonly read_rows: number;
  readonly read_bytes: number;
  readonly result_rows: number;
  readonly query_duration_ms: number;
  readonly marks: number;
  readonly query: string;
}

/** What one call cost. */
interface Reads {
  readonly call: BenchCall;
  readonly status: number;
  readonly requestId: string;
  readonly ms: number;
  /** Each shard's lines (index = shard). */
  lines: Line[][];
  /** Rows and bytes of the uncounted subqueries, run alone; the subqueries that could not be. */
  subRows: number;
  subBytes: number;
  subFailed: string[];
  /** Each subquery run alone: the shard it ran on, its text, what it read. */
  subs: { shard: number; text: string; rows: number }[];
  /** What the subqueries run alone read on each shard. */
  subByShard: number[];
}

/**
 * The rows each shard read itself, from lines of every shard: a statement's `read_rows` includes
 * what its parts on other shards read (their lines have its id as initial_query_id), so those are
 * taken from it and counted where they ran.
 */
function rowsByShard(lines: readonly (readonly Line[])[]): number[] {
  const parts = new Map<string, number>();
  for (const line of lines.flat()) if (line.is_initial_query === 0) parts.set(line.initial_query_id, (parts.get(line.initial_query_id) ?? 0) + line.read_rows);
  return lines.map((shard) => shard.reduce((sum, line) => sum + line.read_rows - (line.is_initial_query === 1 ? (parts.get(line.query_id) ?? 0) : 0), 0));
}

/**
 * The subqueries 18.16's `read_rows` leaves out, at the top level of `text` (those inside them are
 * found when they run alone): `IN (SELECT ...)` that is not `GLOBAL IN`, and scalar `(SELECT ...)`.
 * Subqueries after FROM, JOIN and GLOBAL IN are counted by the server, and searched inside.
 */
export function uncountedSubqueries(text: string): string[] {
  type Kind = 'counted' | 'in' | 'other';
  const stack: { start: number; kind: Kind }[] = [];
  const found: { start: number; end: number }[] = [];
  const kindBefore = (at: number, parent: Kind | undefined): Kind => {
    const before = text.slice(0, at).trimEnd();
    if (before.endsWith('(')) return parent ?? 'other';
    const words = before.toUpperCase().split(/[^A-Z0-9_]+/).filter((word) => word !== '');
    const [last, prev, prev2] = [words.at(-1), words.at(-2), words.at(-3)];
    if (!/[A-Za-z0-9_]$/.test(before)) return 'other';
    if (last === 'FROM' || last === 'JOIN') return 'counted';
    if (last === 'IN') return prev === 'GLOBAL' || (prev === 'NOT' && prev2 === 'GLOBAL') ? 'counted' : 'in';
    return 'other';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'" || c === '`' || c === '"') {
      // A quoted literal or name: backslash escapes, and a doubled quote.
      for (i++; i < text.length; i++) {
        if (text[i] === '\\') i++;
        else if (text[i] === c) {
          if (text[i + 1] === c) i++;
          else break;
        }
      }
    } else if (c === '(') stack.push({ start: i, kind: kindBefore(i, stack.at(-1)?.kind) });
    else if (c === ')') {
      const group = stack.pop();
      if (!group) continue;
      const inner = text.slice(group.start + 1, i);
      if (group.kind !== 'counted' && /^\s*(SELECT|WITH)\b/i.test(inner)) found.push({ start: group.start + 1, end: i });
    }
  }
  // The outermost only: inner ones are found when the outer runs alone.
  const outer = found.filter((f) => !found.some((g) => g !== f && g.start <= f.start && f.end <= g.end));
  return [...new Set(outer.map((f) => text.slice(f.start, f.end).trim()))];
}

/** Runs SQL text on a shard with a query id, the answer discarded. */
async function runAlone(shard: string, database: string, text: string, queryId: string): Promise<void> {
  const url = new URL(`${shard}/`);
  url.searchParams.set('database', database);
  url.searchParams.set('query_id', queryId);
  // The store's settings that change what a query does (connection.ts).
  url.searchParams.set('join_use_nulls', '1');
  url.searchParams.set('join_default_strictness', 'ALL');
  const response = await fetch(url, { method: 'POST', body: `${text}\nFORMAT Null`, signal: AbortSignal.timeout(600_000) });
  const body = await response.text();
  if (!response.ok) throw new Error(body.trim().split('\n')[0]!.slice(0, 300));
}

const COLUMNS = raw(`query_id, initial_query_id, is_initial_query, read_rows, read_bytes, result_rows, query_duration_ms,
  arraySum(arrayFilter((v, n) -> n = 'SelectedMarks', ProfileEvents.Values, ProfileEvents.Names)) AS marks, query`);

async function flush(shards: readonly ClickhouseShard[]): Promise<void> {
  await Promise.all(shards.map((shard) => shard.run(raw('SYSTEM FLUSH LOGS'), { database: null })));
}

/** Every finished statement of each shard whose initial_query_id starts with `prefix`. */
async function linesOf(shards: readonly ClickhouseShard[], prefix: string): Promise<Line[][]> {
  return Promise.all(
    shards.map(async (shard) =>
      (await shard.all<Line>(sql`SELECT ${COLUMNS} FROM system.query_log WHERE type = 2 AND startsWith(initial_query_id, ${prefix}) ORDER BY query_start_time, query_id`)).map(
        (line) => ({ ...line, is_initial_query: Number(line.is_initial_query), read_rows: Number(line.read_rows), read_bytes: Number(line.read_bytes),
          result_rows: Number(line.result_rows), query_duration_ms: Number(line.query_duration_ms), marks: Number(line.marks) }),
      ),
    ),
  );
}

/**
 * Adds to `reads` what the uncounted subqueries of its statements read: each run alone on the
 * statement's shard (its own log line read back), and the subqueries inside it the same way.
 */
async function addSubqueries(reads: Reads, shards: readonly ClickhouseShard[], database: string): Promise<void> {
  const pending: { shard: number; text: string }[] = [];
  reads.lines.forEach((lines, shard) => {
    for (const line of lines) for (const text of uncountedSubqueries(line.query)) pending.push({ shard, text });
  });
  for (let depth = 0; pending.length > 0 && depth < 5; depth++) {
    const batch = pending.splice(0);
    const prefix = `reads-${randomUUID()}-`;
    const ran: { shard: number; text: string; id: string }[] = [];
    for (const [i, { shard, text }] of batch.entries()) {
      const id = `${prefix}${i + 1}`;
      try {
        await runAlone(shards[shard]!.url, database, text, id);
        ran.push({ shard, text, id });
      } catch (error) {
        reads.subFailed.push(`${text.slice(0, 120)}...: ${(error as Error).message}`);
      }
    }
    await flush(shards);
    const lines = await linesOf(shards, prefix);
    rowsByShard(lines).forEach((rows, shard) => (reads.subByShard[shard] = (reads.subByShard[shard] ?? 0) + rows));
    for (const { shard, text, id } of ran) {
      // Its own line (on the shard it ran on) holds what its parts on other shards read too.
      const own = lines[shard]!.find((line) => line.query_id === id);
      if (!own) {
        reads.subFailed.push(`${text.slice(0, 120)}...: no log line`);
        continue;
      }
      reads.subRows += own.read_rows;
      reads.subBytes += own.read_bytes;
      reads.subs.push({ shard, text, rows: own.read_rows });
      for (const inner of uncountedSubqueries(text)) pending.push({ shard, text: inner });
    }
  }
}

/** Sends a call to the server; its status, request id and time. */
async function send(url: string, call: BenchCall): Promise<{ status: number; requestId: string; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${url}${callPath(call)}`, { headers: { authorization: `Apikey ${BENCH_KEY.key}` } });
  await response.arrayBuffer();
  const ms = performance.now() - started;
  const requestId = response.headers.get('x-request-id') ?? '';
  if (!/^[0-9a-f-]{36}$/.test(requestId)) throw new Error(`${call.name}: the answer has no X-Request-Id UUID (${JSON.stringify(requestId)})`);
  return { status: response.status, requestId, ms };
}

const n = (value: number) => value.toLocaleString('en-US');
const initial = (reads: Reads) => reads.lines.flat().filter((line) => line.is_initial_query === 1);

function summary(title: string, all: readonly Reads[], shardCount: number): string {
  const rows = all.map((r) => {
    const statements = initial(r);
    const logRows = statements.reduce((sum, line) => sum + line.read_rows, 0);
    const logBytes = statements.reduce((sum, line) => sum + line.read_bytes, 0);
    const touched = r.lines.map((lines, s) => (lines.length > 0 ? String(s + 1) : '')).filter((s) => s !== '');
    const marks = r.lines.flat().reduce((sum, line) => sum + line.marks, 0);
    const serverMs = statements.reduce((sum, line) => sum + line.query_duration_ms, 0);
    const sub = r.subFailed.length > 0 ? `${n(r.subRows)} (+${r.subFailed.length} not run)` : n(r.subRows);
    const byShard = rowsByShard(r.lines).map((rows, s) => rows + (r.subByShard[s] ?? 0));
    return `| ${r.call.name} | ${r.status} | ${touched.join(', ') || 'none'} | ${statements.length} | ${n(logRows)} | ${sub} | **${n(logRows + r.subRows)}** | ${byShard.map(n).join(' / ')} | ${n(logBytes + r.subBytes)} | ${n(marks)} | ${n(statements.reduce((sum, line) => sum + line.result_rows, 0))} | ${n(serverMs)} | ${r.ms.toFixed(1)} |`;
  });
  return [
    `### ${title}`,
    '',
    `| call | status | shards touched | statements | rows read (query_log) | + subqueries run alone | rows read | by shard ${Array.from({ length: shardCount }, (_, i) => i + 1).join(' / ')} | bytes read | marks selected | result rows | server ms (sum) | call ms |`,
    '| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
  ].join('\n');
}

function details(r: Reads): string {
  const rows = r.lines.flatMap((lines, s) =>
    lines.map((line) => {
      const name = line.is_initial_query === 1 ? line.query_id.slice(r.requestId.length + 1) : `part of ${line.initial_query_id.slice(r.requestId.length + 1)}`;
      const text = line.query.replace(/\s+/g, ' ').slice(0, 110).replace(/\|/g, '\\|');
      return `| ${s + 1} | ${name} | ${n(line.read_rows)} | ${n(line.read_bytes)} | ${n(line.marks)} | ${n(line.result_rows)} | ${line.query_duration_ms} | \`${text}\` |`;
    }),
  );
  return [
    `#### ${r.call.name} (request ${r.requestId})`,
    '',
    '| shard | statement | read_rows | read_bytes | marks | result rows | ms | query |',
    '| ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows,
    ...r.subs.map((sub) => `| ${sub.shard + 1} | subquery, run alone | ${n(sub.rows)} | | | | | \`${sub.text.replace(/\s+/g, ' ').slice(0, 110).replace(/\|/g, '\\|')}\` |`),
    ...(r.subFailed.length > 0 ? ['', ...r.subFailed.map((f) => `- subquery not run alone: ${f}`)] : []),
  ].join('\n');
}

async function main(): Promise<void> {
  const args = new Map<string, string>();
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return void process.stdout.write(HELP);
    const value = argv[++i];
    if (!['--links', '--data', '--filters', '--shards', '--spread-above'].includes(arg) || value === undefined) throw new Error(`Unexpected ${arg}.\n\n${HELP}`);
    args.set(arg.slice(2), value);
  }
  const links = Number((args.get('links') ?? '100000').replace(/_/g, ''));
  if (!Number.isSafeInteger(links) || links < 1) throw new Error(`--links takes a positive integer, got ${args.get('links')}`);
  const filters = (args.get('filters') ?? 'on') === 'on';
  const shardCount = Number(args.get('shards') ?? '2');
  if (!Number.isSafeInteger(shardCount) || shardCount < 1) throw new Error(`--shards takes a positive integer, got ${args.get('shards')}`);
  const spreadAbove = args.has('spread-above') ? Number(args.get('spread-above')!.replace(/_/g, '')) : undefined;
  if (spreadAbove !== undefined && (!Number.isSafeInteger(spreadAbove) || spreadAbove < 1)) throw new Error(`--spread-above takes a positive integer, got ${args.get('spread-above')}`);
  process.env.BQ_CLICKHOUSE_SHARDS = String(shardCount);
  const data = join(resolve(args.get('data') ?? '.bench-data'), shardCount === 2 ? '' : `shards-${shardCount}`);
  prepareDataDir(data);
  const keyFile = writeKeyFile(data);
  const { tldts } = await loadServerDeps();

  const cluster = await startClickhouseCluster(join(data, 'clickhouse'), shardCount);
  try {
    if (cluster.fresh) {
      forgetSeeds(data, 'clickhouse');
      rmSync(clickhouseLedger(data), { force: true });
    }
    const seeded = await clickhouseDatabase(data, cluster, links);
    let database = `bench_links_${links}`;
    let db = seeded;
    if (spreadAbove !== undefined) {
      const spread = `${database}_spread_${spreadAbove}`;
      await spreadCopy(cluster, database, spread, spreadAbove, tldts);
      const location = `${seeded.location.replace(`/${database}?`, `/${spread}?`)}&spread_above=${spreadAbove}`;
      db = { ...seeded, location, serveArgs: ['--database-url', location] };
      database = spread;
    }
    const shards = cluster.shards.map((url) => new ClickhouseShard({ url, database: 'system', timeoutMs: 120_000 }));
    // The largest targets, read by a store of this process (its statements are not a call's).
    const { clickhouseLocation } = await import('../../src/cli/server/location.js');
    const { openLedgerAt } = await import('../../src/server/store/open.js');
    const { openClickhouseStore } = await import('../../src/server/store/engines/clickhouse/clickhouse-store.js');
    const where = clickhouseLocation(db.location);
    if (typeof where === 'string') throw new Error(where);
    let store: Store | undefined = await openClickhouseStore({ urls: where.shards, database: where.database, cluster: where.cluster, parser: tldts,
      ledger: await openLedgerAt({ kind: 'sqlite', file: ':memory:' }, tldts) });
    const targets = await largestTargets(store, tldts, { links, seed: SEED, now: new Date(`${NOW}T00:00:00Z`) });
    await store.close();
    store = undefined;
    const calls = [...benchCalls(targets), ...(filters ? filteredCalls(targets.largest[0]!.domain) : [])];
    log(`[reads] ${n(links)} links; largest targets ${targets.largest.map((t) => `${t.domain} (${n(t.backlinks)})`).join(', ')}`);

    const server = await startServerProcess(db.serveArgs, keyFile);
    const passes: Reads[][] = [];
    try {
      for (let pass = 0; pass < 2; pass++) {
        const done: Reads[] = [];
        for (const call of calls) {
          const sent = await send(server.url, call);
          done.push({ call, ...sent, lines: [], subRows: 0, subBytes: 0, subFailed: [], subs: [], subByShard: [] });
          if (sent.status !== 200) log(`[reads] ${call.name}: status ${sent.status}`);
        }
        passes.push(done);
      }
    } finally {
      await server.stop();
    }
    await flush(shards);
    for (const done of passes) {
      for (const reads of done) {
        reads.lines = await linesOf(shards, `${reads.requestId}-`);
        await addSubqueries(reads, shards, database);
      }
    }
    const top = targets.largest[0]!;
    process.stdout.write(
      [
        `## Rows read per call: ClickHouse ${cluster.version}, ${shardCount} shards, ${n(links)} links (seed ${SEED}), largest target ${top.domain} (${n(top.backlinks)} links)${
          spreadAbove === undefined ? '' : `, domains of more than ${n(spreadAbove)} links spread over every shard`
        }`,
        '',
        'Each call sent once to a server just started (its own caches empty), then each once more; its statements found on every shard by',
        'their query_id (`<X-Request-Id>-<n>`; a shard\'s part of a distributed statement by its initial_query_id) in `system.query_log`',
        '(type 2, QueryFinish). "rows read (query_log)": `read_rows` of the statements the store sent, which include their parts on other',
        'shards. 18.16 leaves out what local `IN (SELECT ...)` and scalar `(SELECT ...)` subqueries read: "+ subqueries run alone" is',
        'what each such subquery (each distinct one of a statement, once) read when run alone on the same shard, its own subqueries',
        'likewise. "rows read" is the sum; "by shard" splits it by where each part ran. "marks selected": granules chosen by the',
        'primary key over every shard (ProfileEvents `SelectedMarks`, subqueries included; 1,024 rows each on links and rollups, 256 on',
        'keyword metrics). Bytes are uncompressed. A statement reading `write_marks_local` is the store\'s merge state, read at most every 200 ms.',
        '',
        summary('First call of each (the server\'s caches empty)', passes[0]!, shardCount),
        '',
        summary('Second call of each', passes[1]!, shardCount),
        '',
        '### Statements of each first call',
        '',
        ...passes[0]!.flatMap((r) => [details(r), '']),
      ].join('\n'),
    );
  } finally {
    await cluster.stop();
  }
}

// Run as a script (not when imported for its subquery finder).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`\n${signal}: stopping the server and the cluster`);
      void cleanUp().finally(() => process.exit(130));
    });
  }
  main().catch(async (error: unknown) => {
    log(`clickhouse-reads failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    await cleanUp();
    process.exitCode = 1;
  });
}
