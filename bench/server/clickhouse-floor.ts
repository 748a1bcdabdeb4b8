/**
 * What one query costs ClickHouse before it reads anything, on the bench's two-shard cluster
 * (`DATA/clickhouse`, started as `bench:server` starts it): `SELECT 1`, and a lookup of one
 * target's `r_targets` row in each bench database there (`bench_links_N`), one at a time and at
 * concurrency 10, with the server's default `max_threads` and with 1, in alternating rounds
 * (medians of the rounds' medians). The numbers behind "each HTTP query costs" in docs/design-store.md.
 *
 * Then, per bench database, what the store's competitor graph costs (`competitor-graph.ts`): the
 * first competitors call of a new store (the graph read from the cluster), and the median of 20
 * calls after it (the question for the current rollup versions, and the count over the graph),
 * for the largest target, example.com.
 *
 * Run: `npx tsx bench/server/clickhouse-floor.ts [--data DIR] [--rounds N]`
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadServerDeps } from '../../src/server/deps.js';
import { openClickhouseStore } from '../../src/server/store/engines/clickhouse/clickhouse-store.js';
import { openLedgerAt } from '../../src/server/store/open.js';
import { startClickhouseCluster } from './clickhouse-cluster.js';

const { values } = parseArgs({ options: { data: { type: 'string', default: '.bench-data' }, rounds: { type: 'string', default: '4' } } });
const ROUNDS = Number(values.rounds);
const PER_CONNECTION = 40;

const cluster = await startClickhouseCluster(join(values.data, 'clickhouse'));
try {
  const probes: { name: string; shard: string; sql: string }[] = [{ name: 'SELECT 1', shard: cluster.shards[0]!, sql: 'SELECT 1' }];
  const databases = (await cluster.query(cluster.shards[0]!, "SELECT DISTINCT database FROM system.tables WHERE name = 'r_targets_local' AND database LIKE 'bench_links_%' ORDER BY database"))
    .split('\n')
    .filter((name) => /^bench_links_\d+$/.test(name));
  for (const database of databases) {
    for (const shard of cluster.shards) {
      const held = await cluster.query(shard, `SELECT count() FROM ${database}.r_targets_local WHERE tkey = 'd:example.com'`);
      if (Number(held.trim()) > 0) probes.push({ name: `one r_targets row (${database})`, shard, sql: `SELECT * FROM ${database}.r_targets_local WHERE tkey = 'd:example.com'` });
    }
  }
  const variants = [
    { name: 'default max_threads', settings: '' },
    { name: 'max_threads=1', settings: '&max_threads=1' },
  ];
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const time = async (shard: string, sql: string, settings: string, concurrency: number): Promise<number> => {
    const times: number[] = [];
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let i = 0; i < PER_CONNECTION; i++) {
          const started = performance.now();
          const response = await fetch(`${shard}/?use_uncompressed_cache=1${settings}`, { method: 'POST', body: `${sql}\nFORMAT JSONEachRow` });
          await response.text();
          if (!response.ok) throw new Error(`${shard} answered ${response.status} to ${sql}`);
          times.push(performance.now() - started);
        }
      }),
    );
    return median(times);
  };
  console.log(`ClickHouse ${cluster.version}, ${ROUNDS} alternating rounds of ${PER_CONNECTION} queries per connection; median of the rounds' medians, ms`);
  console.log('| query | settings | concurrency 1 | concurrency 10 |\n| --- | --- | ---: | ---: |');
  for (const probe of probes) {
    const results = new Map<string, { c1: number[]; c10: number[] }>(variants.map((v) => [v.name, { c1: [], c10: [] }]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const variant of round % 2 === 0 ? variants : [...variants].reverse()) {
        results.get(variant.name)!.c1.push(await time(probe.shard, probe.sql, variant.settings, 1));
        results.get(variant.name)!.c10.push(await time(probe.shard, probe.sql, variant.settings, 10));
      }
    }
    for (const variant of variants) {
      const { c1, c10 } = results.get(variant.name)!;
      console.log(`| ${probe.name} | ${variant.name} | ${median(c1).toFixed(2)} | ${median(c10).toFixed(2)} |`);
    }
  }
  const { tldts } = await loadServerDeps();
  const page = { orderBy: 'similarity', direction: 'DESC', limit: 100, offset: 0 } as const;
  console.log('\n| competitor graph | first call (graph read) ms | later calls, median ms | competitors listed | heap used after, MB |\n| --- | ---: | ---: | ---: | ---: |');
  for (const database of databases) {
    const store = await openClickhouseStore({ urls: cluster.shards, database, parser: tldts, ledger: await openLedgerAt({ kind: 'sqlite', file: ':memory:' }, tldts) });
    try {
      let started = performance.now();
      const first = await store.competitors({ domain: 'example.com', page });
      const read = performance.now() - started;
      const later: number[] = [];
      for (let i = 0; i < 20; i++) {
        started = performance.now();
        await store.competitors({ domain: 'example.com', page });
        later.push(performance.now() - started);
      }
      const heap = process.memoryUsage().heapUsed / 2 ** 20;
      console.log(`| ${database} | ${read.toFixed(0)} | ${median(later).toFixed(2)} | ${first.total} | ${heap.toFixed(0)} |`);
    } finally {
      await store.close();
    }
  }
} finally {
  await cluster.stop();
}
