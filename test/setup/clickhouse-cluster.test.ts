/**
 * The two-shard ClickHouse cluster the ClickHouse store runs on (`scripts/engines/clickhouse.sh
 * cluster-start`, provided as `clickhouseClusterUrl` = shard 1's and shard 2's HTTP URLs): both
 * servers list `bq_cluster` with its two shards; a MergeTree table `t_local` on each shard and a
 * `Distributed(bq_cluster, default, t_local, cityHash64(k))` table `t` on shard 1 spread rows by
 * key, every key's rows on exactly one shard, and queries through `t` fan out and merge to what
 * was inserted.
 *
 * Which shard a key lands on: with the weights 1/1 the script writes, shard 1 holds the keys with
 * `cityHash64(k) % 2 = 0` and shard 2 those with `cityHash64(k) % 2 = 1` (checked below on each
 * shard's own `t_local`), so one key's rows can be read on one shard alone:
 * `SELECT ... FROM t_local WHERE k = ...` on shard `cityHash64(k) % 2 + 1`.
 *
 * The rows go in through `t` with `insert_distributed_sync = 1` (18.16.1 has the setting: the
 * INSERT returns once every shard has its rows, so the checks right after it see them all).
 * Values enter SQL text only where they are this file's own keys, which match /^[a-z0-9_]+$/
 * (18.16 has no server-side bound parameters); rows go in as JSONEachRow data.
 */
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const KEYS = Array.from({ length: 50 }, (_, i) => `key_${String(i).padStart(2, '0')}`);

/** 1,000 rows over the 50 keys, unevenly (a small deterministic generator), ids 1..1000. */
const ROWS: readonly { k: string; id: number }[] = (() => {
  let state = 20_261_123;
  const next = (): number => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31);
  // Every key at least once, then keys drawn with a skew towards the low ones.
  const keys = [...KEYS, ...Array.from({ length: 950 }, () => KEYS[Math.floor(((next() / 2 ** 31) ** 2) * KEYS.length)]!)];
  return keys.map((k, i) => ({ k, id: i + 1 }));
})();

/** key -> number of rows inserted, from the test's own data. */
const EXPECTED_COUNTS: ReadonlyMap<string, number> = ROWS.reduce((counts, { k }) => counts.set(k, (counts.get(k) ?? 0) + 1), new Map<string, number>());

function shardUrls(): [string, string] {
  const value = inject('clickhouseClusterUrl');
  if (!value) {
    throw new Error(
      'clickhouseClusterUrl was not provided: the global setup started no ClickHouse cluster for this run. ' +
        'List the test file in ENGINE_FILES.clickhouseCluster in test/setup/engine-selection.ts, or run with BQ_ENGINES=always.',
    );
  }
  const urls = value.split(',');
  if (urls.length !== 2) throw new Error(`clickhouseClusterUrl should be two comma-separated URLs, got ${value}`);
  return [urls[0]!, urls[1]!];
}

function open(url: string): ClickHouseClient {
  return createClient({
    url,
    // 18.16 knows neither compressed requests from this client nor newer settings; keep it plain.
    compression: { request: false, response: false },
    clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
  });
}

async function rows<T>(client: ClickHouseClient, query: string): Promise<T[]> {
  return (await client.query({ query, format: 'JSONEachRow' })).json<T>();
}

/** A key written into SQL text; only this file's own keys, checked. */
function literal(key: string): string {
  if (!/^[a-z0-9_]+$/.test(key)) throw new Error(`not a test key: ${key}`);
  return `'${key}'`;
}

