/**
 * The ClickHouse store lists competitors from a graph it holds in memory (`competitor-graph.ts`).
 * It must stay exact: a write by this store, and a write by another store on the same cluster (as
 * another server process would), shows in the next call.
 *
 * The data is written here and the expectations by hand from the interface's definition
 * (similarity = shared referring domains / all referring domains of the two; listed from 5 shared
 * and similarity 0.01): a.test is linked from s1..s6.test, b.test from s1..s6.test, then c.test from
 * s1..s5.test and s9.test.
 *
 * The graph is read from `r_graph` (each domain's referring domains as ids of `r_graph_ids`), which
 * the refresh writes: its rows are checked against the same hand-written lists; a load of this
 * store reads it ahead (the next call reads no graph); a database without the table gets its rows
 * at the next open; a domain whose rows a process of an earlier version wrote (no graph row) is read
 * from the rollups. Where the answers are not written by hand, they are compared with
 * `competitorsOverLinks` (a store opened with `rollups: false`, counting over the links).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject, vi } from 'vitest';
import { loadServerDeps } from '../../../../../src/server/deps.js';
import { forCall } from '../../../../../src/server/store/call-signal.js';
import { openClickhouseStore, type ClickhouseStore } from '../../../../../src/server/store/engines/clickhouse/clickhouse-store.js';
import { ClickhouseShard } from '../../../../../src/server/store/engines/clickhouse/connection.js';
import { raw } from '../../../../../src/server/store/fragment.js';
import type { LinkInput } from '../../../../../src/server/store/inputs.js';
import { openLedgerAt } from '../../../../../src/server/store/open.js';
import type { Page } from '../../../../../src/server/store/store.js';
import * as fx from '../../../support/fixture.js';

const page: Page = { orderBy: 'similarity', direction: 'DESC', limit: 100, offset: 0 };
const database = `bq_competitors_${Math.random().toString(36).slice(2, 10)}`;
let urls: string[];
let dir: string;
let store: ClickhouseStore;
let other: ClickhouseStore;
/** Counts over the links (`competitorsOverLinks`): the independent slow path. */
let slow: ClickhouseStore;
let open: (ledger: string, rollups?: boolean) => Promise<ClickhouseStore>;

/** One link from https://<source>/ to https://<target>/. */
const link = (source: string, target: string): LinkInput => ({
  ...fx.exampleLinks[0]!,
  source_url: `https://${source}/`,
  target_url: `https://${target}/`,
  source_domain: source,
});
const from = (target: string, sources: readonly number[]) => sources.map((s) => link(`s${s}.test`, target));

beforeAll(async () => {
  const cluster = inject('clickhouseClusterUrl');
  if (!cluster) throw new Error('clickhouseClusterUrl was not provided: the global setup started no ClickHouse cluster (see test/setup/engine-selection.ts).');
  urls = cluster.split(',');
  const { tldts } = await loadServerDeps();
  dir = mkdtempSync(join(tmpdir(), 'bq-competitors-ch-'));
  open = async (ledger, rollups = true) =>
    openClickhouseStore({ urls, database, parser: tldts, rollups, ledger: await openLedgerAt({ kind: 'sqlite', file: join(dir, ledger) }) });
  store = await open('a.db');
  other = await open('b.db');
  slow = await open('c.db', false);
}, 120_000);

