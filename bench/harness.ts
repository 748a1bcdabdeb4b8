/**
 * A tiny benchmark harness: warm up, then take several timed samples of a batch and report the
 * median. Every figure we publish is a ratio against a baseline measured in the same run, so the
 * machine's speed cancels out.
 */
import { performance } from 'node:perf_hooks';

/** One measured case. */
export interface BenchResult {
  readonly name: string;
  /** Median time of one operation, in nanoseconds. */
  readonly nsPerOp: number;
  readonly opsPerSecond: number;
  /** Throughput for text inputs, when the case has a size. */
  readonly mbPerSecond?: number;
}

/** A comparison of a case with its baseline. */
export interface BenchRatio {
  readonly name: string;
  readonly ours: BenchResult;
  readonly baseline: BenchResult;
  /** ours time / baseline time: below 1 is faster than the baseline. */
  readonly ratio: number;
  /** The goal for the ratio, where the issue sets one. */
  readonly goal?: number;
}

export interface MeasureOptions {
  /** Bytes processed per operation, for MB/s. */
  readonly bytes?: number;
  /** Samples to take (median reported). */
  readonly samples?: number;
  /** Target duration of one sample in milliseconds. */
  readonly sampleMs?: number;
}

/** Measures `fn` and returns the median time per call. */
export function measure(name: string, fn: () => unknown, options: MeasureOptions = {}): BenchResult {
  const samples = options.samples ?? 7;
  const sampleMs = options.sampleMs ?? 200;
  let batch = 1;
  // Warm up and size the batch so one sample lasts about sampleMs.
  for (;;) {
    const start = performance.now();
    for (let i = 0; i < batch; i++) fn();
    const elapsed = performance.now() - start;
    if (elapsed >= sampleMs / 4) {
      batch = Math.max(1, Math.round((batch * sampleMs) / Math.max(elapsed, 0.001)));
      break;
    }
    batch *= 2;
  }
  const times: number[] = [];
  for (let s = 0; s < samples; s++) {
    const start = performance.now();
    for (let i = 0; i < batch; i++) fn();
    times.push(((performance.now() - start) * 1e6) / batch);
  }
  times.sort((a, b) => a - b);
  const nsPerOp = times[Math.floor(times.length / 2)]!;
  const opsPerSecond = 1e9 / nsPerOp;
  return {
    name,
    nsPerOp,
    opsPerSecond,
    ...(options.bytes ? { mbPerSecond: (options.bytes * opsPerSecond) / 1e6 } : {}),
  };
}

/** Runs ours and the baseline interleaved (ours, base, ours, base) and takes medians of both. */
export function compare(name: string, ours: () => unknown, baseline: () => unknown, options: MeasureOptions & { goal?: number } = {}): BenchRatio {
  const rounds = 3;
  const a: BenchResult[] = [];
  const b: BenchResult[] = [];
  for (let r = 0; r < rounds; r++) {
    a.push(measure(`${name} (ours)`, ours, options));
    b.push(measure(`${name} (baseline)`, baseline, options));
  }
  const median = (list: BenchResult[]) => [...list].sort((x, y) => x.nsPerOp - y.nsPerOp)[Math.floor(list.length / 2)]!;
  const oursResult = median(a);
  const baseResult = median(b);
  return {
    name,
    ours: oursResult,
    baseline: baseResult,
    ratio: oursResult.nsPerOp / baseResult.nsPerOp,
    ...(options.goal !== undefined ? { goal: options.goal } : {}),
  };
}

export interface PairedOptions extends MeasureOptions {
  /** The goal for the ratio, where the issue sets one. */
  readonly goal?: number;
  /** Pairs of samples to take (the median ratio is reported). Default 31. */
  readonly pairs?: number;
}

/**
 * Ours and the baseline in alternating samples (ours, base, ours, base, ...), each pair taken
 * back to back, and the median of the per-pair ratios: a burst of load on a shared machine
 * lands on a few pairs, and a slow drift of the machine's speed hits both halves of a pair alike,
 * so the median ratio stays put where a ratio of two separate medians would wander.
 * The times shown are the medians of each side's samples.
 */
