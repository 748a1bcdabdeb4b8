/**
 * The ClickHouse cluster's cost at a size not run here (1B, 43T links), from figures measured on
 * the benchmark's 1M and 10M databases: disk per shard, shards and replicas, the competitor graph's
 * memory, the refresh's memory, the load's hours, and the rows a call reads. Pure arithmetic over
 * {@link MEASURED} (each figure with where it was measured) and {@link Assumptions} (what a team
 * chooses: budgets, replicas); prints Markdown:
 *
 *   node --import tsx bench/server/cost-model.ts
 *   node --import tsx bench/server/cost-model.ts --links 1000000000 --speedup 4 --replicas 3
 *
 * What is measured and what is extrapolated is said per line of the output; docs/scaling.md, "The
 * plan for 1B and 43T links", has the measurements and the plan read from this.
 */
import { pathToFileURL } from 'node:url';

/** A measured number and where it was measured. */
export interface Figure {
  readonly value: number;
  readonly source: string;
}

/** What one benchmark database measured (the two-shard cluster of ClickHouse 18.16 on one 2-core machine). */
export interface RunFigures {
  /** Rows of `links_local` over both shards (the seed's links, repeated identities merged). */
  readonly links: Figure;
  /** Links of the largest target (example.com). */
  readonly largestTargetLinks: Figure;
  /** Compressed bytes of `links_local`, both shards. */
  readonly linksBytes: Figure;
  /** Compressed bytes of the rollups (`r_*_local`), both shards. */
  readonly rollupBytes: Figure;
  /** Compressed bytes of the kept rows (`kept_*_local`), both shards. */
  readonly keptBytes: Figure;
  /** Compressed bytes of the tables every shard holds whole (`domains_local`, `target_pages_local`), one shard's copy. */
  readonly everyShardBytes: Figure;
  /** (registrable domain, referring domain) pairs of the competitor graph. */
  readonly graphPairs: Figure;
  /** Registrable domains of the graph (its targets). */
  readonly graphTargets: Figure;
  /** Referring domains of the graph. */
  readonly graphSources: Figure;
  /** Links the seed wrote. */
  readonly seedLinks: Figure;
  /** The seed's seconds, links, rollups and kept rows (one writer, both shards and the generator on the machine). */
  readonly seedSeconds: Figure;
  /** Peak RSS of the seed's process (the refresh holds a domain's links while it rolls them up). */
  readonly seedPeakRssBytes: Figure;
  /** The most rows a default call read (13 calls but competitors' first and the matrix; first calls, subqueries included). */
  readonly defaultCallMaxRows: Figure;
  /** Rows the filtered, sorted links call over the largest target read. */
  readonly filteredRows: Figure;
  /** Uncompressed bytes it read. */
  readonly filteredBytes: Figure;
  /** Its statements' server milliseconds, summed. */
  readonly filteredServerMs: Figure;
  /** Rows a competitors call read after its first (the question for the rollup versions: a row per domain). */
  readonly competitorsCheckRows: Figure;
  /** Rows the matrix of 3 targets (the largest among them) read. */
  readonly matrixRows: Figure;
}

const STORAGE = 'docs/scaling.md, "The plan for 1B and 43T links": system.parts of the benchmark databases (data_compressed_bytes), 2026-11-29';
const GRAPH = 'docs/scaling.md, "The plan for 1B and 43T links": r_ref_domains, domain rows of the current versions, counted 2026-11-29';
const SEED = 'docs/scaling.md, "The plan for 1B and 43T links": the seeds of the benchmark databases (bench:server), 2026-11-29';
const READS_1M = 'docs/scaling.md, "The plan for 1B and 43T links": clickhouse-reads.ts --links 1000000 at 42f2d37 (kept rows), first calls';
const READS_10M = 'docs/scaling.md, "The plan for 1B and 43T links": clickhouse-reads.ts --links 10000000 at 42f2d37 (kept rows), first calls';
const LARGEST = 'bench/RESULTS.md, "Issue 52: rows read per call on the ClickHouse cluster": example.com';

const f = (value: number, source: string): Figure => ({ value, source });

