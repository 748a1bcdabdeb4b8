import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodePoints } from '../../../src/evaluate/index.js';
import { isNativeOrderSafe } from '../../../src/evaluate/text-order.js';

/** An independent oracle: compare arrays of code points. */
function oracle(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

describe('compareCodePoints', () => {
  it.each([
    ['a', 'b', -1],
    ['b', 'a', 1],
    ['a', 'a', 0],
    ['', '', 0],
    ['', 'a', -1],
    ['a', 'ab', -1],
    ['B', 'a', -1], // upper case before lower case: binary, not a locale
    ['a ', 'a', 1], // trailing space counts
    ['\uFFFF', '😀', -1], // JavaScript's `<` says the opposite
    ['\uE000', '\u{10000}', -1],
    ['😀', '😁', -1],
    ['\uD7FF', '😀', -1],
    ['é', 'z', 1],
  ])('%j vs %j', (a, b, sign) => {
    expect(Math.sign(compareCodePoints(a, b))).toBe(sign);
  });

  it('differs from JavaScript `<` exactly where UTF-16 order is not code-point order', () => {
    expect('\uFFFF' < '😀').toBe(false);
    expect(compareCodePoints('\uFFFF', '😀') < 0).toBe(true);
  });

  it('agrees with a code-point array comparison on any full-Unicode strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(oracle(a, b)));
      }),
    );
  });

  it('mixes astral, private-use and ASCII characters', () => {
    const units = fc.constantFrom('a', 'A', '\uE000', '\uFFFF', '😀', '\u{10FFFF}', '\uD7FF', '');
    const text = fc.array(units, { maxLength: 5 }).map((parts) => parts.join(''));
    fc.assert(fc.property(text, text, (a, b) => Math.sign(compareCodePoints(a, b)) === Math.sign(oracle(a, b))));
  });
});

describe('isNativeOrderSafe (the compile-time fast path)', () => {
  it.each([
    ['abc', true],
    ['', true],
    ['é\uD7FF', true],
    ['\uE000', false],
    ['😀', false],
  ])('%j -> %s', (literal, safe) => {
    expect(isNativeOrderSafe(literal)).toBe(safe);
  });

  it('when safe, JavaScript `<` and `>` give code-point order against any string', () => {
    const safe = fc.string({ unit: 'grapheme' }).filter(isNativeOrderSafe);
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), safe, (value, literal) => {
        expect(value < literal).toBe(oracle(value, literal) < 0);
        expect(value > literal).toBe(oracle(value, literal) > 0);
      }),
    );
  });
});
