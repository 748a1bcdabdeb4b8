/**
 * The flags of `npm run bench:server`.
 */
import { resolve } from 'node:path';

/** A store the benchmark can run on. */
export type StoreKind = 'embedded' | 'sqlite' | 'postgres' | 'clickhouse';

/** Every store, in the report's order: the embedded default (SQLite rows, DuckDB columns), SQLite alone, PostgreSQL, ClickHouse. */
export const STORES: readonly StoreKind[] = ['embedded', 'sqlite', 'postgres', 'clickhouse'];

/** The benchmark's options. */
export interface BenchOptions {
  /** Link counts of the per-operation tables (on the embedded store and SQLite, and on PostgreSQL and ClickHouse unless their own sizes are given). */
  readonly sizes: readonly number[];
  /** Link counts measured on PostgreSQL (default: `sizes`); a large size seeds for long (bench/RESULTS.md, "Seeding and database size"). */
  readonly postgresSizes: readonly number[];
  /** Link counts measured on the two-shard ClickHouse cluster (default: `sizes`). */
  readonly clickhouseSizes: readonly number[];
  readonly stores: readonly StoreKind[];
  /** Seconds of each concurrency-10 autocannon run. */
  readonly duration: number;
  /** Seconds of each concurrency-1 run (the server side of the overhead ratio). */
  readonly overheadDuration: number;
  /** Seconds of each mixed-load run. */
  readonly mixedDuration: number;
  /** Link counts of the mixed-load runs. */
  readonly mixedSizes: readonly number[];
  /** Whether the generated-filter workload runs after the per-operation calls of each measured size. */
  readonly generated: boolean;
  /** Cold requests sent one at a time by the generated workload (twice as many at concurrency 10, and about as many in warm pages). */
  readonly generatedCount: number;
  /** Seed of the generated filters (fast-check's). */
  readonly generatedSeed: number;
  readonly data: string;
  readonly out: string;
  /** The command line as typed, for the report. */
  readonly commandLine: string;
}

/** The sample database `serve --sample` creates (the mixed-load goal is set on it). */
export const SAMPLE_LINKS = 50_000;

const HELP = `Usage: npm run bench:server -- [options]

  --sizes LIST             link counts of the per-operation tables on the embedded store and SQLite,
                           and on PostgreSQL and ClickHouse unless --postgres-sizes /
                           --clickhouse-sizes is given (default 100000,1000000)
  --stores LIST            any of embedded,sqlite,postgres,clickhouse (default embedded,sqlite,postgres:
                           embedded is the default store, SQLite rows with DuckDB columns; sqlite is
                           SQLite alone; clickhouse runs a two-shard cluster with
                           scripts/engines/clickhouse.sh, its data kept in DATA/clickhouse/)
  --postgres-sizes LIST    link counts measured on PostgreSQL, in or beyond --sizes (default: --sizes)
  --clickhouse-sizes LIST  link counts measured on ClickHouse, in or beyond --sizes (default: --sizes)
  --duration S             seconds per concurrency-10 autocannon run (default 10)
  --overhead-duration S    seconds per concurrency-1 run for the overhead ratio (default 3)
  --mixed-duration S       seconds per mixed-load run at concurrency 50 (default 30)
  --mixed-sizes LIST       link counts of the mixed load (default 50000, plus 1000000 when in --sizes)
  --generated on|off       the generated-filter workload after the per-operation calls of each size
                           (default on; --no-generated is off): filters of 1-4 conditions, a text
                           condition on each text field in turn, in every scope, from the target's
                           own values and the package's arbitraries; cold (each one new to the
                           server) one at a time and at concurrency 10, then warm (10 connections
                           paging through filters, offset 0 to 900); on the embedded store beside
                           floor B (bench/server/floor.ts), timed in the same run
  --generated-count N      cold requests sent one at a time (default 150); the cold concurrency-10
                           phase sends 2N, the warm phase about 2N (2N/10 filters of 10 pages)
  --generated-seed S       seed of the generated filters (default 1; printed in the report)
  --data DIR               databases, reused between runs (default .bench-data/)
  --out FILE               the report (default bench/RESULTS.md)
`;

