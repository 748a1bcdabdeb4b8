/**
 * `npm run bench:server`: the reference server under autocannon on SQLite, PostgreSQL and a
 * two-shard ClickHouse cluster, at several database sizes, and the report bench/RESULTS.md.
 *
 * For each store and size: the database (seeded once into --data and reused), the three largest
 * targets, each call's direct in-process time, then the server in a child process: a probe per
 * call, autocannon at concurrency 1 and 10 per call, the generated-filter workload (generated.ts,
 * generated-run.ts; --generated), and the mixed load at concurrency 50 where asked. Beside it, the
 * baseline: a bare Fastify route in another child process (bare-route.ts) answering each call with
 * the bytes the server answered, measured right after the server on each call and on the mixed
 * load. Any non-2xx answer, a failed check of the generated workload, or a server that fails to
 * start, makes the run exit non-zero (the report is still written, with the failures at its top).
 *
 *   npm run bench:server -- --sizes 100000,1000000 --stores sqlite,postgres --duration 10 --mixed-duration 30
 *   npm run bench:server -- --sizes 100000 --clickhouse-sizes 100000,10000000 --stores sqlite,clickhouse
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clockAt } from '../../src/server/clock.js';
import { loadServerDeps, loadStoreDeps, type DomainParser } from '../../src/server/deps.js';
import type { Store } from '../../src/server/store/store.js';
import { measuredSizes, parseOptions, type BenchOptions } from './args.js';
import { answerBytes, captureAnswers, startBareRoute, type BareRoute } from './bare-route-process.js';
import { benchCalls, callPath, largestTargets, mixedCalls, type BenchCall } from './calls.js';
import { startClickhouseCluster, type ClickhouseCluster } from './clickhouse-cluster.js';
import {
  BENCH_KEY,
  clickhouseDatabase,
  clickhouseLedger,
  forgetSeeds,
  NOW,
  pgQuery,
  postgresDatabase,
  prepareDataDir,
  SEED,
  sqliteDatabase,
  writeKeyFile,
  type BenchDatabase,
} from './databases.js';
import { measureDirect } from './direct.js';
import { runGeneratedPhase } from './generated-run.js';
import { failed, load, type LoadResult } from './load.js';
import { startCluster, type PostgresCluster } from './postgres-cluster.js';
import { cleanUp, run } from './processes.js';
import { importSection } from '../import-run.js';
import { failures, renderReport, type CallResult, type DatabaseFailure, type DatabaseResult, type Environment } from './report.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

const log = (text: string) => process.stderr.write(`${text}\n`);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const nowDate = new Date(`${NOW}T00:00:00Z`);

async function openDirect(db: BenchDatabase, parser: DomainParser): Promise<Store> {
  if (db.store === 'embedded') {
    const { openEmbeddedStore } = await import('../../src/server/store/engines/embedded/embedded-store.js');
    // Read-only: the server process opens the column file for writing (DuckDB allows one writer).
    return openEmbeddedStore({ file: db.location, parser, readOnly: true });
  }
  if (db.store === 'sqlite') {
    const { openSqliteStore } = await import('../../src/server/store/engines/sqlite/sqlite-store.js');
    return openSqliteStore({ file: db.location, parser });
  }
  if (db.store === 'postgres') {
    const { openPostgresStore } = await import('../../src/server/store/engines/postgres/postgres-store.js');
    return openPostgresStore({ url: db.location, parser });
  }
  // ClickHouse: the store on the cluster's shards, as `serve --database-url clickhouse://...` opens
  // it, with a ledger of its own in memory (the direct calls charge nothing; the server's ledger
  // file stays the server's).
  const { clickhouseLocation } = await import('../../src/cli/server/location.js');
  const { openLedgerAt } = await import('../../src/server/store/open.js');
  const { openClickhouseStore } = await import('../../src/server/store/engines/clickhouse/clickhouse-store.js');
  const where = clickhouseLocation(db.location);
  if (typeof where === 'string') throw new Error(where);
  const ledger = await openLedgerAt({ kind: 'sqlite', file: ':memory:' }, parser);
  try {
    return await openClickhouseStore({ urls: where.shards, database: where.database, cluster: where.cluster, parser, ledger });
  } catch (error) {
    await ledger.close();
    throw error;
  }
}

/** One call before the load: it must answer 200; its row count goes in the report. */
async function probe(server: ServerProcess, call: BenchCall): Promise<CallResult['probe']> {
  const response = await fetch(`${server.url}${callPath(call)}`, { headers: { authorization: `Apikey ${BENCH_KEY.key}` } });
  const text = await response.text();
  if (response.status !== 200) return { status: response.status, rows: 0, total: undefined, error: `probe answered ${response.status}: ${text.slice(0, 300)}` };
  const body = JSON.parse(text) as { data: unknown; meta: { total?: number } };
  const rows = Array.isArray(body.data) ? body.data.length : 1;
  return { status: 200, rows, total: body.meta.total };
}

