/**
 * `topK`: the first `k` items in `compare` order, sorted, as the module says (src/server/store/memory/top-k.ts).
 * Hand-written cases (the example of its doc comment, k = 0, k at and past the length, ties), then
 * generated arrays against the plain way: sort all of them, keep the first `k`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { topK } from '../../../../../src/server/store/memory/top-k.js';

const ascending = (a: number, b: number) => a - b;
const descending = (a: number, b: number) => b - a;

/** The plain way: a copy sorted whole, its first `k`. */
const plain = <T>(items: readonly T[], k: number, compare: (a: T, b: T) => number) => [...items].sort(compare).slice(0, Math.max(0, k));

describe('topK by hand', () => {
  it('keeps the smallest two of [5, 1, 4, 2], sorted (its doc comment\'s example)', () => {
    expect(topK([5, 1, 4, 2], 2, ascending)).toEqual([1, 2]);
  });

  it('follows the order it is given: the largest three, largest first', () => {
    expect(topK([3, 9, 1, 7, 5, 8], 3, descending)).toEqual([9, 8, 7]);
  });

  it('gives nothing for k = 0 or below', () => {
    expect(topK([3, 1, 2], 0, ascending)).toEqual([]);
    expect(topK([3, 1, 2], -1, ascending)).toEqual([]);
    expect(topK([], 0, ascending)).toEqual([]);
  });

  it('gives every item, sorted, when k is the length or more', () => {
    expect(topK([3, 1, 2], 3, ascending)).toEqual([1, 2, 3]);
    expect(topK([3, 1, 2], 10, ascending)).toEqual([1, 2, 3]);
    expect(topK([], 5, ascending)).toEqual([]);
  });

  it('keeps the item that goes first even when it comes last, and one of each value', () => {
    expect(topK([9, 8, 7, 6, 5, 4, 3, 2, 1, 0], 1, ascending)).toEqual([0]);
    expect(topK([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 1, descending)).toEqual([9]);
    expect(topK([4, 4, 4, 1, 4], 2, ascending)).toEqual([1, 4]);
  });

  it('keeps as many of the items tied at the cut as fit, each of them an item given once', () => {
    // Sorted by score: a1 b1 (score 1), then c2 d2 e2 (score 2), then f3. The first four are the
    // two of score 1 and two of the three of score 2 (which two the order leaves open).
    const items = [
      { id: 'c', score: 2 },
      { id: 'f', score: 3 },
      { id: 'a', score: 1 },
      { id: 'd', score: 2 },
      { id: 'b', score: 1 },
      { id: 'e', score: 2 },
    ];
    const kept = topK(items, 4, (x, y) => x.score - y.score);
    expect(kept.map((item) => item.score)).toEqual([1, 1, 2, 2]);
    expect(new Set(kept).size).toBe(4);
    expect(kept.slice(0, 2).map((item) => item.id).sort()).toEqual(['a', 'b']);
    for (const item of kept.slice(2)) expect(['c', 'd', 'e']).toContain(item.id);
    // With a tie-break the order is total and the answer is one: c and d.
    expect(topK(items, 4, (x, y) => x.score - y.score || (x.id < y.id ? -1 : 1)).map((item) => item.id)).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('topK against sorting everything', () => {
  it('equals the plain sort\'s first k, for numbers with many ties, either order, any k', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 300 }), fc.nat(320), fc.boolean(), (items, k, up) => {
        const compare = up ? ascending : descending;
        expect(topK(items, k, compare)).toEqual(plain(items, k, compare));
      }),
      { seed: 49, numRuns: 500 },
    );
  });

  it('equals the plain sort\'s first k for records under a total order (score, then id), and leaves the input as it was', () => {
    const record = fc.record({ id: fc.nat(1_000_000), score: fc.integer({ min: 0, max: 5 }) });
    fc.assert(
      fc.property(fc.uniqueArray(record, { selector: (r) => r.id, maxLength: 200 }), fc.nat(210), (items, k) => {
        const compare = (a: { id: number; score: number }, b: { id: number; score: number }) => b.score - a.score || a.id - b.id;
        const before = items.map((item) => item.id);
        expect(topK(items, k, compare)).toEqual(plain(items, k, compare));
        expect(items.map((item) => item.id)).toEqual(before);
      }),
      { seed: 7, numRuns: 300 },
    );
  });
});