/** The figures the model reads, from the 1M and 10M runs. */
export const MEASURED: { readonly '1M': RunFigures; readonly '10M': RunFigures } = {
  '1M': {
    links: f(999_918, STORAGE),
    largestTargetLinks: f(166_090, LARGEST),
    linksBytes: f(126_934_874, STORAGE),
    rollupBytes: f(214_367_026, STORAGE),
    keptBytes: f(47_953_574, STORAGE),
    everyShardBytes: f(9_386_632, STORAGE),
    graphPairs: f(416_006, GRAPH),
    graphTargets: f(2_500, GRAPH),
    graphSources: f(65_495, GRAPH),
    seedLinks: f(1_000_000, SEED),
    seedSeconds: f(254.9, SEED),
    seedPeakRssBytes: f(960_802_816, SEED),
    defaultCallMaxRows: f(7_855, READS_1M),
    filteredRows: f(335_872, READS_1M),
    filteredBytes: f(12_296_245, READS_1M),
    filteredServerMs: f(26, READS_1M),
    competitorsCheckRows: f(2_500, READS_1M),
    matrixRows: f(60_624, READS_1M),
  },
  '10M': {
    links: f(9_994_923, STORAGE),
    largestTargetLinks: f(1_434_665, LARGEST),
    linksBytes: f(1_321_061_167, STORAGE),
    rollupBytes: f(1_976_059_904, STORAGE),
    keptBytes: f(416_450_499, STORAGE),
    everyShardBytes: f(95_109_637, STORAGE),
    graphPairs: f(4_122_653, GRAPH),
    graphTargets: f(25_000, GRAPH),
    graphSources: f(602_432, GRAPH),
    seedLinks: f(10_000_000, SEED),
    seedSeconds: f(3_490.1, SEED),
    seedPeakRssBytes: f(3_748_532_224, SEED),
    defaultCallMaxRows: f(8_195, READS_10M),
    filteredRows: f(2_871_296, READS_10M),
    filteredBytes: f(104_838_417, READS_10M),
    filteredServerMs: f(289, READS_10M),
    competitorsCheckRows: f(25_000, READS_10M),
    matrixRows: f(441_346, READS_10M),
  },
};

/** The sample generator's law of target sizes: `links / linksPerTarget` targets, the i-th drawn with weight 1/i^exponent. */
export interface TargetLaw {
  readonly linksPerTarget: number;
  readonly exponent: number;
}

/** As `makeWorld` (src/server/sample/world.ts) draws targets: `Zipf(round(links / 400), 1.1)`. */
export const GENERATOR_LAW: TargetLaw = { linksPerTarget: 400, exponent: 1.1 };

/**
 * The largest item's share of draws from a Zipf law over `n` items (weight 1/i^s): 1 / Σ_{i=1..n} i^-s.
 * The sum is exact up to a million terms, the rest its integral from K + 1/2 to n + 1/2 (the
 * midpoint rule, which for these exponents is off in the ninth digit or later).
 */
export function zipfTopShare(n: number, s: number): number {
  const exact = Math.min(n, 1_000_000);
  let sum = 0;
  for (let i = exact; i >= 1; i--) sum += Math.pow(i, -s);
  if (n > exact) {
    const a = exact + 0.5;
    const b = n + 0.5;
    sum += s === 1 ? Math.log(b / a) : (Math.pow(a, 1 - s) - Math.pow(b, 1 - s)) / (s - 1);
  }
  return 1 / sum;
}

/** The largest target's links at `links` links under `law`. */
export function largestTargetByLaw(links: number, law: TargetLaw = GENERATOR_LAW): number {
  const targets = Math.max(1, Math.round(links / law.linksPerTarget));
  return Math.round(links * zipfTopShare(targets, law.exponent));
}

/** What a team chooses: the size, the machines' budgets, replicas. */
export interface Assumptions {
  readonly links: number;
  /** Bytes of data a shard may hold: part of its disk (an end-of-load `OPTIMIZE ... FINAL` rewrites a whole table beside itself). */
  readonly shardDataBytes: number;
  /** Memory of one server process that holds the competitor graph. */
  readonly serverMemoryBytes: number;
  /** The share of that memory the graph may take. */
  readonly graphMemoryShare: number;
  readonly replicas: number;
  /** Seconds the filtered links call over the largest target should take, spread over every shard. */
  readonly filteredCallSeconds: number;
  /** Most shards a plan may have for the filtered call's sake (past it the call's goal is given up, not the shards added). */
  readonly maxShards: number;
  /** How much faster one shard scans and loads than this machine did with both shards on it (1: measured as is). */
  readonly speedup: number;
  /** The largest target's links (default: the generator's law at `links`). */
  readonly largestTargetLinks?: number;
  /** A fixed number of shards (default: what disk and the filtered call need). */
  readonly shards?: number;
}

