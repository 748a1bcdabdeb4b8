import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { likeMatches } from '../../../src/evaluate/index.js';
import { planLike } from '../../../src/evaluate/like.js';
import { seeded } from '../../property/support.js';

/** An independent oracle: dynamic programming over code points, `%` the only wildcard. */
function oracle(value: string, pattern: string): boolean {
  const v = Array.from(value);
  const p = Array.from(pattern);
  let row = Array.from({ length: v.length + 1 }, (_, j) => j === 0);
  for (const char of p) {
    const next = Array.from({ length: v.length + 1 }, () => false);
    for (let j = 0; j <= v.length; j++) {
      next[j] = char === '%' ? row[j]! || (j > 0 && next[j - 1]!) : j > 0 && row[j - 1]! && v[j - 1] === char;
    }
    row = next;
  }
  return row[v.length]!;
}

describe('likeMatches', () => {
  it.each([
    ['best seo tips', '%seo%', true],
    ['seo', '%seo%', true],
    ['SEO', '%seo%', false], // case-sensitive
    ['seo', 'seo', true],
    ['seo tips', 'seo', false], // the whole value
    ['a_b', 'a_b', true],
    ['axb', 'a_b', false], // `_` is not a wildcard
    ['', '', true],
    ['a', '', false],
    ['', '%', true],
    ['', '%%', true],
    ['anything', '%%', true],
    ['abc', 'a%c', true],
    ['ac', 'a%c', true],
    ['a', 'a%a', false], // prefix and suffix may not overlap
    ['aa', 'a%a', true],
    ['abcabc', '%abc%abc%', true],
    ['abcab', '%abc%abc%', false],
    ['😀x😀', '😀%😀', true],
    ['😀', '%\uFFFF%', false],
    ['a\\b', 'a\\b', true],
    ["it's", "%'%", true],
    ['[x]', '[%]', true],
    ['a b', 'a%', true],
    ['ab ', 'ab', false], // trailing spaces matter
    ['xaxbxc', '%a%b%c', true],
    ['xaxbxcx', '%a%b%c', false],
  ])('%j LIKE %j is %s', (value, pattern, expected) => {
    expect(likeMatches(value, pattern)).toBe(expected);
    expect(oracle(value, pattern)).toBe(expected);
  });

  it.each([
    ['', 'equals'],
    ['abc', 'equals'],
    ['%', 'any'],
    ['%%%', 'any'],
    ['ab%', 'prefix'],
    ['%ab', 'suffix'],
    ['%ab%', 'contains'],
    ['%%ab%%', 'contains'],
    ['a%b', 'general'],
    ['%a%b%', 'general'],
  ])('plans %j as %s', (pattern, shape) => {
    expect(planLike(pattern).shape).toBe(shape);
  });

  it('agrees with a dynamic-programming matcher on 3,000 random values and patterns (fixed seed)', () => {
    const alphabet = fc.constantFrom('a', 'b', 'A', '_', '%', '😀', '\uFFFF', ' ');
    const text = fc.array(alphabet, { maxLength: 8 }).map((parts) => parts.join(''));
    fc.assert(fc.property(text.map((t) => t.replaceAll('%', '')), text, (value, pattern) => likeMatches(value, pattern) === oracle(value, pattern)), seeded(3000));
  });

  it('stays linear on many `%` against a long value (no backtracking)', () => {
    const value = 'a'.repeat(200_000);
    const pattern = `${'%a'.repeat(2_000)}%b`;
    // A backtracking matcher would not finish; this one does one indexOf per piece.
    expect(likeMatches(value, pattern)).toBe(false);
    expect(likeMatches(value, `${'%a'.repeat(2_000)}%`)).toBe(true);
    expect(likeMatches(value, `%${'a%'.repeat(50_000)}`)).toBe(true);
  });
});