afterAll(async () => {
  await Promise.all([store?.close(), other?.close(), slow?.close()]);
  for (const url of urls ?? []) await fetch(`${url}/`, { method: 'POST', body: `DROP DATABASE IF EXISTS ${database}` });
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function write(into: ClickhouseStore, links: LinkInput[]): Promise<void> {
  const writer = await into.writer();
  await writer.links(links);
  await writer.finish();
}

describe('ClickHouse store: competitors from the graph in memory', () => {
  it('lists the competitors of the written links, and follows writes of this store and of another one', async () => {
    await write(store, [...from('a.test', [1, 2, 3, 4, 5, 6]), ...from('b.test', [1, 2, 3, 4, 5, 6])]);
    expect(await store.competitors({ domain: 'a.test', page })).toEqual({ total: 1, rows: [{ domain: 'b.test', similarity: 1, common_refdomains: 6 }] });
    expect(await store.competitors({ domain: 'nothing.test', page })).toEqual({ total: 0, rows: [] });

    // Another store (another process) writes c.test: 5 shared with a.test of 7 in all.
    await write(other, from('c.test', [1, 2, 3, 4, 5, 9]));
    expect(await store.competitors({ domain: 'a.test', page })).toEqual({
      total: 2,
      rows: [
        { domain: 'b.test', similarity: 1, common_refdomains: 6 },
        { domain: 'c.test', similarity: 5 / 7, common_refdomains: 5 },
      ],
    });

    // This store writes b.test's links from s7..s10 too: 6 shared of 10.
    await write(store, from('b.test', [7, 8, 9, 10]));
    expect(await store.competitors({ domain: 'a.test', page })).toEqual({
      total: 2,
      rows: [
        { domain: 'c.test', similarity: 5 / 7, common_refdomains: 5 },
        { domain: 'b.test', similarity: 6 / 10, common_refdomains: 6 },
      ],
    });
    // And the other store, whose graph was never read, agrees.
    expect(await other.competitors({ domain: 'c.test', page })).toEqual({
      total: 2,
      rows: [
        { domain: 'a.test', similarity: 5 / 7, common_refdomains: 5 },
        { domain: 'b.test', similarity: 6 / 10, common_refdomains: 6 },
      ],
    });
  });
});

const shards = () => urls.map((url) => new ClickhouseShard({ url, database, timeoutMs: 30_000 }));

/** Every domain's current graph row on the shards, its ids turned back into domains: `domain: s1.test s2.test ...` (sorted). */
async function graphRows(): Promise<string[]> {
  const [entry] = shards();
  const ids = await entry!.all<{ domain: string; id: number }>(raw('SELECT domain, id FROM r_graph_ids'));
  const names = new Map(ids.map((row) => [Number(row.id), row.domain]));
  // One id per domain, one domain per id.
  expect(names.size).toBe(ids.length);
  expect(new Set(ids.map((row) => row.domain)).size).toBe(ids.length);
  const rows = await Promise.all(
    shards().map((shard) =>
      shard.all<{ tdomain: string; sources: number[] }>(
        raw('SELECT tdomain, sources FROM r_graph_local WHERE (tdomain, version) IN (SELECT tdomain, max(version) FROM r_versions_local GROUP BY tdomain)'),
      ),
    ),
  );
  return rows
    .flat()
    .map((row) => `${row.tdomain}: ${row.sources.map((id) => names.get(Number(id)) ?? `unknown id ${id}`).sort().join(' ')}`)
    .sort();
}

const sources = (numbers: readonly number[]) => numbers.map((n) => `s${n}.test`).sort().join(' ');

/** The answers of `into` for every domain, beside those counted over the links. */
async function expectAsOverLinks(into: ClickhouseStore, domains: readonly string[]): Promise<void> {
  for (const domain of domains) {
    for (const order of [page, { ...page, orderBy: 'common_refdomains', direction: 'ASC' as const }, { ...page, limit: 1, offset: 1 }]) {
      expect(await into.competitors({ domain, page: order }), `${domain} ${JSON.stringify(order)}`).toEqual(await slow.competitors({ domain, page: order }));
    }
  }
}

/** Replaces every shard's `r_graph_local` by its rows that `keep` says (a database of an earlier version, or a writer that wrote none). */
async function keepGraphRows(keep: string): Promise<void> {
  for (const shard of shards()) {
    await shard.run(raw('DROP TABLE IF EXISTS r_graph_kept'));
    await shard.run(raw('CREATE TABLE r_graph_kept AS r_graph_local'));
    await shard.run(raw(`INSERT INTO r_graph_kept SELECT * FROM r_graph_local WHERE ${keep}`));
    await shard.run(raw('DROP TABLE r_graph_local'));
    await shard.run(raw('RENAME TABLE r_graph_kept TO r_graph_local'));
  }
}

/** The SQL text of the requests the store sends to the shards while `work` runs as a call named `name`. */
async function statementsOf(name: string, work: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const realFetch = globalThis.fetch;
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (urls.includes(url.origin) && url.searchParams.get('query_id')?.startsWith(`${name}-`)) sent.push(String(init?.body));
    return realFetch(input, init);
  });
  try {
    await forCall(new AbortController().signal, work, name);
  } finally {
    spy.mockRestore();
  }
  return sent;
}