async function benchDatabase(db: BenchDatabase, options: BenchOptions, parser: DomainParser, keyFile: string): Promise<DatabaseResult> {
  const perOperation = measuredSizes(options, db.store).includes(db.links);
  const mixed = options.mixedSizes.includes(db.links);
  const where = `[${db.store} ${db.links.toLocaleString('en-US')}]`;

  // The direct store stays open while the server runs, so that each call's direct time is taken
  // just before its server time, under the same background load. It is idle during the loads.
  const store = await openDirect(db, parser);
  let server: ServerProcess | undefined;
  let bare: BareRoute | undefined;
  try {
    const targets = await largestTargets(store, parser, { links: db.links, seed: SEED, now: nowDate });
    const calls = benchCalls(targets);
    log(`${where} largest targets: ${targets.largest.map((t) => `${t.domain} (${t.backlinks.toLocaleString('en-US')})`).join(', ')}`);
    const bytes = await db.size();

    server = await startServerProcess(db.serveArgs, keyFile);
    log(`${where} server pid ${server.pid} at ${server.url}`);
    const running = server;
    const alive = () => {
      if (!running.alive()) throw new Error(`${where} the server died during the benchmark:\n${running.stderr()}`);
    };
    const probes = new Map<string, CallResult['probe']>();
    for (const call of calls) {
      const p = await probe(running, call);
      probes.set(call.name, p);
      if (p.error) log(`${where} ${call.name}: ${p.error}`);
    }
    const working = calls.filter((call) => !probes.get(call.name)!.error);
    // The baseline: the bytes the server answered to each call, served by a bare route in its own process.
    const captured = await captureAnswers(running.url, working);
    for (const f of captured.failures) log(`${where} ${f}`);
    const bytesOf = new Map(captured.answers.map((a) => [a.url, answerBytes(a)]));
    const bareCalls = working.filter((call) => bytesOf.has(callPath(call)));
    bare = await startBareRoute(captured.answers);
    log(`${where} bare route pid ${bare.pid} at ${bare.url}`);
    const bareRoute = bare;
    const bareAlive = () => {
      if (!bareRoute.alive()) throw new Error(`${where} the bare route died during the benchmark:\n${bareRoute.stderr()}`);
    };
    // Warm-up (JIT, pools, page cache): every call that answers, round robin, 10 connections; the bare route's the same way.
    const warmDuration = Math.min(3, options.duration);
    const warmUp = working.length > 0 ? await load(running.url, working, { connections: 10, duration: warmDuration }) : undefined;
    alive();
    const bareWarmUp = bareCalls.length > 0 ? await load(bareRoute.url, bareCalls, { connections: 10, duration: warmDuration }) : undefined;
    bareAlive();

    const results: CallResult[] = [];
    if (perOperation) {
      for (const call of calls) {
        const p = probes.get(call.name)!;
        if (p.error) {
          results.push({ call, probe: p });
          continue;
        }
        const direct = await measureDirect(store, parser, call, { now: nowDate, seconds: options.overheadDuration });
        const single = await load(running.url, [call], { connections: 1, duration: options.overheadDuration });
        alive();
        const c10 = await load(running.url, [call], { connections: 10, duration: options.duration });
        alive();
        // The same call on the bare route, right after, with the same connections and durations.
        const bareBytes = bytesOf.get(callPath(call));
        let bareResult: CallResult['bare'];
        if (bareBytes !== undefined) {
          const bareSingle = await load(bareRoute.url, [call], { connections: 1, duration: options.overheadDuration });
          bareAlive();
          const bareC10 = await load(bareRoute.url, [call], { connections: 10, duration: options.duration });
          bareAlive();
          bareResult = { bytes: bareBytes, single: bareSingle, load: bareC10 };
        }
        results.push({ call, probe: p, load: c10, single, direct, ...(bareResult ? { bare: bareResult } : {}) });
        const bad = failed(c10) || failed(single);
        if (c10.rps === 0 && !bad) log(`${where} ${call.name}: no response within the ${options.duration} s run at concurrency 10 (a longer --duration measures it)`);
        log(
          `${where} ${call.name.padEnd(26)} p50 ${c10.p50.toFixed(2)} ms  p99 ${c10.p99.toFixed(2)} ms  ${Math.round(c10.rps)} req/s  ` +
            `c1 ${single.p50.toFixed(2)} ms / direct ${direct.refused ? `refused (${direct.refused})` : `${direct.p50.toFixed(2)} ms`}` +
            (bareResult ? ` / bare c1 ${bareResult.single.p50.toFixed(2)} ms, c10 ${Math.round(bareResult.load.rps)} req/s` : ' / bare not measured') +
            `${bad ? `  FAILED: ${JSON.stringify(c10.statusCodes)} ${JSON.stringify(single.statusCodes)}` : ''}` +
            `${bareResult && (failed(bareResult.single) || failed(bareResult.load)) ? `  BARE FAILED: ${JSON.stringify(bareResult.load.statusCodes)} ${JSON.stringify(bareResult.single.statusCodes)}` : ''}`,
        );
      }
    }
    // The generated-filter workload, right after the per-operation calls, on the same server process.
    // Floor B (bench/server/floor.ts) reads the embedded store's two files beside the server; the other stores have none.
    const floor = db.store === 'embedded' ? { file: db.location, parser, newSince: clockAt(nowDate).newSince } : { none: 'floor B reads the embedded store\'s files' };
    const generated =
      perOperation && options.generated
        ? await runGeneratedPhase(running.url, { targets, calls, options, file: join(options.data, `generated-${db.store}-${db.links}.ndjson`), log: (t) => log(`${where} ${t}`), floor })
        : undefined;
    alive();
    let mixedResult: LoadResult | undefined;
    let bareMixed: LoadResult | undefined;
    if (mixed) {
      if (working.length < calls.length) log(`${where} mixed load skipped: ${calls.filter((c) => !working.includes(c)).map((c) => c.name).join(', ')} failed the probe`);
      else {
        const twelve = mixedCalls(calls);
        log(`${where} mixed load: ${twelve.length} operations, 50 connections, ${options.mixedDuration} s`);
        mixedResult = await load(running.url, twelve, { connections: 50, duration: options.mixedDuration });
        alive();
        log(`${where} mixed: ${Math.round(mixedResult.rps)} req/s, p50 ${mixedResult.p50.toFixed(2)} ms, p99 ${mixedResult.p99.toFixed(2)} ms, status ${JSON.stringify(mixedResult.statusCodes)}`);
        // The same twelve calls on the bare route, right after the server's run.
        if (twelve.every((call) => bytesOf.has(callPath(call)))) {
          bareMixed = await load(bareRoute.url, twelve, { connections: 50, duration: options.mixedDuration });
          bareAlive();
          log(`${where} mixed, bare route: ${Math.round(bareMixed.rps)} req/s, p50 ${bareMixed.p50.toFixed(2)} ms, p99 ${bareMixed.p99.toFixed(2)} ms, status ${JSON.stringify(bareMixed.statusCodes)}`);
        } else log(`${where} mixed load on the bare route skipped: a call's answer could not be captured`);
      }
    }
    const bareExit = await bareRoute.stop();
    const bareFailures = [...captured.failures, ...(bareExit === 0 ? [] : [`the bare route exited with ${bareExit} when stopped: ${bareRoute.stderr().trim().split('\n').at(-1) ?? ''}`])];
    if (bareExit !== 0) log(`${where} the bare route exited with ${bareExit} when stopped:\n${bareRoute.stderr()}`);
    const serverExit = await running.stop();
    const serverStderr = running
      .stderr()
      .split('\n')
      .filter((line) => line.trim() !== '' && line.trim() !== 'Server closed; database closed.')
      .join('\n');
    return {
      store: db.store,
      links: db.links,
      targets,
      bytes,
      seed: db.seed,
      seededNow: db.seededNow,
      ...(warmUp ? { warmUp } : {}),
      ...(perOperation ? { calls: results } : {}),
      ...(generated ? { generated } : {}),
      ...(mixedResult ? { mixed: mixedResult } : {}),
      ...(bareWarmUp ? { bareWarmUp } : {}),
      ...(bareMixed ? { bareMixed } : {}),
      ...(bareFailures.length > 0 ? { bareFailures } : {}),
      serverExit,
      serverStderr,
    };
  } finally {
    if (bare?.alive()) await bare.stop();
    if (server?.alive()) await server.stop();
    await store.close();
  }
}

