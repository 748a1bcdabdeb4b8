/**
 * bench/server/cost-model.ts's arithmetic on a small made-up run, every expected value worked out
 * by hand below (not from the module); the generator's law against a plain sum and against the
 * largest targets the 1M and 10M seeds made.
 */
import { describe, expect, it } from 'vitest';
import { bytes, duration, largestTargetByLaw, MEASURED, plan, zipfTopShare, type Assumptions, type RunFigures } from '../../../bench/server/cost-model.js';

const f = (value: number) => ({ value, source: 'by hand' });

/** A run of 1,000 links: 100 + 200 + 50 bytes a link sharded, 10 on every shard; 100 links/s; 10,000 rows/s. */
const RUN: RunFigures = {
  links: f(1_000),
  largestTargetLinks: f(100),
  linksBytes: f(100_000),
  rollupBytes: f(200_000),
  keptBytes: f(50_000),
  everyShardBytes: f(10_000),
  graphPairs: f(400),
  graphTargets: f(10),
  graphSources: f(50),
  seedLinks: f(1_000),
  seedSeconds: f(10),
  seedPeakRssBytes: f(3_000_000),
  defaultCallMaxRows: f(8_000),
  filteredRows: f(200),
  filteredBytes: f(7_000),
  filteredServerMs: f(20),
  competitorsCheckRows: f(10),
  matrixRows: f(30),
};

/** The smaller run: only its peak RSS and largest target are read (40,000 bytes a link of the largest target between the two). */
const SMALL: RunFigures = { ...RUN, largestTargetLinks: f(50), seedPeakRssBytes: f(1_000_000) };

const A: Assumptions = {
  links: 1_000_000,
  shardDataBytes: 100e6,
  serverMemoryBytes: 10e6,
  graphMemoryShare: 0.5,
  replicas: 2,
  filteredCallSeconds: 1,
  maxShards: 1_000,
  speedup: 1,
  largestTargetLinks: 50_000,
};

describe('plan', () => {
  const p = plan(A, RUN, SMALL);

  it('disk: 350 MB sharded, 10 MB on every shard; 4 shards for disk, 10 for the filtered call', () => {
    expect(p.perLink).toEqual({ links: 100, rollups: 200, kept: 50, sharded: 350, everyShard: 10 });
    expect(p.shardedBytes).toBe(350e6);
    expect(p.everyShardBytes).toBe(10e6);
    expect(p.everyShardKept).toBe(true);
    // ceil(350 MB / (100 MB − 10 MB)) = ceil(3.89)
    expect(p.shardsByDisk).toBe(4);
    // 50,000 links × 2 rows = 100,000 rows at 200 rows / 20 ms = 10,000 rows/s: 10 s, so 10 shards for 1 s
    expect(p.shardsByCall).toBe(10);
    expect(p.shards).toBe(10);
    expect(p.servers).toBe(20);
    // 350 MB / 10 + 10 MB
    expect(p.bytesPerShard).toBe(45e6);
    expect(p.bytesAll).toBe(900e6);
  });

  it('the graph: 400,000 pairs, 10,000 targets, 50,000 referring domains', () => {
    expect(p.graph.pairs).toBeCloseTo(400_000, 6);
    expect(p.graph.targets).toBeCloseTo(10_000, 6);
    expect(p.graph.sources).toBeCloseTo(50_000, 6);
    // 400,000 × 8 + 10,000 × 76 + 50,000 × 4
    expect(p.graph.bytes).toBeCloseTo(4_160_000, 3);
    // 400,000 × 32 + 760,000 + 200,000
    expect(p.graph.buildBytes).toBeCloseTo(13_760_000, 3);
    // ceil(13.76 MB / 5 MB)
    expect(p.graph.partitions).toBe(3);
    // 5 MB over 13.76 bytes a link (0.4 × 32 + 0.01 × 76 + 0.05 × 4)
    expect(p.graph.fitsUpToLinks).toBeCloseTo(363_372.09, 1);
  });

  it('the refresh, the load and the reads', () => {
    // 1 MB + 40,000 B × (50,000 − 50)
    expect(p.refreshBytes).toBe(1_999_000_000);
    expect(p.load.linksPerSecond).toBe(100);
    // 1,000,000 links at 100 a second: 10,000 s; over 10 writers 1,000 s
    expect(p.load.hoursOneWriter).toBeCloseTo(10_000 / 3600, 9);
    expect(p.load.hoursWriterPerShard).toBeCloseTo(1_000 / 3600, 9);
    expect(p.reads).toEqual({
      defaultRows: 8_000,
      competitorsCheckRows: 10_000,
      competitorsCheckSeconds: 1,
      matrixRows: 15_000,
      matrixSeconds: 1.5,
      largestTargetLinks: 50_000,
      filteredRows: 100_000,
      filteredBytes: 3_500_000,
      scanRowsPerSecond: 10_000,
      filteredSeconds: 10,
      spreadRowsPerShard: 10_000,
      spreadSeconds: 1,
    });
  });

  it('a copy past half a shard is sharded with the rest', () => {
    const q = plan({ ...A, shardDataBytes: 15e6 }, RUN, SMALL);
    expect(q.everyShardKept).toBe(false);
    // ceil((350 MB + 10 MB) / 15 MB)
    expect(q.shardsByDisk).toBe(24);
    expect(q.shards).toBe(24);
    expect(q.bytesPerShard).toBeCloseTo(350e6 / 24, 3);
  });

  it('the filtered call past the most shards is not planned for; given shards are kept; speedup scales scan and load', () => {
    expect(plan({ ...A, maxShards: 5 }, RUN, SMALL).shards).toBe(4);
    expect(plan({ ...A, shards: 7 }, RUN, SMALL).shards).toBe(7);
    const fast = plan({ ...A, speedup: 4 }, RUN, SMALL);
    expect(fast.reads.scanRowsPerSecond).toBe(40_000);
    expect(fast.load.linksPerSecond).toBe(400);
    // 100,000 rows at 40,000 a second: 2.5 s, 3 shards for 1 s, fewer than disk's 4
    expect(fast.shards).toBe(4);
  });
});

describe('the largest target', () => {
  it('the Zipf share of the top item, by hand and against a plain sum past the exact part', () => {
    expect(zipfTopShare(2, 1)).toBeCloseTo(2 / 3, 12);
    // 1 / (1 + 2^-1.1 + 3^-1.1) = 1 / (1 + 0.466516 + 0.298636)
    expect(zipfTopShare(3, 1.1)).toBeCloseTo(0.5665179, 6);
    let sum = 0;
    for (let i = 1; i <= 2_500_000; i++) sum += Math.pow(i, -1.1);
    expect(zipfTopShare(2_500_000, 1.1)).toBeCloseTo(1 / sum, 9);
  });

  it('the generator law gives the largest targets the 1M and 10M seeds made, within 0.5%', () => {
    expect(Math.abs(largestTargetByLaw(1e6) / MEASURED['1M'].largestTargetLinks.value - 1)).toBeLessThan(0.005);
    expect(Math.abs(largestTargetByLaw(1e7) / MEASURED['10M'].largestTargetLinks.value - 1)).toBeLessThan(0.005);
  });
});

describe('units', () => {
  it('prints bytes in decimal units and durations in the largest fitting unit', () => {
    expect(bytes(372e9)).toBe('372 GB');
    expect(bytes(3.73e9)).toBe('3.73 GB');
    expect(duration(0.972)).toBe('972 ms');
    expect(duration(24.3)).toBe('24.3 s');
    expect(duration(10_000)).toBe('2.78 h');
    expect(duration(4 * 86400)).toBe('4.00 days');
  });
});
