/**
 * The benchmark's databases in the data folder, reused between runs: a size is seeded only when
 * its database is missing (or was left half-written), and the seed's time and size are kept next
 * to it so a later run can still report them.
 *
 *   DIR/embedded/links-N.db        embedded stores (and links-N.db.duckdb, their column files)
 *   DIR/sqlite/links-N.db          SQLite databases
 *   DIR/postgres/                  the PostgreSQL cluster (databases bench_links_N)
 *   DIR/clickhouse/                the two-shard ClickHouse cluster (shard1/, shard2/: databases
 *                                  bench_links_N) and ledger.db, the SQLite ledger of its API keys
 *   DIR/meta/STORE-N.json          how each database was seeded
 *   DIR/keys.json                  the benchmark's API key
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StoreKind } from './args.js';
import type { ClickhouseCluster } from './clickhouse-cluster.js';
import type { PostgresCluster } from './postgres-cluster.js';
import { run, runStreaming } from './processes.js';
import type { SeedReport } from './seed-child.js';

/** Seed and clock of every benchmark database. */
export const SEED = 1;
export const NOW = '2026-06-15';

/** How a database was seeded (kept in DIR/meta). */
export interface SeedInfo extends SeedReport {
  readonly store: StoreKind;
  readonly seed: number;
  readonly now: string;
  /** When the seed ran (ISO). */
  readonly seededAt: string;
  /** Bytes on disk right after the seed. */
  readonly bytesAfterSeed: number;
}

/** A database ready to serve. */
export interface BenchDatabase {
  readonly store: StoreKind;
  readonly links: number;
  /** SQLite file, PostgreSQL URL or `clickhouse://` URL. */
  readonly location: string;
  /** The `serve` options that select it. */
  readonly serveArgs: readonly string[];
  readonly seed: SeedInfo;
  /** Whether this run seeded it. */
  readonly seededNow: boolean;
  /** Bytes on disk now. */
  size(): Promise<number>;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Makes the data folder (ignored by git: it holds a `.gitignore` of `*`). */
export function prepareDataDir(dir: string): void {
  for (const sub of ['', 'sqlite', 'meta']) mkdirSync(join(dir, sub), { recursive: true });
  const ignore = join(dir, '.gitignore');
  if (!existsSync(ignore)) writeFileSync(ignore, '# benchmark databases (npm run bench:server)\n*\n');
}

const metaFile = (dir: string, store: StoreKind, links: number) => join(dir, 'meta', `${store}-${links}.json`);

function readMeta(dir: string, store: StoreKind, links: number): SeedInfo | undefined {
  const file = metaFile(dir, store, links);
  if (!existsSync(file)) return undefined;
  const meta = JSON.parse(readFileSync(file, 'utf8')) as SeedInfo;
  return meta.links === links && meta.seed === SEED && meta.now === NOW ? meta : undefined;
}

/** Forgets every seed record of a store (its cluster was made again). */
export function forgetSeeds(dir: string, store: Exclude<StoreKind, 'sqlite' | 'embedded'>): void {
  for (const name of readdirSync(join(dir, 'meta'))) if (name.startsWith(`${store}-`)) rmSync(join(dir, 'meta', name));
}

/** Seconds the generator may take to draw a size's world (a feasible 2M world takes seconds). */
const WORLD_TIMEOUT_S = 180;

/**
 * Fails fast when the sample generator cannot draw the world of `links` links: `makeWorld` is
 * synchronous and gives no output, so a world it cannot finish would hang the seed silently.
 */
async function checkWorld(links: number): Promise<void> {
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/server/world-check.ts'), String(links), String(SEED)], {
      cwd: ROOT,
      timeoutMs: WORLD_TIMEOUT_S * 1000,
    });
    const world = JSON.parse(stdout.trim()) as { targets: number; referrers: number; seconds: number };
    process.stderr.write(`[seed] world of ${links.toLocaleString('en-US')} links: ${world.targets.toLocaleString('en-US')} targets, ${world.referrers.toLocaleString('en-US')} referring domains, drawn in ${world.seconds.toFixed(1)} s\n`);
  } catch (error) {
    throw new Error(
      `The sample generator did not draw the world of ${links.toLocaleString('en-US')} links within ${WORLD_TIMEOUT_S} s, so seeding this size would hang. ` +
        'makeWorld (src/server/sample/world.ts) gives every target and referring domain a unique name from uniqueName(), which retries random ' +
        'syllable words x TLDs until it finds an unused one; when the size needs more names than that space holds, it never returns.\n' +
        `(${(error as Error).message.split('\n')[0]})`,
    );
  }
}

