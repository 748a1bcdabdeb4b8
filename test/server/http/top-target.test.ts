/**
 * A store's `topTarget` (the domain `serve`'s banner names in its example call): the registrable
 * domain with the most links, on every store. Expected values counted by hand from the fixture
 * (test/server/support/fixture.ts): other.co.uk 9 links (5 of them to blog.other.co.uk), example.com 7,
 * rival.com 6, third.com and boundary.com 4.
 */
import { describe, expect, it } from 'vitest';
import { exampleLinks } from '../support/fixture.js';
import { emptyStore, fixtureStore, STORE_KIND } from '../support/helpers.js';

describe(`topTarget (${STORE_KIND})`, () => {
  it('names the registrable domain with most links, its hosts counted together (not blog.other.co.uk, 5, nor example.com, 7)', async () => {
    const store = await fixtureStore();
    try {
      expect(store.topTarget).toBeTypeOf('function');
      expect(await store.topTarget!()).toBe('other.co.uk');
      // More links to example.com, written since: 8 against 9 leaves other.co.uk; 9 against 9 is
      // a tie, broken by name (store.ts: "the first by name").
      const linkFrom = async (source_url: string) => {
        const writer = await store.writer();
        await writer.links([{ ...exampleLinks[0]!, source_url, source_domain: new URL(source_url).hostname }]);
        await writer.finish();
      };
      await linkFrom('https://kappa.org/1');
      expect(await store.topTarget!()).toBe('other.co.uk');
      await linkFrom('https://lambda.org/');
      expect(await store.topTarget!()).toBe('example.com');
    } finally {
      await store.close();
    }
  });

  it('names none on an empty database', async () => {
    const store = await emptyStore();
    try {
      expect(await store.topTarget!()).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});