/** The default assumptions, for `links` links. */
export function defaultAssumptions(links: number): Assumptions {
  return {
    links,
    shardDataBytes: 4e12,
    serverMemoryBytes: 256e9,
    graphMemoryShare: 0.5,
    replicas: 2,
    filteredCallSeconds: 1,
    maxShards: 1_000,
    speedup: 1,
  };
}

/**
 * The competitor graph's bytes as {@link CompetitorIndex} (src/server/store/memory/competitor-graph.ts)
 * holds it: a pair is an Int32 in each direction's list; a target its list start, its count and
 * seen slots (Int32 each) and its name (the class's own estimate, 64 bytes); a referring domain
 * its list start.
 */
export const GRAPH_LAYOUT = { pairBytes: 8, targetBytes: 4 + 4 + 4 + 64, sourceBytes: 4 } as const;

/**
 * The graph's bytes while the ClickHouse store builds it (src/server/store/engines/clickhouse/competitors.ts):
 * a pair is in two arrays of JavaScript numbers (8 bytes each), their Int32 copies (4 each) and
 * the two lists (4 each), before the arrays are dropped.
 */
export const GRAPH_BUILD_PAIR_BYTES = 8 + 8 + 4 + 4 + 4 + 4;

/** The model's answer for one size. */
export interface Plan {
  readonly links: number;
  /** Bytes per link, from the 10M run. */
  readonly perLink: { readonly links: number; readonly rollups: number; readonly kept: number; readonly sharded: number; readonly everyShard: number };
  /** One copy of the sharded tables. */
  readonly shardedBytes: number;
  /** The tables every shard holds whole, at this size. */
  readonly everyShardBytes: number;
  /** Whether those stay whole on every shard (false: they do not fit beside the data, and must be sharded too: not built). */
  readonly everyShardKept: boolean;
  readonly shardsByDisk: number;
  /** Shards the filtered call needs to meet its seconds when spread over them. */
  readonly shardsByCall: number;
  readonly shards: number;
  readonly replicas: number;
  readonly servers: number;
  readonly bytesPerShard: number;
  /** Every replica of every shard. */
  readonly bytesAll: number;
  readonly graph: {
    readonly pairs: number;
    readonly targets: number;
    readonly sources: number;
    readonly bytes: number;
    readonly buildBytes: number;
    /** Server processes the graph must be split over to fit their share of memory (1: it fits one). */
    readonly partitions: number;
    /** The most links whose graph, while built, fits one server's share of memory. */
    readonly fitsUpToLinks: number;
  };
  /** The refresh's peak memory, from the seed's peak RSS per link of the largest target. */
  readonly refreshBytes: number;
  readonly load: {
    /** Links a second of this machine's seed (one writer, rollups and kept rows included), times the speedup. */
    readonly linksPerSecond: number;
    readonly hoursOneWriter: number;
    /** A writer per shard, each as fast (not built: the store takes one writer at a time). */
    readonly hoursWriterPerShard: number;
  };
  readonly reads: {
    readonly defaultRows: number;
    readonly competitorsCheckRows: number;
    readonly competitorsCheckSeconds: number;
    readonly matrixRows: number;
    readonly matrixSeconds: number;
    readonly largestTargetLinks: number;
    readonly filteredRows: number;
    readonly filteredBytes: number;
    readonly scanRowsPerSecond: number;
    readonly filteredSeconds: number;
    /** Spread over every shard (`spread_above`): each shard's rows and the call's seconds (each shard's scan of its share; the rows that pass are then sorted on the target's home shard, not counted here). */
    readonly spreadRowsPerShard: number;
    readonly spreadSeconds: number;
  };
}