export function comparePaired(name: string, ours: () => unknown, baseline: () => unknown, options: PairedOptions = {}): BenchRatio {
  const sampleMs = options.sampleMs ?? 40;
  const pairs = options.pairs ?? options.samples ?? 31;
  // Both sides run hot before the first sample: the JIT's later tiers need more than a few calls.
  warm(ours, 300);
  warm(baseline, 300);
  const batchA = batchFor(ours, sampleMs);
  const batchB = batchFor(baseline, sampleMs);
  const sample = (fn: () => unknown, batch: number): number => {
    const start = performance.now();
    for (let i = 0; i < batch; i++) fn();
    return ((performance.now() - start) * 1e6) / batch;
  };
  const a: number[] = [];
  const b: number[] = [];
  for (let p = 0; p < pairs; p++) {
    // Alternate which side goes first, so neither always follows the other's garbage.
    if (p % 2 === 0) {
      a.push(sample(ours, batchA));
      b.push(sample(baseline, batchB));
    } else {
      b.push(sample(baseline, batchB));
      a.push(sample(ours, batchA));
    }
  }
  return pairedRatio(name, a, b, options);
}

/** {@link comparePaired} for asynchronous calls: `calls` awaited one after another per sample. */
export async function comparePairedAsync(
  name: string,
  ours: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
  options: PairedOptions & { readonly calls?: number; readonly warmupMs?: number } = {},
): Promise<BenchRatio> {
  const calls = options.calls ?? 50;
  const pairs = options.pairs ?? 31;
  const sample = async (fn: () => Promise<unknown>): Promise<number> => {
    const start = performance.now();
    for (let i = 0; i < calls; i++) await fn();
    return ((performance.now() - start) * 1e6) / calls;
  };
  // Warm up for a while, alternating: undici's and our paths need thousands of calls to settle
  // (the first samples of a fresh process ran slower than later ones: README.md, section "Benchmarks").
  const warmEnd = performance.now() + (options.warmupMs ?? 3000);
  while (performance.now() < warmEnd) {
    for (let i = 0; i < 20; i++) await ours();
    for (let i = 0; i < 20; i++) await baseline();
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let p = 0; p < pairs; p++) {
    if (p % 2 === 0) {
      a.push(await sample(ours));
      b.push(await sample(baseline));
    } else {
      b.push(await sample(baseline));
      a.push(await sample(ours));
    }
  }
  return pairedRatio(name, a, b, options);
}

/** Calls `fn` for about `ms` milliseconds. */
function warm(fn: () => unknown, ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) for (let i = 0; i < 100; i++) fn();
}

/** Warms `fn` up and returns the batch size that makes one sample last about `sampleMs`. */
function batchFor(fn: () => unknown, sampleMs: number): number {
  let batch = 1;
  for (;;) {
    const start = performance.now();
    for (let i = 0; i < batch; i++) fn();
    const elapsed = performance.now() - start;
    if (elapsed >= sampleMs / 4) return Math.max(1, Math.round((batch * sampleMs) / Math.max(elapsed, 0.001)));
    batch *= 2;
  }
}

const middle = (values: readonly number[]): number => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

function pairedRatio(name: string, a: readonly number[], b: readonly number[], options: PairedOptions): BenchRatio {
  const result = (label: string, nsPerOp: number): BenchResult => ({
    name: `${name} (${label})`,
    nsPerOp,
    opsPerSecond: 1e9 / nsPerOp,
    ...(options.bytes ? { mbPerSecond: (options.bytes * 1e9) / nsPerOp / 1e6 } : {}),
  });
  return {
    name,
    ours: result('ours', middle(a)),
    baseline: result('baseline', middle(b)),
    ratio: middle(a.map((x, i) => x / b[i]!)),
    ...(options.goal !== undefined ? { goal: options.goal } : {}),
  };
}

/**
 * Repeats a same-run comparison and keeps the run with the median ratio: on a shared machine one
 * comparison can land on a burst of load, several rarely all do.
 */
export function medianOfRatios(comparison: () => BenchRatio, times = 5): BenchRatio {
  const runs = Array.from({ length: times }, comparison).sort((a, b) => a.ratio - b.ratio);
  return runs[Math.floor(runs.length / 2)]!;
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Prints ratios as a table. */
export function printRatios(title: string, ratios: readonly BenchRatio[], out: (line: string) => void = console.log): void {
  out(`\n## ${title}\n`);
  out('| case | ours ops/s | baseline ops/s | ours MB/s | baseline MB/s | ratio (time) | goal |');
  out('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of ratios) {
    const mb = (x: BenchResult) => (x.mbPerSecond === undefined ? '' : fmt(x.mbPerSecond, 1));
    const verdict = r.goal === undefined ? '' : `<= ${r.goal}x ${r.ratio <= r.goal ? 'met' : 'NOT met'}`;
    out(`| ${r.name} | ${fmt(r.ours.opsPerSecond)} | ${fmt(r.baseline.opsPerSecond)} | ${mb(r.ours)} | ${mb(r.baseline)} | ${fmt(r.ratio, 2)}x | ${verdict} |`);
  }
}