async function seedChild(store: StoreKind, location: string, links: number): Promise<SeedReport> {
  await checkWorld(links);
  process.stderr.write(`[seed] ${store}: ${links.toLocaleString('en-US')} links, seed ${SEED}, now ${NOW}\n`);
  const stdout = await runStreaming(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'bench/server/seed-child.ts'), '--store', store, '--location', location, '--links', String(links), '--seed', String(SEED), '--now', NOW],
    { cwd: ROOT },
  );
  const last = stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(last) as SeedReport;
}

function sqliteBytes(file: string): number {
  let bytes = 0;
  for (const path of [file, `${file}-wal`]) if (existsSync(path)) bytes += statSync(path).size;
  return bytes;
}

const removeSqlite = (file: string) => {
  for (const suffix of ['', '-wal', '-shm', '-journal', '.duckdb', '.duckdb.wal']) rmSync(`${file}${suffix}`, { force: true });
};

/**
 * The SQLite database of `links` links (`sqlite`: SQLite alone, served with `--database-url
 * sqlite:FILE`; `embedded`: the default store, a SQLite file and its DuckDB column file
 * `FILE.duckdb`, served with `--db FILE`), seeded when missing.
 */
export async function sqliteDatabase(dir: string, links: number, store: 'sqlite' | 'embedded' = 'sqlite'): Promise<BenchDatabase> {
  mkdirSync(join(dir, store), { recursive: true });
  const file = join(dir, store, `links-${links}.db`);
  const bytes = () => sqliteBytes(file) + (store === 'embedded' ? fileBytes(`${file}.duckdb`) + fileBytes(`${file}.duckdb.wal`) : 0);
  let seed = existsSync(file) ? readMeta(dir, store, links) : undefined;
  const seededNow = seed === undefined;
  if (!seed) {
    // Seed into side files and rename them at the end: an interrupted seed leaves no database behind.
    const partial = `${file}.partial`;
    removeSqlite(file);
    removeSqlite(partial);
    const seededAt = new Date().toISOString();
    const report = await seedChild(store, partial, links);
    if (existsSync(`${partial}-wal`) && statSync(`${partial}-wal`).size > 0) throw new Error(`${partial}-wal was not checkpointed after the seed.`);
    rmSync(`${partial}-wal`, { force: true });
    rmSync(`${partial}-shm`, { force: true });
    renameSync(partial, file);
    // The column file records the SQLite file's id and generation, not its name: it moves with it.
    if (store === 'embedded') for (const suffix of ['.duckdb', '.duckdb.wal']) if (existsSync(`${partial}${suffix}`)) renameSync(`${partial}${suffix}`, `${file}${suffix}`);
    seed = { ...report, store, seed: SEED, now: NOW, seededAt, bytesAfterSeed: bytes() };
    writeFileSync(metaFile(dir, store, links), `${JSON.stringify(seed, null, 2)}\n`);
  }
  const serveArgs = store === 'embedded' ? ['--db', file] : ['--database-url', `sqlite:${file}`];
  return { store, links, location: file, serveArgs, seed, seededNow, size: async () => bytes() };
}

const fileBytes = (path: string) => (existsSync(path) ? statSync(path).size : 0);

/** Runs one statement on a PostgreSQL database. */
export async function pgQuery<Row>(url: string, text: string, values: unknown[] = []): Promise<Row[]> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as Row[];
  } finally {
    await client.end();
  }
}