/** The plan for `a.links` links from the figures of `m` (the 10M run; `small`, the 1M run, for the refresh's growth). */
export function plan(a: Assumptions, m: RunFigures = MEASURED['10M'], small: RunFigures = MEASURED['1M']): Plan {
  const n = a.links;
  const per = (figure: Figure) => figure.value / m.links.value;
  const perLink = {
    links: per(m.linksBytes),
    rollups: per(m.rollupBytes),
    kept: per(m.keptBytes),
    sharded: per(m.linksBytes) + per(m.rollupBytes) + per(m.keptBytes),
    everyShard: per(m.everyShardBytes),
  };
  const shardedBytes = n * perLink.sharded;
  const copy = n * perLink.everyShard;
  // Whole on every shard while the copy takes at most half a shard's data.
  const everyShardKept = copy <= a.shardDataBytes / 2;
  const shardsByDisk = everyShardKept
    ? Math.max(1, Math.ceil(shardedBytes / (a.shardDataBytes - copy)))
    : Math.max(1, Math.ceil((shardedBytes + copy) / a.shardDataBytes));

  const largest = a.largestTargetLinks ?? largestTargetByLaw(n);
  const rowsPerTargetLink = m.filteredRows.value / m.largestTargetLinks.value;
  const bytesPerTargetLink = m.filteredBytes.value / m.largestTargetLinks.value;
  const scan = (m.filteredRows.value / (m.filteredServerMs.value / 1000)) * a.speedup;
  const filteredRows = largest * rowsPerTargetLink;
  const shardsByCall = Math.max(1, Math.ceil(filteredRows / (scan * a.filteredCallSeconds)));
  const shards = a.shards ?? Math.max(shardsByDisk, shardsByCall <= a.maxShards ? shardsByCall : 1);
  const bytesPerShard = shardedBytes / shards + (everyShardKept ? copy : 0);

  const pairs = n * per(m.graphPairs);
  const targets = n * per(m.graphTargets);
  const sources = n * per(m.graphSources);
  const graphBytes = pairs * GRAPH_LAYOUT.pairBytes + targets * GRAPH_LAYOUT.targetBytes + sources * GRAPH_LAYOUT.sourceBytes;
  const buildBytes = pairs * GRAPH_BUILD_PAIR_BYTES + targets * GRAPH_LAYOUT.targetBytes + sources * GRAPH_LAYOUT.sourceBytes;

  const refreshPerLink = (m.seedPeakRssBytes.value - small.seedPeakRssBytes.value) / (m.largestTargetLinks.value - small.largestTargetLinks.value);
  const rate = (m.seedLinks.value / m.seedSeconds.value) * a.speedup;

  const checkRows = n * (m.competitorsCheckRows.value / m.links.value);
  const matrixRows = largest * (m.matrixRows.value / m.largestTargetLinks.value);
  const spreadRowsPerShard = filteredRows / shards;
  return {
    links: n,
    perLink,
    shardedBytes,
    everyShardBytes: copy,
    everyShardKept,
    shardsByDisk,
    shardsByCall,
    shards,
    replicas: a.replicas,
    servers: shards * a.replicas,
    bytesPerShard,
    bytesAll: bytesPerShard * shards * a.replicas,
    graph: {
      pairs,
      targets,
      sources,
      bytes: graphBytes,
      buildBytes,
      partitions: Math.max(1, Math.ceil(buildBytes / (a.serverMemoryBytes * a.graphMemoryShare))),
      fitsUpToLinks: (a.serverMemoryBytes * a.graphMemoryShare) / (buildBytes / n),
    },
    refreshBytes: small.seedPeakRssBytes.value + refreshPerLink * (largest - small.largestTargetLinks.value),
    load: {
      linksPerSecond: rate,
      hoursOneWriter: n / rate / 3600,
      hoursWriterPerShard: n / (rate * shards) / 3600,
    },
    reads: {
      defaultRows: m.defaultCallMaxRows.value,
      competitorsCheckRows: checkRows,
      competitorsCheckSeconds: checkRows / scan,
      matrixRows,
      matrixSeconds: matrixRows / scan,
      largestTargetLinks: largest,
      filteredRows,
      filteredBytes: largest * bytesPerTargetLink,
      scanRowsPerSecond: scan,
      filteredSeconds: filteredRows / scan,
      spreadRowsPerShard,
      spreadSeconds: spreadRowsPerShard / scan,
    },
  };
}

// ---- Markdown ----