function list(value: string, name: string): number[] {
  const numbers = value.split(',').map((part) => part.trim().replace(/_/g, ''));
  if (numbers.some((n) => !/^\d+$/.test(n) || Number(n) < 1)) throw new Error(`--${name} takes positive integers separated by commas, got ${JSON.stringify(value)}.`);
  return [...new Set(numbers.map(Number))].sort((a, b) => a - b);
}

function seconds(value: string, name: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} takes a positive number of seconds, got ${JSON.stringify(value)}.`);
  return n;
}

function onOff(value: string, name: string): boolean {
  if (['on', 'true', 'yes', '1'].includes(value)) return true;
  if (['off', 'false', 'no', '0'].includes(value)) return false;
  throw new Error(`--${name} takes on or off, got ${JSON.stringify(value)}.`);
}

function count(value: string, name: string): number {
  const n = Number(value.replace(/_/g, ''));
  if (!/^\d[\d_]*$/.test(value) || !Number.isSafeInteger(n) || n < 1) throw new Error(`--${name} takes a positive integer, got ${JSON.stringify(value)}.`);
  return n;
}

function seed(value: string, name: string): number {
  const n = Number(value);
  // fast-check takes a 32-bit integer seed.
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(n) || n < -(2 ** 31) || n >= 2 ** 31) throw new Error(`--${name} takes an integer from -2147483648 to 2147483647, got ${JSON.stringify(value)}.`);
  return n;
}

/** The link counts measured per operation on a store. */
export const measuredSizes = (options: BenchOptions, store: StoreKind): readonly number[] =>
  store === 'postgres' ? options.postgresSizes : store === 'clickhouse' ? options.clickhouseSizes : options.sizes;

/** Parses `argv` (without node and the script); prints help and exits on `--help`. */
export function parseOptions(argv: readonly string[]): BenchOptions {
  const raw = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(HELP);
      process.exit(0);
    }
    if (!arg.startsWith('--')) throw new Error(`Unexpected argument ${arg}.\n\n${HELP}`);
    if (arg === '--no-generated') {
      raw.set('generated', 'off');
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined) throw new Error(`--${name} needs a value.`);
    raw.set(name, value);
  }
  const known = ['sizes', 'postgres-sizes', 'clickhouse-sizes', 'stores', 'duration', 'overhead-duration', 'mixed-duration', 'mixed-sizes', 'generated', 'generated-count', 'generated-seed', 'data', 'out'];
  for (const name of raw.keys()) if (!known.includes(name)) throw new Error(`Unknown option --${name}.\n\n${HELP}`);
  const sizes = list(raw.get('sizes') ?? '100000,1000000', 'sizes');
  const stores = (raw.get('stores') ?? 'embedded,sqlite,postgres').split(',').map((s) => s.trim());
  for (const store of stores) if (!(STORES as readonly string[]).includes(store)) throw new Error(`--stores takes any of ${STORES.join(', ')}, got ${JSON.stringify(store)}.`);
  const mixedSizes = raw.has('mixed-sizes') ? list(raw.get('mixed-sizes')!, 'mixed-sizes') : [SAMPLE_LINKS, ...sizes.filter((n) => n === 1_000_000)];
  return {
    sizes,
    postgresSizes: raw.has('postgres-sizes') ? list(raw.get('postgres-sizes')!, 'postgres-sizes') : sizes,
    clickhouseSizes: raw.has('clickhouse-sizes') ? list(raw.get('clickhouse-sizes')!, 'clickhouse-sizes') : sizes,
    stores: STORES.filter((store) => stores.includes(store)),
    duration: seconds(raw.get('duration') ?? '10', 'duration'),
    overheadDuration: seconds(raw.get('overhead-duration') ?? '3', 'overhead-duration'),
    mixedDuration: seconds(raw.get('mixed-duration') ?? '30', 'mixed-duration'),
    mixedSizes,
    generated: onOff(raw.get('generated') ?? 'on', 'generated'),
    generatedCount: count(raw.get('generated-count') ?? '150', 'generated-count'),
    generatedSeed: seed(raw.get('generated-seed') ?? '1', 'generated-seed'),
    data: resolve(raw.get('data') ?? '.bench-data'),
    out: resolve(raw.get('out') ?? 'bench/RESULTS.md'),
    commandLine: ['npm run bench:server', ...(argv.length > 0 ? ['--', ...argv] : [])].join(' '),
  };
}
