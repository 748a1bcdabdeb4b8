/**
 * A load is seen by the embedded store's next call: an incremental load refreshed one domain per
 * group, the same load again after a refresh that stopped at its second group, a changed domain
 * record past the first thousand referring domains, and more links than one chunk of DuckDB's
 * appender. Expected answers are worked out by hand from the fixture (fixture.ts) and the records
 * each case adds; docs/scaling.md says what a load forgets.
 */
import { describe, expect, it } from 'vitest';
import { openEmbeddedStore } from '../../../../../src/server/store/engines/embedded/embedded-store.js';
import { competitors, fixtureStore, list, matrix, NOFOLLOW, NOFOLLOW_AFTER, page, SECOND_LOAD, simple, withStore } from './embedded-helpers.js';

describe('more links than a chunk of the column side (2,048)', () => {
  it('are all copied, the last partial chunk too', async () => {
    await withStore(openEmbeddedStore({}), async (store) => {
      // 2,100 links to big.com, link i with page score i % 100 and nofollow when i % 2 = 0: 1,050 nofollow,
      // and page_score >= 99 for i = 99, 199, ..., 2099: 21 links, all odd (follow).
      const links = Array.from({ length: 2_100 }, (_, i) => simple(`s${i}.com`, `https://big.com/p${i % 7}`, { page_score: i % 100, is_nofollow: i % 2 === 0 }));
      const writer = await store.writer();
      await writer.links(links);
      await writer.finish();
      expect((await list(store, { url: 'big.com', filter: 'is_nofollow = true' }, [])).total).toBe(1_050);
      expect((await list(store, { url: 'big.com', filter: 'page_score >= 99 AND is_nofollow = false' }, [])).total).toBe(21);
      expect((await list(store, { url: 'big.com', filter: 'page_score >= 99 AND is_nofollow = true' }, [])).total).toBe(0);
      // The follow links by page score, ascending: the 1,050 odd i, 21 for each odd score 1, 3, ..., 99, so
      // position p has score 2 * floor(p / 21) + 1. The first page reads a window of 1,000 keys; the page
      // at 990 crosses its end (18 of score 95, positions 990-1007, then 2 of 97), the one at 1,040 the list's.
      const follow = (offset: number) => list(store, { url: 'big.com', filter: 'is_nofollow = false', page: page('page_score', 'ASC', 20, offset) }, ['page_score']);
      expect((await follow(0)).rows).toEqual(Array.from({ length: 20 }, () => [1]));
      expect(await follow(990)).toEqual({ total: 1_050, rows: [...Array.from({ length: 18 }, () => [95]), [97], [97]] });
      expect(await follow(1_040)).toEqual({ total: 1_050, rows: Array.from({ length: 10 }, () => [99]) });
    });
  });
});

describe('a load is seen by the next call', () => {
  it('of every list, the matrix and competitors, after an incremental load in groups of one domain', async () => {
    await withStore(fixtureStore(), async (store) => {
      const nofollow = { filter: 'is_nofollow = true' };
      // rival.com, by page score: six links of page score 10, by id.
      const rivalPage = { url: 'rival.com', scope: 'PAGE' as const, filter: null, page: page('page_score') };
      expect(await list(store, nofollow, ['source_url'])).toEqual(NOFOLLOW);
      expect((await list(store, { op: 'ref-domains', page: page('domain', 'ASC') }, ['domain'])).total).toBe(5);
      expect(await matrix(store, ['example.com', 'rival.com'])).toHaveLength(6);
      // rival.com and other.co.uk share 5 referring domains each; third.com only 4.
      expect(await competitors(store)).toEqual([['other.co.uk', 5], ['rival.com', 5]]);
      expect((await list(store, rivalPage, ['source_url'])).total).toBe(6);

      const writer = await store.writer();
      await writer.links(SECOND_LOAD);
      await writer.finish();

      expect(await list(store, nofollow, ['source_url'])).toEqual(NOFOLLOW_AFTER);
      expect(await list(store, { op: 'ref-domains', page: page('domain', 'ASC') }, ['domain'])).toEqual({
        total: 6,
        rows: [['alpha.org'], ['beta.net'], ['delta.de'], ['epsilon.fr'], ['gamma.io'], ['kappa.com']],
      });
      expect(await matrix(store, ['example.com', 'rival.com'])).toEqual([
        ['alpha.org', 2, [2, 1]],
        ['beta.net', 2, [1, 1]],
        ['delta.de', 2, [1, 1]],
        ['epsilon.fr', 2, [1, 1]],
        ['gamma.io', 2, [2, 1]],
        ['kappa.com', 1, [1, 0]],
        ['zeta.com', 1, [0, 1]],
      ]);
      // third.com's fifth shared referring domain; kappa.com links to example.com alone.
      expect(await competitors(store)).toEqual([['other.co.uk', 5], ['rival.com', 5], ['third.com', 5]]);
      // Untouched by the load.
      expect(await list(store, { filter: 'is_nofollow = true', url: 'rival.com' }, ['source_url'])).toEqual({ total: 1, rows: [['https://zeta.com/']] });
      expect((await list(store, rivalPage, ['source_url'])).total).toBe(6);
      expect((await list(store, { url: 'third.com', filter: 'page_score >= 0' }, ['source_url'])).total).toBe(5);
    });
  });

  it('after a refresh that stopped at its second group, of the same load again on the same store', async () => {
    await withStore(fixtureStore(), async (store) => {
      const first = await store.writer();
      await first.links(SECOND_LOAD);
      // Two domains, example.com and third.com, a group each: the first group is set aside before the second stops.
      await expect(
        first.finish({
          onProgress: () => {
            throw new Error('stopped');
          },
        }),
      ).rejects.toThrow('stopped');
      expect(await list(store, { filter: 'is_nofollow = true' }, ['source_url'])).toEqual(NOFOLLOW);
      const again = await store.writer();
      await again.links(SECOND_LOAD);
      await again.finish();
      expect(await list(store, { filter: 'is_nofollow = true' }, ['source_url'])).toEqual(NOFOLLOW_AFTER);
      expect(await competitors(store)).toEqual([['other.co.uk', 5], ['rival.com', 5], ['third.com', 5]]);
    });
  });

  it('when a domain record changes: every target its referring domain links to, past the first thousand referring domains', async () => {
    await withStore(openEmbeddedStore({}), async (store) => {
      // 1,001 referring domains with records; d0999.com links to z.com, d0000.com to y.com, no other links.
      const names = Array.from({ length: 1_001 }, (_, i) => `d${String(i).padStart(4, '0')}.com`);
      const records = (score: number) => names.map((domain) => ({ domain, ip_address: '192.0.2.1', country: 'US', domain_score: score }));
      const writer = await store.writer();
      await writer.domains(records(10));
      await writer.links([simple('d0999.com', 'https://z.com/'), simple('d0000.com', 'https://y.com/')]);
      await writer.finish();
      const scores = async (url: string) => (await list(store, { op: 'ref-domains', url, page: page('domain', 'ASC') }, ['domain', 'domain_score'])).rows;
      expect(await scores('z.com')).toEqual([['d0999.com', 10]]);
      const update = await store.writer();
      await update.domains(records(77));
      await update.finish();
      expect(await scores('z.com')).toEqual([['d0999.com', 77]]);
      expect(await scores('y.com')).toEqual([['d0000.com', 77]]);
    });
  });
});
