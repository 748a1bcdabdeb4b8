/**
 * The overview's links first seen on the day "new" starts, on the ClickHouse cluster: counted from
 * that day's row of `r_first_seen_times` (the times of day past the day, per key and day), not from
 * the target's links; and a database whose rollups were written before that table existed (an
 * earlier version of this package) gets its rows at the next open, from the links.
 *
 * The fixture's boundary.com (test/server/support/fixture.ts): NOW 2026-06-15T12:00:00Z, so "new"
 * starts at 2026-05-16T12:00:00; its links were first seen at 2026-05-16T11:59:59 (B1, not new),
 * 12:00:00 (B2), 12:00:01 (B3) and 2026-05-17T00:00:00 (B4): three new at ROOT_DOMAIN, by hand. On
 * the day "new" starts, d:boundary.com has the three times T11:59:59, T12:00:00, T12:00:01.
 *
 * On the real two-shard test cluster (scripts/engines/clickhouse.sh).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadServerDeps, type DomainParser } from '../../../../../src/server/deps.js';
import { createServer } from '../../../../../src/server/server.js';
import { ClickhouseShard } from '../../../../../src/server/store/engines/clickhouse/connection.js';
import { openClickhouseStore, type ClickhouseStore } from '../../../../../src/server/store/engines/clickhouse/clickhouse-store.js';
import { raw, sql } from '../../../../../src/server/store/fragment.js';
import { openLedgerAt } from '../../../../../src/server/store/open.js';
import { KEYS, loadFixture, NOW } from '../../../support/fixture.js';

const BASE = '/_api/apis/v4/backlinks/v1';
const database = `bq_first_seen_${Math.random().toString(36).slice(2, 10)}`;
let urls: string[];
let dir: string;
let parser: DomainParser;
let store: ClickhouseStore | undefined;
let app: FastifyInstance | undefined;

// The app closes the store and its ledger with it; each open has its own, on the same ledger file.
const open = async () => {
  store = await openClickhouseStore({ urls, database, parser, ledger: await openLedgerAt({ kind: 'sqlite', file: join(dir, 'ledger.db') }) });
  app = await createServer({ store, keys: KEYS, now: () => NOW, rateLimits: { perSecond: 1_000_000, concurrent: 1_000_000 } });
};
const close = async () => {
  await app?.close();
  app = undefined;
  store = undefined;
};

beforeAll(async () => {
  const cluster = inject('clickhouseClusterUrl');
  if (!cluster) throw new Error('clickhouseClusterUrl was not provided: the global setup started no ClickHouse cluster (see test/setup/engine-selection.ts).');
  urls = cluster.split(',');
  parser = (await loadServerDeps()).tldts;
  dir = mkdtempSync(join(tmpdir(), 'bq-first-seen-ch-'));
  await open();
  await loadFixture(store!);
}, 120_000);

afterAll(async () => {
  await close();
  for (const url of urls ?? []) await fetch(`${url}/`, { method: 'POST', body: `DROP DATABASE IF EXISTS ${database}` });
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const shards = () => urls.map((url) => new ClickhouseShard({ url, database, timeoutMs: 30_000 }));

/** Every shard's rows of the table, as (tkey, day, times), sorted. */
async function timesRows(): Promise<string[]> {
  const rows = (await Promise.all(shards().map((shard) => shard.all<{ tkey: string; day: string; times: string[] }>(raw('SELECT tkey, day, times FROM r_first_seen_times_local')))))
    .flat()
    .map((row) => `${row.tkey} ${row.day} ${row.times.join(',')}`);
  return rows.sort();
}

async function newCount(scope: string, url: string): Promise<number> {
  const answer = await app!.inject({ method: 'GET', url: `${BASE}/overview?url=${url}&scope=${scope}&fields=new_count`, headers: { authorization: `Apikey ${KEYS[0].key}` } });
  expect(answer.statusCode, answer.body).toBe(200);
  return (answer.json() as { data: { new_count: number } }).data.new_count;
}

/** The new counts the table above gives, by hand. */
const EXPECTED: [string, string, number][] = [
  ['ROOT_DOMAIN', 'boundary.com', 3],
  ['PAGE', 'boundary.com/news/a', 0],
  ['PAGE', 'boundary.com/news/b', 1],
  ['PAGE', 'boundary.com/news/c', 1],
];

describe('r_first_seen_times on the cluster', () => {
  it('holds, per key and day, the times past the day in order; the overview counts the first day from it', async () => {
    const rows = await timesRows();
    expect(rows).toContain('d:boundary.com 2026-05-16 T11:59:59,T12:00:00,T12:00:01');
    expect(rows).toContain('d:boundary.com 2026-05-17 T00:00:00');
    expect(rows).toContain('p:boundary.com/news/b 2026-05-16 T12:00:00');
    for (const [scope, url, expected] of EXPECTED) expect(await newCount(scope, url), `${scope} ${url}`).toBe(expected);
  });

  it('a database from before the table (dropped, or there but empty) gets its rows at the next open, once', async () => {
    const before = await timesRows();
    expect(before.length).toBeGreaterThan(0);
    for (const make of ['dropped', 'empty'] as const) {
      await close();
      for (const shard of shards()) {
        await shard.run(raw('DROP TABLE IF EXISTS r_first_seen_times_local'));
        // Created empty, as an open of this version would before it fills it.
        if (make === 'empty') await shard.run(sql`CREATE TABLE r_first_seen_times_local (tkey String, tdomain String, day String, times Array(String), version UInt64) ENGINE = MergeTree() ORDER BY (tkey, day, version)`);
      }
      await open();
      expect(await timesRows(), make).toEqual(before);
      for (const [scope, url, expected] of EXPECTED) expect(await newCount(scope, url), `${make}: ${scope} ${url}`).toBe(expected);
    }
    // Another open finds nothing missing: no row twice.
    await close();
    await open();
    expect(await timesRows()).toEqual(before);
    // Two servers that open such a database at once may both fill it: every row twice counts once.
    for (const shard of shards()) await shard.run(raw('INSERT INTO r_first_seen_times_local SELECT * FROM r_first_seen_times_local'));
    expect((await timesRows()).length).toBe(2 * before.length);
    for (const [scope, url, expected] of EXPECTED) expect(await newCount(scope, url), `rows twice: ${scope} ${url}`).toBe(expected);
  }, 120_000);
});