describe('ClickHouse store: the competitor graph the refresh writes (r_graph)', () => {
  it('holds each domain of the test above with its referring domains, as ids one per domain', async () => {
    expect(await graphRows()).toEqual([`a.test: ${sources([1, 2, 3, 4, 5, 6])}`, `b.test: ${sources([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])}`, `c.test: ${sources([1, 2, 3, 4, 5, 9])}`]);
    await expectAsOverLinks(store, ['a.test', 'b.test', 'c.test']);
  });

  it('is read ahead by a load of this store: the next call reads no graph, and answers from the load', async () => {
    await write(store, from('d.test', [1, 2, 3, 4, 5, 6, 7]));
    const statements = await statementsOf('first-call', async () =>
      expect(await store.competitors({ domain: 'd.test', page })).toEqual({
        total: 3,
        rows: [
          { domain: 'a.test', similarity: 6 / 7, common_refdomains: 6 },
          { domain: 'b.test', similarity: 7 / 10, common_refdomains: 7 },
          { domain: 'c.test', similarity: 5 / 8, common_refdomains: 5 },
        ],
      }),
    );
    expect(statements.length).toBeGreaterThan(0);
    for (const text of statements) expect(text).not.toMatch(/r_graph|r_ref_domains/);
    expect(await graphRows()).toContain(`d.test: ${sources([1, 2, 3, 4, 5, 6, 7])}`);
  });

  it('is not read ahead by a store that has answered no competitors call (a process that only loads)', async () => {
    const loader = await open('d.db');
    const reads: string[] = [];
    const realFetch = globalThis.fetch;
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      if (/FROM r_graph\b/.test(String(init?.body))) reads.push(String(init?.body));
      return realFetch(input, init);
    });
    try {
      await write(loader, from('h.test', [20, 21]));
      // Long enough for a read ahead to have sent its statements.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    } finally {
      spy.mockRestore();
      await loader.close();
    }
    expect(reads).toEqual([]);
  });

  it('a graph read ahead is not taken once another store has loaded since', async () => {
    // This store loads (and reads the graph ahead), then another one loads before the next call:
    // g.test shares 5 of d.test's 7 referring domains, 5 of 8 in all.
    await write(store, from('g.test', [1, 2, 3]));
    await write(other, from('g.test', [4, 5, 13]));
    // The graph is read again by the call.
    const statements = await statementsOf('after-other', async () =>
      expect(await store.competitors({ domain: 'g.test', page })).toEqual(await slow.competitors({ domain: 'g.test', page })),
    );
    expect(statements.filter((text) => /FROM r_graph\b/.test(text)).length).toBeGreaterThan(0);
    expect((await store.competitors({ domain: 'g.test', page })).rows.find((row) => row.domain === 'd.test')).toEqual({ domain: 'd.test', similarity: 5 / 8, common_refdomains: 5 });
  });

  it('a domain without its graph row (written by an earlier version) is read from the rollups, as exact', async () => {
    // Another store writes e.test, then its graph row goes, as if a process of an earlier version had written it.
    await write(other, from('e.test', [1, 2, 3, 4, 5, 11]));
    await keepGraphRows(`tdomain != 'e.test'`);
    expect(await graphRows()).not.toContain(expect.stringMatching(/^e\.test/));
    expect(await store.competitors({ domain: 'e.test', page })).toEqual({
      total: 5,
      rows: [
        { domain: 'g.test', similarity: 5 / 7, common_refdomains: 5 },
        { domain: 'c.test', similarity: 5 / 7, common_refdomains: 5 },
        { domain: 'a.test', similarity: 5 / 7, common_refdomains: 5 },
        { domain: 'd.test', similarity: 5 / 8, common_refdomains: 5 },
        { domain: 'b.test', similarity: 5 / 11, common_refdomains: 5 },
      ].sort((x, y) => y.similarity - x.similarity || (x.domain < y.domain ? -1 : 1)),
    });
    await expectAsOverLinks(store, ['a.test', 'b.test', 'c.test', 'd.test', 'e.test', 'g.test']);
  });

  it('ids that clash (two writers at once) are never read as a graph; the next open writes them anew', async () => {
    // An open first writes e.test's missing row (the test above), so that every domain has one.
    await (await open('filler.db')).close();
    // As a second writer would: s77-s81.test given the ids of s1-s5.test, then k.test linked from
    // them, which shares none of the others' referring domains (read by the ids, it would share 5).
    const ids = await shards()[0]!.all<{ domain: string; id: number }>(raw(`SELECT domain, id FROM r_graph_ids WHERE domain IN ('s1.test', 's2.test', 's3.test', 's4.test', 's5.test')`));
    expect(ids).toHaveLength(5);
    await shards()[0]!.insert('r_graph_ids', ids.map((row) => ({ domain: `s${76 + Number(row.domain.slice(1, 2))}.test`, id: Number(row.id) })));
    await write(other, from('k.test', [77, 78, 79, 80, 81]));
    const domains = ['a.test', 'b.test', 'c.test', 'd.test', 'e.test', 'g.test', 'k.test'];
    expect(await store.competitors({ domain: 'k.test', page })).toEqual({ total: 0, rows: [] });
    await expectAsOverLinks(store, domains);
    const reopened = await open('reopened.db');
    try {
      const [clashes] = await shards()[0]!.all<{ n: number }>(raw(`SELECT count() AS n FROM (SELECT id FROM r_graph_ids GROUP BY id HAVING count() > 1)`));
      expect(Number(clashes!.n)).toBe(0);
      expect(await graphRows()).toContain(`k.test: ${sources([77, 78, 79, 80, 81])}`);
      await expectAsOverLinks(reopened, domains);
    } finally {
      await reopened.close();
    }
  });

  it('a database without the graph (the tables dropped, or there but empty) gets its rows at the next open, once', async () => {
    const expected = [
      `a.test: ${sources([1, 2, 3, 4, 5, 6])}`,
      `b.test: ${sources([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])}`,
      `c.test: ${sources([1, 2, 3, 4, 5, 9])}`,
      `d.test: ${sources([1, 2, 3, 4, 5, 6, 7])}`,
      `e.test: ${sources([1, 2, 3, 4, 5, 11])}`,
      `g.test: ${sources([1, 2, 3, 4, 5, 13])}`,
      `h.test: ${sources([20, 21])}`,
      `k.test: ${sources([77, 78, 79, 80, 81])}`,
    ];
    for (const make of ['dropped', 'empty'] as const) {
      if (make === 'dropped') {
        for (const shard of shards()) await shard.run(raw('DROP TABLE IF EXISTS r_graph_local'));
        await shards()[0]!.run(raw('DROP TABLE IF EXISTS r_graph_ids'));
      } else {
        await keepGraphRows('0');
      }
      await store.close();
      store = await open('a.db');
      expect(await graphRows(), make).toEqual(expected);
      await expectAsOverLinks(store, ['a.test', 'b.test', 'c.test', 'd.test', 'e.test', 'g.test']);
    }
    // Another open finds nothing missing: no row twice, no id added.
    const [entry] = shards();
    const count = async () => (await Promise.all(shards().map((shard) => shard.all<{ n: number }>(raw('SELECT count() AS n FROM r_graph_local'))))).map((rows) => Number(rows[0]!.n));
    const before = { rows: await count(), ids: await entry!.all(raw('SELECT domain, id FROM r_graph_ids ORDER BY id')) };
    await store.close();
    store = await open('a.db');
    expect({ rows: await count(), ids: await entry!.all(raw('SELECT domain, id FROM r_graph_ids ORDER BY id')) }).toEqual(before);
    // A load after the fill keeps the ids: f.test's referring domains are those the fill numbered and one more.
    await write(store, from('f.test', [1, 2, 3, 4, 5, 12]));
    expect(await graphRows()).toEqual([...expected, `f.test: ${sources([1, 2, 3, 4, 5, 12])}`].sort());
    await expectAsOverLinks(store, ['a.test', 'e.test', 'f.test']);
  }, 120_000);
});
