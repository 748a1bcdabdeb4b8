/**
 * ClickHouse replaces a row only when the parts holding it merge: until then a link written twice
 * has two rows. The store reads links with `FINAL` while a writer's rows may be unmerged, and
 * without it once the writer has merged them (`write_marks_local`, see `schema.ts`). Both halves:
 * a list taken in the middle of a write shows each link once, with its newest values, and after
 * `finish` every replacing table is one part and the store reads without `FINAL`.
 *
 * Expected values come from the fixture (test/server/support/fixture.ts: 7 links to example.com) and the
 * rewrite below, not from the store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { clockAt } from '../../../../../src/server/clock.js';
import { loadServerDeps } from '../../../../../src/server/deps.js';
import { openClickhouseStore, type ClickhouseStore } from '../../../../../src/server/store/engines/clickhouse/clickhouse-store.js';
import { raw } from '../../../../../src/server/store/fragment.js';
import { openLedgerAt } from '../../../../../src/server/store/open.js';
import type { Page } from '../../../../../src/server/store/store.js';
import { toTarget } from '../../../../../src/server/target.js';
import { parseFilter } from '../../../../../src/syntax/parse.js';
import * as fx from '../../../support/fixture.js';
import { loadFixture } from '../../../support/helpers.js';

const clock = clockAt(new Date('2026-06-15T00:00:00Z'));
const page: Page = { orderBy: 'source_url', direction: 'ASC', limit: 100, offset: 0 };

let store: ClickhouseStore;
let urls: string[];
let dir: string;
const database = `bq_merge_${Math.random().toString(36).slice(2, 10)}`;

beforeAll(async () => {
  const cluster = inject('clickhouseClusterUrl');
  if (!cluster) throw new Error('clickhouseClusterUrl was not provided: the global setup started no ClickHouse cluster (see test/setup/engine-selection.ts).');
  urls = cluster.split(',');
  const { tldts } = await loadServerDeps();
  dir = mkdtempSync(join(tmpdir(), 'bq-merge-ch-'));
  store = await openClickhouseStore({ urls, database, parser: tldts, ledger: await openLedgerAt({ kind: 'sqlite', file: join(dir, 'ledger.db') }) });
  await loadFixture(store);
}, 120_000);

afterAll(async () => {
  await store?.close();
  for (const url of urls ?? []) await fetch(`${url}/`, { method: 'POST', body: `DROP DATABASE IF EXISTS ${database}` });
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Whether the store's marks say a write is unmerged, on each shard (its own statement, not the store's). */
async function unmergedOnShards(): Promise<boolean[]> {
  return Promise.all(
    store.shards.map(async (shard) => {
      const marks = await shard.all<{ writer: number; state: number }>(raw('SELECT writer, state FROM write_marks_local'));
      const latest = (state: number) => Math.max(0, ...marks.filter((m) => Number(m.state) === state).map((m) => Number(m.writer)));
      return latest(0) > latest(1);
    }),
  );
}

/** The active parts of each replacing table on each shard. */
async function partsPerTable(): Promise<Record<string, number>[]> {
  return Promise.all(
    store.shards.map(async (shard) => {
      const rows = await shard.all<{ table: string; n: number }>(
        raw(`SELECT table, count() AS n FROM system.parts WHERE database = '${database}' AND active AND table IN ('links_local', 'domains_local', 'target_pages_local') GROUP BY table ORDER BY table`),
      );
      return Object.fromEntries(rows.map((row) => [row.table, Number(row.n)]));
    }),
  );
}

describe('ClickHouse store: links written again before and after the merge', () => {
  it('lists each link once with its newest values while the write is unmerged, and reads merged tables after finish', async () => {
    const { tldts } = await loadServerDeps();
    const target = toTarget('example.com', 'ROOT_DOMAIN', tldts)!;
    const filter = parseFilter('page_score >= 0');
    const list = async () => store.grouped('links', { target, page, filter, clock });

    expect(await unmergedOnShards()).toEqual([false, false]);
    const before = await list();
    expect(before.total).toBe(7);
    expect(before.rows.map((row) => row.page_score)).not.toContain(77);

    // The same 7 links (same source, target, anchor and image: the same identity), new values.
    const writer = await store.writer();
    await writer.links(fx.exampleLinks.map((link) => ({ ...link, page_score: 77, source_title: 'written again' })));
    expect(await unmergedOnShards()).toEqual([true, true]);
    const during = await list();
    expect(during.total).toBe(7);
    const seen = (rows: typeof during.rows) => rows.map((row) => [row.source_url, row.target_url, row.page_score, row.source_title].join(' ')).sort();
    expect(seen(during.rows)).toEqual(fx.exampleLinks.map((link) => [link.source_url, link.target_url, 77, 'written again'].join(' ')).sort());

    await writer.finish();
    expect(await unmergedOnShards()).toEqual([false, false]);
    for (const shard of await partsPerTable()) for (const n of Object.values(shard)) expect(n).toBe(1);
    const after = await list();
    expect(after.total).toBe(7);
    expect(seen(after.rows)).toEqual(seen(during.rows));
    expect((await store.overview(target, clock)).backlinks_count).toBe(7);
  }, 120_000);

  it('deletes the rollup versions a refresh replaced, and keeps the current one', async () => {
    // The first test wrote example.com's links again: its domain was refreshed twice.
    const versions = async () =>
      Promise.all(
        store.shards.map(async (shard) => {
          const [row] = await shard.all<{ n: number }>(raw(`SELECT uniqExact(version) AS n FROM r_targets_local WHERE tdomain = 'example.com'`));
          return Number(row!.n);
        }),
      );
    // ClickHouse deletes in the background: the versions of the domain's shard go from 2 to 1.
    await expect.poll(async () => (await versions()).sort(), { timeout: 30_000 }).toEqual([0, 1]);
    const { tldts } = await loadServerDeps();
    expect((await store.overview(toTarget('example.com', 'ROOT_DOMAIN', tldts)!, clock)).backlinks_count).toBe(7);
  }, 60_000);

  it('another process sees a write unmerged as soon as its first row exists', async () => {
    // A second store on the same database keeps its own merge state, as another server process does.
    const other = await openClickhouseStore({ urls, database, parser: (await loadServerDeps()).tldts, ledger: await openLedgerAt({ kind: 'sqlite', file: join(dir, 'other.db') }) });
    try {
      const { tldts } = await loadServerDeps();
      const target = toTarget('example.com', 'ROOT_DOMAIN', tldts)!;
      const list = async () => other.grouped('links', { target, page, filter: parseFilter('page_score >= 0'), clock });
      // The other store reads the marks now (merged) and trusts them for a while.
      expect((await list()).total).toBe(7);
      const writer = await store.writer();
      await writer.links(fx.exampleLinks.map((link) => ({ ...link, page_score: 78 })));
      // Right after the write: each link once, with its newest values.
      const during = await list();
      expect(during.total).toBe(7);
      expect(during.rows.map((row) => row.page_score)).toEqual(fx.exampleLinks.map(() => 78));
      await writer.finish();
    } finally {
      await other.close();
    }
  }, 60_000);
});