/** The PostgreSQL database of `links` links in the cluster, seeded when missing. */
export async function postgresDatabase(dir: string, cluster: PostgresCluster, links: number): Promise<BenchDatabase> {
  const name = `bench_links_${links}`;
  const admin = cluster.urlOf('postgres');
  const url = cluster.urlOf(name);
  const exists = (await pgQuery(admin, 'SELECT 1 FROM pg_database WHERE datname = $1', [name])).length > 0;
  let seed = exists ? readMeta(dir, 'postgres', links) : undefined;
  const seededNow = seed === undefined;
  const size = async () => Number((await pgQuery<{ bytes: string }>(admin, 'SELECT pg_database_size($1) AS bytes', [name]))[0]!.bytes);
  if (!seed) {
    // A database without its seed record was left half-written: start again.
    if (exists) await pgQuery(admin, `DROP DATABASE "${name}"`);
    await pgQuery(admin, `CREATE DATABASE "${name}"`);
    const seededAt = new Date().toISOString();
    const report = await seedChild('postgres', url, links);
    seed = { ...report, store: 'postgres', seed: SEED, now: NOW, seededAt, bytesAfterSeed: await size() };
    writeFileSync(metaFile(dir, 'postgres', links), `${JSON.stringify(seed, null, 2)}\n`);
  }
  return { store: 'postgres', links, location: url, serveArgs: ['--database-url', url], seed, seededNow, size };
}

/** The SQLite ledger (API keys and charges) of the ClickHouse databases. */
export const clickhouseLedger = (dir: string) => join(dir, 'clickhouse', 'ledger.db');

/**
 * The ClickHouse database of `links` links on the cluster, seeded when missing: `bench_links_N` on
 * both shards, through `--database-url clickhouse://...` (the CLI's path), the ledger in
 * DIR/clickhouse/ledger.db. Its size is the bytes on disk of the database's active parts, summed
 * over both shards.
 */
export async function clickhouseDatabase(dir: string, cluster: ClickhouseCluster, links: number): Promise<BenchDatabase> {
  const name = `bench_links_${links}`;
  const url = cluster.urlOf(name, clickhouseLedger(dir));
  const onShards = async (text: string) => Promise.all(cluster.shards.map((shard) => cluster.query(shard, text)));
  const exists = (await onShards(`SELECT count() FROM system.databases WHERE name = '${name}'`)).every((answer) => answer.trim() === '1');
  let seed = exists ? readMeta(dir, 'clickhouse', links) : undefined;
  const seededNow = seed === undefined;
  const size = async () =>
    (await onShards(`SELECT sum(bytes_on_disk) FROM system.parts WHERE active AND database = '${name}'`)).reduce((sum, answer) => sum + Number(answer.trim() || 0), 0);
  if (!seed) {
    // A database without its seed record (or missing on a shard) was left half-written: start again.
    await onShards(`DROP DATABASE IF EXISTS ${name}`);
    const seededAt = new Date().toISOString();
    const report = await seedChild('clickhouse', url, links);
    seed = { ...report, store: 'clickhouse', seed: SEED, now: NOW, seededAt, bytesAfterSeed: await size() };
    writeFileSync(metaFile(dir, 'clickhouse', links), `${JSON.stringify(seed, null, 2)}\n`);
  }
  return { store: 'clickhouse', links, location: url, serveArgs: ['--database-url', url], seed, seededNow, size };
}

/** The benchmark key: units enough for every run, rate and concurrency limits lifted. */
export const BENCH_KEY = { id: 'bench', key: 'bench-key-0123456789', units: 9_000_000_000_000_000, rate: 1_000_000, concurrency: 100_000 } as const;

/** Writes the key file `serve --keys` reads. */
export function writeKeyFile(dir: string): string {
  const file = join(dir, 'keys.json');
  writeFileSync(file, `${JSON.stringify([BENCH_KEY], null, 2)}\n`);
  return file;
}