describe('ClickHouse two-shard cluster bq_cluster', () => {
  let shard1: ClickHouseClient;
  let shard2: ClickHouseClient;
  let shards: readonly ClickHouseClient[];

  beforeAll(async () => {
    const [url1, url2] = shardUrls();
    shard1 = open(url1);
    shard2 = open(url2);
    shards = [shard1, shard2];
    await shard1.command({ query: 'DROP TABLE IF EXISTS t' });
    for (const shard of shards) {
      await shard.command({ query: 'DROP TABLE IF EXISTS t_local' });
      // No ZooKeeper, so no ON CLUSTER: the local table is created on each shard.
      await shard.command({ query: 'CREATE TABLE t_local (k String, id UInt64) ENGINE = MergeTree ORDER BY (k, id)' });
    }
    await shard1.command({ query: 'CREATE TABLE t AS t_local ENGINE = Distributed(bq_cluster, default, t_local, cityHash64(k))' });
    await shard1.insert({ table: 't', values: [...ROWS], format: 'JSONEachRow', clickhouse_settings: { insert_distributed_sync: 1 } });
  });

  afterAll(async () => {
    await shard1?.command({ query: 'DROP TABLE IF EXISTS t' });
    for (const shard of shards ?? []) await shard.command({ query: 'DROP TABLE IF EXISTS t_local' });
    await Promise.all((shards ?? []).map((shard) => shard.close()));
  });

  it('is listed on both servers with two shards of one replica each, weight 1, on two TCP ports', async () => {
    const listed = await Promise.all(
      shards.map((shard) =>
        rows<{ shard_num: number; shard_weight: number; replica_num: number; host_address: string; port: number; is_local: number }>(
          shard,
          "SELECT shard_num, shard_weight, replica_num, host_address, port, is_local FROM system.clusters WHERE cluster = 'bq_cluster' ORDER BY shard_num",
        ),
      ),
    );
    for (const [i, list] of listed.entries()) {
      expect(list.map(({ shard_num, shard_weight, replica_num, host_address }) => ({ shard_num, shard_weight, replica_num, host_address }))).toEqual([
        { shard_num: 1, shard_weight: 1, replica_num: 1, host_address: '127.0.0.1' },
        { shard_num: 2, shard_weight: 1, replica_num: 1, host_address: '127.0.0.1' },
      ]);
      // Each server sees itself as its own shard, the other as remote.
      expect(list.map((entry) => entry.is_local)).toEqual(i === 0 ? [1, 0] : [0, 1]);
    }
    expect(listed[0]!.map((entry) => entry.port)).toEqual(listed[1]!.map((entry) => entry.port));
    expect(new Set(listed[0]!.map((entry) => entry.port)).size).toBe(2);
  });

  it('has the data: 1,000 rows over 50 keys, every key at least once', () => {
    expect(ROWS).toHaveLength(1000);
    expect(EXPECTED_COUNTS.size).toBe(50);
  });

  it('puts rows on both shards, all of them, each key on exactly one shard: shard cityHash64(k) % 2 + 1', async () => {
    const perShard = await Promise.all(
      shards.map((shard) => rows<{ k: string; n: number; hash_mod: number }>(shard, 'SELECT k, count() AS n, any(cityHash64(k) % 2) AS hash_mod FROM t_local GROUP BY k ORDER BY k')),
    );
    const [on1, on2] = perShard as [typeof perShard[0], typeof perShard[0]];
    expect(on1.length).toBeGreaterThan(0);
    expect(on2.length).toBeGreaterThan(0);
    // Disjoint key sets whose union is every key.
    const keys1 = new Set(on1.map((row) => row.k));
    expect(on2.filter((row) => keys1.has(row.k))).toEqual([]);
    expect([...on1, ...on2].map((row) => row.k).sort()).toEqual([...KEYS].sort());
    // Each key's rows all on its shard: its count there is every row inserted with it.
    for (const row of [...on1, ...on2]) expect(row.n, `rows of ${row.k}`).toBe(EXPECTED_COUNTS.get(row.k));
    expect([...on1, ...on2].reduce((sum, row) => sum + row.n, 0)).toBe(1000);
    // The shard is fixed by the hash: weights 1/1, so cityHash64(k) % 2 = 0 -> shard 1, = 1 -> shard 2.
    expect(on1.every((row) => row.hash_mod === 0)).toBe(true);
    expect(on2.every((row) => row.hash_mod === 1)).toBe(true);
  });

  it('answers SELECT k, count() FROM t GROUP BY k through shard 1 with the counts inserted', async () => {
    const counts = await rows<{ k: string; n: number }>(shard1, 'SELECT k, count() AS n FROM t GROUP BY k ORDER BY k');
    expect(counts).toEqual([...EXPECTED_COUNTS].map(([k, n]) => ({ k, n })).sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0)));
  });

  it('counts 50 distinct keys through t', async () => {
    expect(await rows(shard1, 'SELECT uniqExact(k) AS keys, count() AS n FROM t')).toEqual([{ keys: 50, n: 1000 }]);
  });

  it.each(['key_00', 'key_17', 'key_49'])('returns only the rows of %s for WHERE k = it, through t and on its own shard', async (key) => {
    const expected = ROWS.filter((row) => row.k === key).map(({ k, id }) => ({ k, id }));
    expect(await rows(shard1, `SELECT k, id FROM t WHERE k = ${literal(key)} ORDER BY id`)).toEqual(expected);
    // The same rows read on one shard alone, the one cityHash64(k) % 2 + 1 names.
    const [{ shard }] = (await rows<{ shard: number }>(shard1, `SELECT cityHash64(${literal(key)}) % 2 + 1 AS shard`)) as [{ shard: number }];
    const own = shards[shard - 1]!;
    const other = shards[2 - shard]!;
    expect(await rows(own, `SELECT k, id FROM t_local WHERE k = ${literal(key)} ORDER BY id`)).toEqual(expected);
    expect(await rows(other, `SELECT k, id FROM t_local WHERE k = ${literal(key)} ORDER BY id`)).toEqual([]);
  });
});
