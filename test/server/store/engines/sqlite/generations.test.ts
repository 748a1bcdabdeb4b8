/**
 * A server's store follows the loads other stores commit (issue 50), on a SQLite file alone and on
 * the embedded store: a generation's reader threads refuse a read once a load has committed the
 * next generation (`GENERATION_MOVED`), and a serving store answers the first call after a load's
 * commit from the new generation. Expected answers come from the fixture, worked out by hand
 * (fixture.ts, and the second load of embedded-helpers.ts: kappa.com's nofollow link, page score 99).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openEmbeddedStore } from '../../../../../src/server/store/engines/embedded/embedded-store.js';
import { openSqliteFile, openSqliteStore } from '../../../../../src/server/store/engines/sqlite/sqlite-store.js';
import { isStoreError, isStoreQueryError } from '../../../../../src/server/store/errors.js';
import { raw } from '../../../../../src/server/store/fragment.js';
import type { Store } from '../../../../../src/server/store/store.js';
import * as fx from '../../../support/fixture.js';
import { loadFixture } from '../../../support/helpers.js';
import { list, NOFOLLOW, NOFOLLOW_AFTER, SECOND_LOAD } from '../embedded/embedded-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'bq-generations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newFile = () => join(dir, `store-${++files}.db`);

/** example.com's nofollow links by page score, as `list` gives them. */
const nofollowLinks = (store: Store) => list(store, { filter: 'is_nofollow = true' }, ['source_url']);

/** Loads the second load (kappa.com's nofollow link, page score 99) through a store that loads (another connection, as `import` in another process would). */
async function loadLate(open: () => Promise<Store>): Promise<void> {
  const store = await open();
  try {
    const writer = await store.writer();
    await writer.links(SECOND_LOAD);
    await writer.finish();
  } finally {
    await store.close();
  }
}

const kinds = {
  'SQLite alone': { loading: (file: string) => openSqliteStore({ file, readers: 1 }), serving: (file: string) => openSqliteStore({ file, readers: 1, serving: true }) },
  'the embedded store': { loading: (file: string) => openEmbeddedStore({ file, readers: 1 }), serving: (file: string) => openEmbeddedStore({ file, readers: 1, readOnly: true }) },
};

describe('a generation of the data', () => {
  it("refuses a read on its reader threads once a load has committed the next generation", async () => {
    const file = newFile();
    const loading = await kinds['SQLite alone'].loading(file);
    await loadFixture(loading);
    await loading.close();
    const generation = await openSqliteFile({ file, readers: 1, oneGeneration: true });
    try {
      const count = raw('SELECT count(*) AS n FROM links');
      const links = fx.exampleLinks.length + fx.rivalLinks.length + fx.otherLinks.length + fx.thirdLinks.length + fx.boundaryLinks.length;
      expect(await generation.connection.all(count)).toEqual([{ n: links }]);
      await loadLate(() => kinds['SQLite alone'].loading(file));
      const refused = await generation.connection.all(count).then(() => expect.unreachable('the read was answered'), (error: unknown) => error);
      expect(isStoreQueryError(refused) && refused.code).toBe('GENERATION_MOVED');
    } finally {
      await generation.close();
    }
  });
});

describe.each(Object.entries(kinds))('a serving store on %s', (_, kind) => {
  it('answers the first call after a load committed elsewhere from the new generation, and gives no writer', async () => {
    const file = newFile();
    const loading = await kind.loading(file);
    await loadFixture(loading);
    await loading.close();
    const serving = await kind.serving(file);
    try {
      // Twice: the second from the read-cache of the first generation.
      expect(await nofollowLinks(serving)).toEqual(NOFOLLOW);
      expect(await nofollowLinks(serving)).toEqual(NOFOLLOW);
      await loadLate(() => kind.loading(file));
      expect(await nofollowLinks(serving)).toEqual(NOFOLLOW_AFTER);
      const refused = await serving.writer().then(() => expect.unreachable('a writer was given'), (error: unknown) => error);
      expect(isStoreError(refused) && refused.code).toBe('read_only');
    } finally {
      await serving.close();
    }
  });
});
