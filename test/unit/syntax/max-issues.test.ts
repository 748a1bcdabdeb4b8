/**
 * `maxIssues`: the first issues of a filter, in the order of the text, exactly as a full check
 * lists them, and `truncated` when there are (or may be) more; the work of a filter with many
 * errors stops growing with them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OPERATION_NAMES, safeParseFilter } from '../../../src/index.js';
import { clearParseCache } from '../../../src/syntax/parse.js';
import { invalidFilterArbitrary } from '../../../src/testing/index.js';
import { seeded } from '../../property/support.js';

/** Pieces that make one issue or more each (or stumbles the parser re-syncs over); joined, a filter with many. */
const PIECES = [
  'x', 'aa > 1', "anchor = 'a'", 'domain_score = true', 'is_new > 1', 'a = 1;', '(', ')', ') )', 'domain_score >', "first_seen_at > '2024-5'",
  'é', 'é = 1', '5abc = 1', 'AND', 'OR', '=', '= =', 'a = = 1', 'NOT', 'LIKE', "'", '[', ']', 'a[1]', '1', 'true', 'backlinks_counts[9] > 1',
];

const manyErrors = fc
  .tuple(fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 60 }), fc.constantFrom(' OR ', ' AND ', ' '))
  .map(([pieces, join]) => pieces.join(join));

/**
 * The bounded result begins as the full one (a prefix, never an issue the full list lacks), holds
 * at most `maxIssues`, says `truncated` when the full list is longer, and is the full list when it
 * does not say so.
 */
function expectFirstOf(text: string, operation: string | undefined, maxIssues: number): void {
  const all = safeParseFilter(text, operation === undefined ? {} : { operation });
  const capped = safeParseFilter(text, { ...(operation === undefined ? {} : { operation }), maxIssues });
  if (all.ok) {
    expect(capped).toEqual(all);
    return;
  }
  expect(capped.ok).toBe(false);
  if (capped.ok) return;
  expect(capped.issues.length).toBeGreaterThan(0);
  expect(capped.issues.length).toBeLessThanOrEqual(maxIssues);
  expect(capped.issues).toEqual(all.issues.slice(0, capped.issues.length));
  if (all.issues.length > maxIssues) expect(capped.truncated).toBe(true);
  if (capped.truncated === undefined) expect(capped.issues).toEqual(all.issues);
}

describe('maxIssues', () => {
  it('lists the first issues of the text, as the full check does, and says when there are more', () => {
    fc.assert(
      fc.property(manyErrors, fc.constantFrom(undefined, ...OPERATION_NAMES), fc.integer({ min: 1, max: 25 }), (text, operation, max) => expectFirstOf(text, operation, max)),
      seeded(3000),
    );
  });

  it('on labelled invalid filters of every operation', () => {
    fc.assert(
      fc.property(fc.constantFrom(...OPERATION_NAMES).chain((operation) => invalidFilterArbitrary(operation).map((c) => [operation, c.text] as const)), fc.integer({ min: 1, max: 3 }), ([operation, text], max) =>
        expectFirstOf(text, operation, max),
      ),
      seeded(200),
    );
  });

  it('stops the recovering parser: 820 syntax errors, the first 20 in a fraction of the time', () => {
    const text = Array(820).fill('x').join(' OR ').slice(0, 4096);
    const all = safeParseFilter(text, { operation: 'links' });
    const capped = safeParseFilter(text, { operation: 'links', maxIssues: 20 });
    expect(!all.ok && all.issues.length).toBe(820);
    expect(!capped.ok && [capped.issues.length, capped.truncated, capped.issues.at(-1)?.offset]).toEqual([20, true, 97]);
    const time = (f: () => void) => {
      const runs: number[] = [];
      for (let i = 0; i < 9; i++) {
        const start = performance.now();
        f();
        runs.push(performance.now() - start);
      }
      return runs.sort((a, b) => a - b)[4]!;
    };
    // Medians; generous, the machine is shared: every issue takes 10x the capped time or more.
    expect(time(() => safeParseFilter(text, { operation: 'links', maxIssues: 20 })) * 5).toBeLessThan(time(() => safeParseFilter(text, { operation: 'links' })));
  });

  it('never lists an issue at the place the parse stopped, which a whole parse may drop', () => {
    // Found by the property above: the parse stops at `=`, an error a whole parse drops as the
    // stumble after the `AND` it errs at later.
    expectFirstOf('OR OR true OR = = OR AND OR domain_score > OR AND OR AND OR NOT OR ] OR [ OR = = OR )', undefined, 5);
  });

  it('lists maxIssues issues when there are that many, though the parser stumbles twice per issue', () => {
    // `AND = 1`: the parser errs at AND and again at `=` (a stumble, not an issue) each time.
    for (const piece of ['AND = 1', 'x', 'a = = 1', ') )']) {
      const result = safeParseFilter(Array(30).fill(piece).join(' OR '), { maxIssues: 10 });
      expect({ piece, listed: !result.ok && result.issues.length, truncated: !result.ok && result.truncated }).toEqual({ piece, listed: 10, truncated: true });
    }
  });

  it('keeps results for different bounds apart in the parse cache', () => {
    clearParseCache();
    const text = 'a = 1 OR b = 2 OR c = 3';
    const two = safeParseFilter(text, { operation: 'links', cache: true, maxIssues: 2 });
    const all = safeParseFilter(text, { operation: 'links', cache: true });
    expect(!two.ok && [two.issues.length, two.truncated]).toEqual([2, true]);
    expect(!all.ok && [all.issues.length, all.truncated]).toEqual([3, undefined]);
    expect(safeParseFilter(text, { operation: 'links', cache: true, maxIssues: 2 })).toBe(two);
  });

  it('is a positive integer or Infinity', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => safeParseFilter('a = 1', { maxIssues: bad })).toThrow(/maxIssues must be a positive integer or Infinity/);
    expect(safeParseFilter('a = 1', { maxIssues: Number.POSITIVE_INFINITY }).ok).toBe(true);
  });
});
