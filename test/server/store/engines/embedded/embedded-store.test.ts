/**
 * What the embedded store adds to the SQLite store: its column file is derived data, rebuilt when
 * missing or behind the SQLite file (a load that stopped half way); a server opens it read-only,
 * beside other readers, and a load from another process runs beside them; a plain SQLite store refuses the
 * SQLite half; a plain SQLite file becomes the SQLite half; a column statement past its time bound
 * is a StoreUnavailableError. Expected answers come from the fixture, worked out by hand.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clockAt } from '../../../../../src/server/clock.js';
import { loadServerDeps } from '../../../../../src/server/deps.js';
import { openEmbeddedStore, type EmbeddedStore } from '../../../../../src/server/store/engines/embedded/embedded-store.js';
import { StoreUnavailableError } from '../../../../../src/server/store/connection.js';
import { isStoreError } from '../../../../../src/server/store/errors.js';
import { raw } from '../../../../../src/server/store/fragment.js';
import { openSqliteStore } from '../../../../../src/server/store/engines/sqlite/sqlite-store.js';
import type { Store } from '../../../../../src/server/store/store.js';
import { toTarget } from '../../../../../src/server/target.js';
import { parseFilter } from '../../../../../src/syntax/parse.js';
import { spawnCli } from '../../../support/cli-process.js';
import { servedNofollow } from './embedded-serve.js';
import * as fx from '../../../support/fixture.js';
import { loadFixture } from '../../../support/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'bq-embedded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newFile = () => join(dir, `store-${++files}.db`);

const clock = clockAt(fx.NOW);

/** The fixture's nofollow links to example.com by page score, descending: L4 (70), L2 (45), L3 (30). */
async function nofollowLinks(store: Store): Promise<{ total: number; sources: string[] }> {
  const { tldts } = await loadServerDeps();
  const result = await store.grouped('links', {
    target: toTarget('example.com', 'ROOT_DOMAIN', tldts)!,
    page: { orderBy: 'page_score', direction: 'DESC', limit: 10, offset: 0 },
    filter: parseFilter('is_nofollow = true', { operation: 'links' }),
    clock,
  });
  return { total: result.total, sources: result.rows.map((row) => row.source_url) };
}
const NOFOLLOW = { total: 3, sources: ['https://gamma.io/review', 'https://alpha.org/post-2', 'https://beta.net/links'] };

async function fixtureFile(): Promise<string> {
  const file = newFile();
  const store = await openEmbeddedStore({ file, readers: 1 });
  await loadFixture(store);
  expect(await nofollowLinks(store)).toEqual(NOFOLLOW);
  await store.close();
  return file;
}

