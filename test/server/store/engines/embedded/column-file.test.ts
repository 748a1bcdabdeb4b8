/**
 * The embedded store's column file on disk: not served after a refresh that failed once its rows
 * were in place, nor when it is another SQLite file's copy; and close waits for a write under way.
 * Expected answers are worked out by hand from the fixture (fixture.ts); docs/scaling.md ("The
 * column file is derived data") says when the file is rebuilt.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openEmbeddedStore } from '../../../../../src/server/store/engines/embedded/embedded-store.js';
import { raw } from '../../../../../src/server/store/fragment.js';
import { list, NOFOLLOW, SECOND_LOAD, withStore } from './embedded-helpers.js';
import { servedNofollow } from './embedded-serve.js';
import { loadFixture } from '../../../support/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'bq-embedded-column-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newFile = () => join(dir, `store-${++files}.db`);

describe('the column file on disk', () => {
  it('waits for a write under way when it closes', async () => {
    const store = await openEmbeddedStore({});
    const write = store.columns.transaction([raw('CREATE TABLE squares AS SELECT range * range AS n FROM range(2000000)')]);
    // The write has begun (it waits for nothing before it): close waits for its commit.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await store.close();
    // Settled by the time close resolves: its outcome is there before anything queued after close's end.
    const outcome = await Promise.race([
      write.then(
        () => 'committed',
        (error: Error) => `failed: ${error.message}`,
      ),
      new Promise((resolve) => setImmediate(() => resolve('still under way'))),
    ]);
    expect(outcome).toBe('committed');
  });

  it('is not served after a refresh that failed once its rows were in place (the load rolled back)', async () => {
    const file = newFile();
    await withStore(openEmbeddedStore({ file, readers: 1 }), async (store) => {
      await loadFixture(store);
      const writer = await store.writer();
      await writer.links(SECOND_LOAD);
      // The last progress call comes after the columns are moved into place.
      const stop = (done: number, total: number) => {
        if (done === total) throw new Error('stopped');
      };
      await expect(writer.finish({ onProgress: stop })).rejects.toThrow('stopped');
    });
    await withStore(openEmbeddedStore({ file, readers: 1 }), async (store) => {
      expect(await list(store, { filter: 'is_nofollow = true' }, ['source_url'])).toEqual(NOFOLLOW);
    });
  });

  it("is not another SQLite file's, even of the same generation", async () => {
    const [mine, theirs] = [newFile(), newFile()];
    await withStore(openEmbeddedStore({ file: mine, readers: 1 }), loadFixture);
    await withStore(openEmbeddedStore({ file: theirs, readers: 1 }), async (store) => {
      const writer = await store.writer();
      await writer.links(SECOND_LOAD);
      await writer.finish();
    });
    copyFileSync(`${theirs}.duckdb`, `${mine}.duckdb`);
    await withStore(openEmbeddedStore({ file: mine, readers: 1 }), async (store) => {
      expect(await list(store, { filter: 'is_nofollow = true' }, ['source_url'])).toEqual(NOFOLLOW);
    });
  });

  it('opened read-only, is read by a server in another process at the same time', async () => {
    const file = newFile();
    await withStore(openEmbeddedStore({ file, readers: 1 }), loadFixture);
    await withStore(openEmbeddedStore({ file, readers: 1, readOnly: true }), async (store) => {
      expect(await list(store, { filter: 'is_nofollow = true' }, ['source_url'])).toEqual(NOFOLLOW);
      expect(await servedNofollow(file)).toEqual(NOFOLLOW);
    });
  });
});
