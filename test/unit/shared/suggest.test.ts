/**
 * "Did you mean": the closest name, only when close enough.
 */
import { describe, expect, it } from 'vitest';
import { operations } from '../../../src/index.js';
import { suggest } from '../../../src/shared/suggest.js';

const links = Object.keys(operations.links.record);

describe('suggest', () => {
  it.each([
    ['domain_scor', 'domain_score'],
    ['domian_score', 'domain_score'],
    ['Domain_Score', 'domain_score'],
    ['DOMAIN_SCORE', 'domain_score'],
    ['IS_NOFOLLOW', 'is_nofollow'],
    ['ancor', 'anchor'],
    ['anchr', 'anchor'],
    ['is_nofolow', 'is_nofollow'],
    ['lnag', 'lang'],
    ['first_seen', 'first_seen_at'],
  ])('%s -> %s', (name, expected) => {
    expect(suggest(name, links)).toBe(expected);
  });

  it.each(['_x', 'xyzzy', 'score', 'domain', 'a', 'country', 'x'.repeat(65), ''])('has nothing close for %j', (name) => {
    expect(suggest(name, links)).toBeUndefined();
  });

  it('prefers an exact case-insensitive match over a closer edit', () => {
    expect(suggest('AB', ['ab', 'Ax'])).toBe('ab');
  });

  it('finds nothing among no candidates', () => {
    expect(suggest('anchor', [])).toBeUndefined();
  });
});
