import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeLikePattern, globPattern } from '../../../src/sql/like-pattern.js';
import { rewriteIntegerComparison } from '../../../src/sql/numeric-kind.js';
import { COMPARISON_OPERATORS } from '../../../src/ast/nodes.js';
import { seeded } from '../../property/support.js';

describe('escapeLikePattern', () => {
  it.each([
    ['', '!', ''],
    ['%', '!', '%'],
    ['a_b', '!', 'a!_b'],
    ['a!b', '!', 'a!!b'],
    ['%50\\_%', '\\', '%50\\\\\\_%'],
    ['😀_', '!', '😀!_'],
  ])('%j with escape %j -> %j', (pattern, escape, expected) => {
    expect(escapeLikePattern(pattern, escape)).toBe(expected);
  });
});

describe('globPattern', () => {
  it.each([
    ['', ''],
    ['%', '*'],
    ['%%', '**'],
    ['a*b', 'a[*]b'],
    ['?', '[?]'],
    ['[x]', '[[]x]'],
    ['_%', '_*'],
  ])('%j -> %j', (pattern, expected) => {
    expect(globPattern(pattern)).toBe(expected);
  });
});

describe('rewriteIntegerComparison', () => {
  it('is exact for every integer against every decimal literal (5,000 seeded runs)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1000, max: 1000 }),
        fc.constantFrom(...COMPARISON_OPERATORS),
        fc.double({ min: -1000, max: 1000, noNaN: true }),
        (x, operator, literal) => {
          const holds = { '=': x === literal, '!=': x !== literal, '<': x < literal, '<=': x <= literal, '>': x > literal, '>=': x >= literal };
          const rewritten = rewriteIntegerComparison(operator, literal);
          if (typeof rewritten === 'boolean') return rewritten === holds[operator];
          expect(Number.isInteger(rewritten.value)).toBe(true);
          const v = rewritten.value;
          const after = { '=': x === v, '!=': x !== v, '<': x < v, '<=': x <= v, '>': x > v, '>=': x >= v };
          return after[rewritten.operator] === holds[operator];
        },
      ),
      // 5,000 runs: about 800 per operator, over integers and doubles in -1000..1000.
      seeded(5000),
    );
  });
});
