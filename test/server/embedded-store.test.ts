/**
 * What the embedded store adds to the SQLite store: its column file is derived data, rebuilt when
 * missing or behind the SQLite file (a load that stopped half way); a server opens it read-only,
 * beside other readers, and a load is refused while one does; a plain SQLite store refuses the
 * SQLite half; a plain SQLite file becomes the SQLite half; a column statement past its time bound
 * is a StoreUnavailableError. Expected answers come from the fixture, worked out by hand.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clockAt } from '../../src/server/clock.js';
import { loadServerDeps } from '../../src/server/deps.js';
import { openEmbeddedStore, type EmbeddedStore } from '../../src/server/store/embedded/embedded-store.js';
import { StoreUnavailableError } from '../../src/server/store/sql/connection.js';
import { raw } from '../../src/server/store/sql/fragment.js';
import { openSqliteStore } from '../../src/server/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/server/store/store.js';
import { toTarget } from '../../src/server/target.js';
import { parseFilter } from '../../src/syntax/parse.js';
import { spawnCli, waitFor } from './cli-process.js';
import * as fx from './fixture.js';
import { loadFixture } from './helpers.js';

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

  it('is rebuilt when a load stopped before its end (the SQLite file is a generation ahead)', async () => {
    const file = await fixtureFile();
    await withStore(openEmbeddedStore({ file, readers: 1 }), async (store) => {
      const writer = await store.writer();
      // An eighth nofollow link to example.com, from a new page of delta.de, with the highest page score; no finish().
      await writer.links([{ ...fx.exampleLinks[5]!, source_url: 'https://delta.de/late', is_nofollow: true, page_score: 99 }]);
    });
    await withStore(openEmbeddedStore({ file, readers: 1 }), async (store) => {
      expect(await nofollowLinks(store)).toEqual({ total: 4, sources: ['https://delta.de/late', ...NOFOLLOW.sources] });
    });
  });

  it('opened read-only, is shared by several readers; a writer is refused, and so is a load from another process', async () => {
    const file = await fixtureFile();
    const first = await openEmbeddedStore({ file, readers: 1, readOnly: true });
    const second = await openEmbeddedStore({ file, readers: 1, readOnly: true });
    try {
      expect(await nofollowLinks(first)).toEqual(NOFOLLOW);
      expect(await nofollowLinks(second)).toEqual(NOFOLLOW);
      await expect(first.writer()).rejects.toThrow(/open for serving/);
      const load = spawnCli(['import', join(dir, 'missing.ndjson'), '--db', file]);
      expect(await load.exit).toBe(3);
      expect(load.err()).toContain(`${file}.duckdb is open in another process`);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('serve opens a stale column file: it is rebuilt first, then served', async () => {
    const file = await fixtureFile();
    rmSync(`${file}.duckdb`);
    const serve = spawnCli(['serve', '--port', '0', '--db', file, '--now', '2026-06-15', '--quiet'], { BACKLINK_QUERY_KEYS: 'ci:ci-key-123456:1000' });
    try {
      const [, url] = await waitFor(serve.out, /listening on (http:\/\/\S+)/, serve.exit);
      const response = await fetch(`${url}/_api/apis/v4/backlinks/v1/links?url=example.com&scope=ROOT_DOMAIN&filter=is_nofollow%20%3D%20true&fields=source_url`, {
        headers: { authorization: 'Apikey ci-key-123456' },
      });
      const body = (await response.json()) as { data: { source_url: string }[]; meta: { total: number } };
      expect({ total: body.meta.total, sources: body.data.map((row) => row.source_url) }).toEqual(NOFOLLOW);
      expect(existsSync(`${file}.duckdb`)).toBe(true);
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exit;
    }
  });
});

describe('the SQLite half', () => {
  it('is refused by a plain SQLite store, which would answer lists from empty rollups', async () => {
    const file = await fixtureFile();
    await expect(openSqliteStore({ file })).rejects.toThrow(/row file of an embedded store/);
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