async function withStore<T>(open: Promise<EmbeddedStore>, use: (store: EmbeddedStore) => Promise<T>): Promise<T> {
  const store = await open;
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

describe('the column file', () => {
  it('is rebuilt from the SQLite file when it is missing', async () => {
    const file = await fixtureFile();
    rmSync(`${file}.duckdb`);
    await withStore(openEmbeddedStore({ file, readers: 1 }), async (store) => {
      expect(await nofollowLinks(store)).toEqual(NOFOLLOW);
      expect(await store.competitors({ domain: 'example.com', page: { orderBy: 'similarity', direction: 'DESC', limit: 10, offset: 0 } })).toMatchObject({
        total: 2, // rival.com and other.co.uk share 5 referring domains each; third.com only 4
      });
    });
  });

  it('is left as it was by a load that stopped before its end: the load is one SQLite transaction, never committed', async () => {
    const file = await fixtureFile();
    const columnsFile = `${file}.duckdb`;
    const before = statSync(columnsFile).mtimeMs;
    await withStore(openEmbeddedStore({ file, readers: 1 }), async (store) => {
      const writer = await store.writer();
      // An eighth nofollow link to example.com, from a new page of delta.de, with the highest page score; no finish().
      await writer.links([{ ...fx.exampleLinks[5]!, source_url: 'https://delta.de/late', is_nofollow: true, page_score: 99 }]);
    });
    await withStore(openEmbeddedStore({ file, readers: 1 }), async (store) => {
      expect(await nofollowLinks(store)).toEqual(NOFOLLOW);
      expect((store.db.prepare('SELECT count(*) AS n FROM links').get() as { n: number }).n).toBe(
        [fx.exampleLinks, fx.rivalLinks, fx.otherLinks, fx.thirdLinks, fx.boundaryLinks].reduce((sum, list) => sum + list.length, 0),
      );
    });
    // The column file was never written: still the copy of the SQLite file's generation, not rebuilt.
    expect(statSync(columnsFile).mtimeMs).toBe(before);
  });

  it('is rebuilt from the SQLite file as it was when a refresh stopped half way (the load rolled back)', async () => {
    const file = await fixtureFile();
    await withStore(openEmbeddedStore({ file, readers: 1 }), async (store) => {
      const writer = await store.writer();
      await writer.links([{ ...fx.exampleLinks[5]!, source_url: 'https://delta.de/late', is_nofollow: true, page_score: 99 }]);
      // The refresh fails after its first domain: some of the column file's rows may be written by then.
      await expect(
        writer.finish({
          all: true,
          onProgress: () => {
            throw new Error('stopped');
          },
        }),
      ).rejects.toThrow('stopped');
    });
    await withStore(openEmbeddedStore({ file, readers: 1 }), async (store) => {
      expect(await nofollowLinks(store)).toEqual(NOFOLLOW);
    });
  });

  it('after a refresh that stopped half way, takes the next load on the same store', async () => {
    const file = await fixtureFile();
    const late = { ...fx.exampleLinks[5]!, source_url: 'https://delta.de/late', is_nofollow: true, page_score: 99 };
    // A group per domain: the first domain's rows are set aside before the refresh stops at the second.
    await withStore(openEmbeddedStore({ file, readers: 1, groupLinks: 1 }), async (store) => {
      const first = await store.writer();
      await first.links([late]);
      const stop = () => {
        throw new Error('stopped');
      };
      await expect(first.finish({ all: true, onProgress: stop })).rejects.toThrow('stopped');
      const again = await store.writer();
      await again.links([late]);
      await again.finish({ all: true });
      // The late link (page score 99) first, then the fixture's three nofollow links.
      expect(await nofollowLinks(store)).toEqual({ total: 4, sources: ['https://delta.de/late', ...NOFOLLOW.sources] });
    });
  });

  it("keeps SQLite's page cache at 256 MiB through a load, its refresh included, whether it ends or stops (the memory is DuckDB's)", async () => {
    const file = await fixtureFile();
    const late = { ...fx.exampleLinks[5]!, source_url: 'https://delta.de/late', is_nofollow: true, page_score: 99 };
    await withStore(openEmbeddedStore({ file, readers: 1 }), async (store) => {
      // In KiB, negative: 256 MiB (docs/importing.md, "Large files and interrupted imports").
      const cache = () => store.db.pragma('cache_size', { simple: true });
      const during: unknown[] = [];
      const first = await store.writer();
      expect(cache()).toBe(-262_144);
      await first.links([late]);
      const stop = () => {
        during.push(cache());
        throw new Error('stopped');
      };
      await expect(first.finish({ all: true, onProgress: stop })).rejects.toThrow('stopped');
      expect(cache()).toBe(-262_144);
      const again = await store.writer();
      await again.links([late]);
      await again.finish({ all: true, onProgress: () => during.push(cache()) });
      expect(cache()).toBe(-262_144);
      expect(new Set(during)).toEqual(new Set([-262_144]));
      expect(during.length).toBeGreaterThan(1);
    });
  });

  it('opened read-only, is shared by several readers, which give no writer; a load from another process runs beside them, and both read it after its commit', async () => {
    const file = await fixtureFile();
    const first = await openEmbeddedStore({ file, readers: 1, readOnly: true });
    const second = await openEmbeddedStore({ file, readers: 1, readOnly: true });
    try {
      expect(await nofollowLinks(first)).toEqual(NOFOLLOW);
      expect(await nofollowLinks(second)).toEqual(NOFOLLOW);
      const refused = await first.writer().then(() => expect.unreachable('a writer was given'), (error: unknown) => error);
      expect(isStoreError(refused) && refused.code).toBe('read_only');
      expect((refused as Error).message).toMatch(/open for serving/);
      expect((refused as Error).message).not.toMatch(/--[a-z]/);
      // A fourth nofollow link to example.com, from a new page of delta.de, with the highest page score (99).
      const records = join(dir, `late-${files}.ndjson`);
      writeFileSync(records, `${JSON.stringify({ ...fx.exampleLinks[5]!, source_url: 'https://delta.de/late', is_nofollow: true, page_score: 99 })}\n`);
      const load = spawnCli(['import', records, '--db', file]);
      expect(await load.exit).toBe(0);
      const after = { total: 4, sources: ['https://delta.de/late', ...NOFOLLOW.sources] };
      expect(await nofollowLinks(first)).toEqual(after);
      expect(await nofollowLinks(second)).toEqual(after);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it("a next generation left by a stopped load is removed by the next store to open, but not while a load holds the write lock (it is that load's)", async () => {
    const file = await fixtureFile();
    const next = `${file}.duckdb.next`;
    writeFileSync(next, 'the next generation of a load that stopped');
    // A load in another process: SQLite's write lock held.
    const loading = new Database(file);
    loading.exec('BEGIN IMMEDIATE');
    try {
      const reader = await openEmbeddedStore({ file, readers: 1, readOnly: true });
      expect(await nofollowLinks(reader)).toEqual(NOFOLLOW);
      await reader.close();
      expect(existsSync(next), 'removed under a running load').toBe(true);
    } finally {
      loading.exec('ROLLBACK');
      loading.close();
    }
    for (const options of [{ readOnly: true }, { readOnly: false }]) {
      writeFileSync(next, 'the next generation of a load that stopped');
      const store = await openEmbeddedStore({ file, readers: 1, ...options });
      expect(existsSync(next), `kept by a store opened ${options.readOnly ? 'to serve' : 'to load'}`).toBe(false);
      expect(await nofollowLinks(store)).toEqual(NOFOLLOW);
      await store.close();
    }
  });

  it('serve opens a stale column file: it is rebuilt first, then served', async () => {
    const file = await fixtureFile();
    rmSync(`${file}.duckdb`);
    expect(await servedNofollow(file)).toEqual({ total: NOFOLLOW.total, rows: NOFOLLOW.sources.map((source) => [source]) });
    expect(existsSync(`${file}.duckdb`)).toBe(true);
  });
});

describe('the SQLite half', () => {
  it('is refused by a plain SQLite store, which would answer lists from empty rollups', async () => {
    const file = await fixtureFile();
    const refused = await openSqliteStore({ file }).then(() => expect.unreachable('it opened'), (error: unknown) => error);
    expect(isStoreError(refused) && refused.code).toBe('wrong_layout');
    expect((refused as Error).message).toMatch(/row file of an embedded store/);
    expect((refused as Error).message).not.toMatch(/--[a-z]/);
    // The command line adds the option to open it with; the library's message names none.
    const load = spawnCli(['import', join(dir, 'missing.ndjson'), '--database-url', `sqlite:${file}`]);
    await load.exit;
    expect(load.err()).toContain(`${file} is the row file of an embedded store`);
    expect(load.err()).toContain('That is --db FILE, not --database-url sqlite:FILE.');
  });

  it('a plain SQLite file becomes one: its column file is built from it, its list rollups moved there', async () => {
    const file = newFile();
    const plain = await openSqliteStore({ file });
    await loadFixture(plain);
    expect(await nofollowLinks(plain)).toEqual(NOFOLLOW);
    await plain.close();
    await withStore(openEmbeddedStore({ file, readers: 1 }), async (store) => {
      expect(await nofollowLinks(store)).toEqual(NOFOLLOW);
      // The list rollups live in the column file now; SQLite keeps the ones read by key.
      expect(await store.connection.all(raw('SELECT count(*) AS n FROM r_ref_domains'))).toEqual([{ n: 0 }]);
      expect(await store.columns.all(raw(`SELECT count(*) AS n FROM r_ref_domains WHERE tkey = 'd:example.com'`))).toEqual([{ n: 5 }]);
    });
    const sqlite = new Database(file, { readonly: true });
    expect(sqlite.prepare(`SELECT value FROM store_meta WHERE key = 'layout'`).get()).toEqual({ value: 'embedded' });
    sqlite.close();
  });
});

it('a column statement past its time bound is a StoreUnavailableError, and the store goes on', async () => {
  await withStore(openEmbeddedStore({ columns: { statementTimeoutMs: 50 } }), async (store) => {
    const slow = raw('SELECT count(*) AS n FROM range(1000000000) a, range(100) b WHERE a.range % 7 = b.range');
    await expect(store.columns.all(slow)).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(await store.columns.all(raw('SELECT 41 + 1 AS n'))).toEqual([{ n: 42 }]);
  });
});

describe('lists longer than a window (1,000 keys)', () => {
  // 2,400 links to big.com from 1,200 referring domains (two each); link i has page_score i % 100
  // and is nofollow when i % 3 = 0. By hand: page_score >= 50 holds for 1,200 links; nofollow for
  // 800; both for 400 (i % 300 in 50..99, 150..199, 250..299 with i % 3 = 0: 17 + 17 + 16 = 50 per
  // 300, times 8). Referring domain d<n> links with i = 2n and 2n + 1.
  const links = Array.from({ length: 2_400 }, (_, i) => ({
    ...fx.exampleLinks[0]!,
    source_url: `https://d${String(i >> 1).padStart(4, '0')}.com/p${i}`,
    source_domain: `d${String(i >> 1).padStart(4, '0')}.com`,
    target_url: `https://big.com/page-${i % 7}`,
    page_score: i % 100,
    is_nofollow: i % 3 === 0,
  }));

  it('counts every matching row, pages past the window, and asks the same pages again with the same answers', async () => {
    const { tldts } = await loadServerDeps();
    const target = toTarget('big.com', 'ROOT_DOMAIN', tldts)!;
    await withStore(openEmbeddedStore({ file: newFile(), readers: 1 }), async (store) => {
      const writer = await store.writer();
      await writer.links(links);
      await writer.finish();
      const list = (filter: string, offset: number) =>
        store.grouped('links', { target, page: { orderBy: 'source_url', direction: 'ASC', limit: 100, offset }, filter: parseFilter(filter, { operation: 'links' }), clock });
      for (const [filter, total] of [['page_score >= 50', 1_200], ['is_nofollow = true', 800], ['page_score >= 50 AND is_nofollow = true', 400]] as const) {
        const first = await list(filter, 0);
        expect(first.total, filter).toBe(total);
        expect(first.rows).toHaveLength(100);
        // Past the first window of 1,000 keys, when the list is that long.
        const deep = await list(filter, total - 50);
        expect({ total: deep.total, rows: deep.rows.length }, filter).toEqual({ total, rows: 50 });
        expect(await list(filter, 0), filter).toEqual(first);
      }
      // A page of referring domains past the window (1,200 domains, descending: d1199.com first).
      const domains = await store.grouped('ref-domains', {
        target,
        page: { orderBy: 'domain', direction: 'DESC', limit: 3, offset: 1_100 },
        filter: parseFilter('backlinks_count = 2', { operation: 'ref-domains' }),
        clock,
      });
      expect({ total: domains.total, domains: domains.rows.map((row) => row.domain) }).toEqual({ total: 1_200, domains: ['d0099.com', 'd0098.com', 'd0097.com'] });
    });
  });
});