async function sqliteVersion(): Promise<string> {
  const { Database } = await loadStoreDeps();
  const db = new Database(':memory:');
  try {
    return (db.prepare('select sqlite_version() AS v').get() as { v: string }).v;
  } finally {
    db.close();
  }
}

/** The commit and how many files under src/ differ from it (other people edit this tree). */
async function codeVersion(): Promise<string> {
  try {
    const head = (await run('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT })).stdout.trim();
    const dirty = (await run('git', ['status', '--porcelain', '--', 'src'], { cwd: ROOT })).stdout.split('\n').filter((line) => line.trim() !== '').length;
    return `commit ${head}${dirty > 0 ? ` + ${dirty} uncommitted file${dirty === 1 ? '' : 's'} under src/` : ', src/ clean'}`;
  } catch {
    return 'unknown (no git)';
  }
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const startedAt = new Date();
  const codeAtStart = await codeVersion();
  const loadBefore = loadavg();
  log(`bench:server: sizes ${options.sizes.join(', ')}; mixed ${options.mixedSizes.join(', ')}; stores ${options.stores.join(', ')}; data ${options.data}; load average ${loadBefore.map((n) => n.toFixed(2)).join(' ')}`);
  prepareDataDir(options.data);
  const keyFile = writeKeyFile(options.data);
  const { tldts } = await loadServerDeps();
  const sizes = [...new Set([...options.stores.flatMap((store) => measuredSizes(options, store)), ...options.mixedSizes])].sort((a, b) => a - b);

  let cluster: PostgresCluster | undefined;
  let clickhouse: ClickhouseCluster | undefined;
  const results: DatabaseResult[] = [];
  const broken: DatabaseFailure[] = [];
  let postgresVersion: string | undefined;
  try {
    if (options.stores.includes('postgres')) {
      cluster = await startCluster(join(options.data, 'postgres'));
      if (cluster.fresh) forgetSeeds(options.data, 'postgres');
    }
    if (options.stores.includes('clickhouse')) {
      clickhouse = await startClickhouseCluster(join(options.data, 'clickhouse'));
      if (clickhouse.fresh) {
        forgetSeeds(options.data, 'clickhouse');
        rmSync(clickhouseLedger(options.data), { force: true });
      }
    }
    for (const store of options.stores) {
      for (const size of sizes) {
        if (!measuredSizes(options, store).includes(size) && !options.mixedSizes.includes(size)) continue;
        // A size that cannot be seeded or served is reported (and fails the run) without losing the others.
        try {
          const db =
            store === 'sqlite' || store === 'embedded'
              ? await sqliteDatabase(options.data, size, store)
              : store === 'postgres'
                ? await postgresDatabase(options.data, cluster!, size)
                : await clickhouseDatabase(options.data, clickhouse!, size);
          results.push(await benchDatabase(db, options, tldts, keyFile));
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          log(`[${store} ${size.toLocaleString('en-US')}] FAILED: ${message}`);
          broken.push({ store, links: size, message });
        }
      }
    }
    if (cluster) postgresVersion = (await pgQuery<{ version: string }>(cluster.urlOf('postgres'), 'select version() AS version'))[0]!.version;
  } finally {
    await cluster?.stop();
    await clickhouse?.stop();
  }

  const cpu = cpus();
  const env: Environment = {
    commandLine: options.commandLine,
    startedAt,
    finishedAt: new Date(),
    cpus: `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown'}`,
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    os: `${type()} ${release()}`,
    node: process.version,
    sqlite: await sqliteVersion(),
    code: { start: codeAtStart, end: await codeVersion() },
    postgres: postgresVersion,
    postgresSettings: cluster?.settings,
    clickhouse: clickhouse ? `ClickHouse ${clickhouse.version}` : undefined,
    clickhouseSettings: clickhouse?.settings,
    loadBefore,
    loadAfter: loadavg(),
    duration: options.duration,
    overheadDuration: options.overheadDuration,
    mixedDuration: options.mixedDuration,
  };
  mkdirSync(dirname(options.out), { recursive: true });
  // The import's section (bench/import-run.ts writes it) is another run's: kept as it was.
  const kept = existsSync(options.out) ? importSection(readFileSync(options.out, 'utf8')) : '';
  writeFileSync(options.out, `${renderReport(env, results, broken)}${kept === '' ? '' : `\n${kept}`}`);
  // The raw measurements, next to the databases, for anyone who wants more than the report shows.
  writeFileSync(join(options.data, 'last-run.json'), `${JSON.stringify({ env, results, broken }, null, 2)}\n`);
  log(`wrote ${options.out}; load average after ${env.loadAfter.map((n) => n.toFixed(2)).join(' ')}`);
  const fails = failures(results, broken);
  if (fails.length > 0) {
    log(`\nFAILED (${fails.length}):\n${fails.map((f) => `  ${f}`).join('\n')}`);
    return 1;
  }
  return 0;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`\n${signal}: stopping the server and the database`);
    void cleanUp().finally(() => process.exit(130));
  });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  async (error: unknown) => {
    log(`bench:server failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    await cleanUp();
    process.exitCode = 1;
  },
);