const int = (x: number) => Math.round(x).toLocaleString('en-US');
const sig = (x: number) => (x >= 100 ? int(x) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

/** Bytes in decimal units (GB = 10^9), as disks are sold. */
export function bytes(x: number): string {
  const units: [number, string][] = [[1e15, 'PB'], [1e12, 'TB'], [1e9, 'GB'], [1e6, 'MB'], [1e3, 'kB']];
  for (const [size, unit] of units) if (x >= size) return `${sig(x / size)} ${unit}`;
  return `${int(x)} B`;
}

/** A count in words past a million (1.2 billion), with its digits below. */
export function count(x: number): string {
  if (x >= 1e12) return `${sig(x / 1e12)} trillion`;
  if (x >= 1e9) return `${sig(x / 1e9)} billion`;
  if (x >= 1e6) return `${sig(x / 1e6)} million`;
  return int(x);
}

/** Seconds as s, min, h or days. */
export function duration(s: number): string {
  if (s < 1) return `${sig(s * 1000)} ms`;
  if (s < 120) return `${sig(s)} s`;
  if (s < 7200) return `${sig(s / 60)} min`;
  if (s < 3 * 86400) return `${sig(s / 3600)} h`;
  if (s < 3 * 365 * 86400) return `${sig(s / 86400)} days`;
  return `${sig(s / (365 * 86400))} years`;
}

/** The plan for one size as a Markdown table: quantity, value, how it was found. */
export function planTable(p: Plan, a: Assumptions): string {
  const ex = 'extrapolated';
  const rows: [string, string, string][] = [
    ['bytes per link: links / rollups / kept rows', `${sig(p.perLink.links)} / ${sig(p.perLink.rollups)} / ${sig(p.perLink.kept)}`, 'measured at 10M (compressed)'],
    ['one copy of the sharded tables', bytes(p.shardedBytes), `${ex}: links × ${sig(p.perLink.sharded)} B`],
    [
      'domains and pages, whole on every shard',
      `${bytes(p.everyShardBytes)}${p.everyShardKept ? '' : ' (past half a shard: sharded too, not built)'}`,
      `${ex}: ${sig(p.perLink.everyShard)} B a link (the generator's domains and pages per link)`,
    ],
    ['shards for disk', int(p.shardsByDisk), `${bytes(a.shardDataBytes)} of data a shard (assumed)`],
    [
      `shards for the filtered call in ${sig(a.filteredCallSeconds)} s, spread`,
      `${int(p.shardsByCall)}${p.shardsByCall > a.maxShards ? ` (past ${int(a.maxShards)}: not planned)` : ''}`,
      `${ex}: the largest target's rows / the scan rate`,
    ],
    ['**shards**', `**${int(p.shards)}**`, a.shards === undefined ? (p.shardsByCall <= a.maxShards ? 'the larger of the two above' : 'for disk') : 'given'],
    ['**replicas** of each shard', `**${p.replicas}**`, 'assumed: a shard survives a server lost; reads spread over both'],
    ['**servers** (shards × replicas)', `**${int(p.servers)}**`, ''],
    ['**data per shard**', `**${bytes(p.bytesPerShard)}**`, ex],
    ['data, every replica', bytes(p.bytesAll), ex],
    ['competitor graph: pairs / targets / referring domains', `${count(p.graph.pairs)} / ${count(p.graph.targets)} / ${count(p.graph.sources)}`, `${ex}: per link as at 10M`],
    ['**competitor graph in memory** (held / while built)', `**${bytes(p.graph.bytes)}** / ${bytes(p.graph.buildBytes)}`, `${ex}: ${GRAPH_LAYOUT.pairBytes} B a pair held, ${GRAPH_BUILD_PAIR_BYTES} while built (the code's layout)`],
    [
      'graph partitions to fit a server',
      int(p.graph.partitions),
      `${bytes(a.serverMemoryBytes * a.graphMemoryShare)} for the graph (${Math.round(a.graphMemoryShare * 100)}% of ${bytes(a.serverMemoryBytes)}, assumed)`,
    ],
    ['the graph fits one server, while built, up to', `${count(p.graph.fitsUpToLinks)} links`, ex],
    ['**the refresh of the largest target in memory**', `**${bytes(p.refreshBytes)}**`, `${ex}: the seed's peak RSS, 1M to 10M, per link of the largest target`],
    ['load rate (one writer)', `${int(p.load.linksPerSecond)} links/s`, a.speedup === 1 ? 'measured: the 10M seed on this machine' : `measured × ${a.speedup} (assumed)`],
    ['**load, one writer** (today)', `**${duration(p.load.hoursOneWriter * 3600)}**`, ex],
    ['**load, a writer per shard** (not built)', `**${duration(p.load.hoursWriterPerShard * 3600)}**`, ex],
    ['default call, rows read', `about ${int(p.reads.defaultRows)}`, `measured: the most at 10M (${int(MEASURED['1M'].defaultCallMaxRows.value)} at 1M), taken as bounded`],
    ['competitors after its first call: rows, time', `${count(p.reads.competitorsCheckRows)}, ${duration(p.reads.competitorsCheckSeconds)}`, `${ex}: a row per domain`],
    ['matrix of 3 targets (the largest among them): rows, time', `${count(p.reads.matrixRows)}, ${duration(p.reads.matrixSeconds)}`, `${ex}: per link of the largest target`],
    ['largest target', `${count(p.reads.largestTargetLinks)} links`, a.largestTargetLinks === undefined ? `${ex}: the generator's law` : 'given'],
    ['scan rate of a shard', `${count(p.reads.scanRowsPerSecond)} rows/s`, a.speedup === 1 ? 'measured: the filtered call at 10M' : `measured × ${a.speedup} (assumed)`],
    ['**filtered links call over it, one shard** (not spread): rows, bytes (uncompressed), time', `${count(p.reads.filteredRows)}, ${bytes(p.reads.filteredBytes)}, **${duration(p.reads.filteredSeconds)}**`, `${ex}: 2 rows per link`],
    [
      `**the same spread over ${int(p.shards)} shards** (spread_above): rows a shard, time of the scans`,
      `${count(p.reads.spreadRowsPerShard)}, **${duration(p.reads.spreadSeconds)}**`,
      ex,
    ],
  ];
  return ['| quantity | value | how |', '| --- | ---: | --- |', ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/** The measured figures the model read, with their sources. */
export function measuredTable(): string {
  const names = Object.keys(MEASURED['10M']) as (keyof RunFigures)[];
  const lines = names.map((name) => {
    const [small, large] = [MEASURED['1M'][name], MEASURED['10M'][name]];
    const source = small.source === large.source ? large.source : `1M: ${small.source}; 10M: ${large.source}`;
    return `| ${name} | ${int(small.value)} | ${int(large.value)} | ${source} |`;
  });
  return ['| figure | 1M | 10M | source |', '| --- | ---: | ---: | --- |', ...lines].join('\n');
}

const HELP = `Usage: node --import tsx bench/server/cost-model.ts [options]

  --links N            a size (repeatable; default 1000000000 and 43000000000000)
  --shard-data-tb X    data a shard may hold, TB (default 4)
  --memory-gb X        memory of a server holding the competitor graph, GB (default 256; half for the graph)
  --replicas N         replicas of each shard (default 2)
  --call-seconds X     the filtered call's goal when spread (default 1)
  --max-shards N       most shards planned for that call (default 1000)
  --speedup X          a shard's speed over this machine's (default 1: as measured)
  --largest N          the largest target's links (default: the sample generator's law)
  --shards N           a fixed number of shards
`;

function main(): void {
  const argv = process.argv.slice(2);
  if (argv.includes('--help')) {
    process.stdout.write(HELP);
    return;
  }
  const sizes: number[] = [];
  const options: Record<string, number> = {};
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i]!;
    const value = Number(argv[i + 1]);
    if (!flag.startsWith('--') || !Number.isFinite(value) || value <= 0) throw new Error(`bad option ${flag} ${argv[i + 1] ?? ''}\n${HELP}`);
    if (flag === '--links') sizes.push(value);
    else options[flag.slice(2)] = value;
  }
  const out: string[] = [];
  for (const links of sizes.length > 0 ? sizes : [1e9, 43e12]) {
    const base = defaultAssumptions(links);
    const a: Assumptions = {
      ...base,
      shardDataBytes: options['shard-data-tb'] !== undefined ? options['shard-data-tb'] * 1e12 : base.shardDataBytes,
      serverMemoryBytes: options['memory-gb'] !== undefined ? options['memory-gb'] * 1e9 : base.serverMemoryBytes,
      replicas: options['replicas'] ?? base.replicas,
      filteredCallSeconds: options['call-seconds'] ?? base.filteredCallSeconds,
      maxShards: options['max-shards'] ?? base.maxShards,
      speedup: options['speedup'] ?? base.speedup,
      ...(options['largest'] !== undefined ? { largestTargetLinks: options['largest'] } : {}),
      ...(options['shards'] !== undefined ? { shards: options['shards'] } : {}),
    };
    out.push(`### ${count(links)} links`, '', planTable(plan(a), a), '');
  }
  out.push('### The measured figures', '', measuredTable(), '');
  process.stdout.write(`${out.join('\n')}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
