import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodePoints } from '../../../src/evaluate/index.js';
import { isNativeOrderSafe } from '../../../src/evaluate/text-order.js';
import { seeded } from '../../property/support.js';

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

  // Written by hand, in code point order (the filter language's "Meaning": SQLite BINARY on UTF-8,
  // PostgreSQL COLLATE "C"). The comments give each string's code points.
  const CODE_POINT_ORDER = [
    '', //                     (empty sorts first)
    ' ', //                    U+0020
    'A', //                    U+0041
    'B', //                    U+0042
    'a', //                    U+0061: upper case before lower case, no locale
    'a ', //                   U+0061 U+0020: a longer text with the same start sorts after
    'ab', //                   U+0061 U+0062
    'a\uE000', //              U+0061 U+E000
    'a\uFFFF', //              U+0061 U+FFFF
    'a\u{1F600}', //           U+0061 U+1F600: astral after U+FFFF, though its first UTF-16 unit is U+D83D
    'z', //                    U+007A
    '\u00E9', //               U+00E9 (é)
    '\uD7FF', //               U+D7FF, the last unit below the surrogates
    '\uE000', //               U+E000, first private-use character
    '\uFF61', //               U+FF61 (halfwidth ideographic full stop)
    '\uFF61a', //              U+FF61 U+0061
    '\uFFFD', //               U+FFFD
    '\uFFFF', //               U+FFFF, the last BMP code point
    '\u{10000}', //            U+10000, the first astral code point (UTF-16: D800 DC00)
    '\u{10000}a', //           U+10000 U+0061
    '\u{1D11E}', //            U+1D11E (𝄞; UTF-16: D834 DD1E)
    '\u{1F600}', //            U+1F600 (😀; UTF-16: D83D DE00)
    '\u{1F600}\u{1F600}', //   U+1F600 U+1F600
    '\u{1F601}', //            U+1F601 (😁)
    '\u{10FFFF}', //           U+10FFFF, the last code point (UTF-16: DBFF DFFF)
  ];

  it('sorts a shuffled list into the hand-written code point order', () => {
    // Reversed, then interleaved, so that no sort that keeps the input order can pass.
    const reversed = [...CODE_POINT_ORDER].reverse();
    const shuffled = [...reversed.filter((_, i) => i % 2 === 1), ...reversed.filter((_, i) => i % 2 === 0)];
    expect([...shuffled].sort(compareCodePoints)).toEqual(CODE_POINT_ORDER);
    CODE_POINT_ORDER.forEach((a, i) => {
      expect(compareCodePoints(a, a), JSON.stringify(a)).toBe(0);
      for (const b of CODE_POINT_ORDER.slice(i + 1)) {
        expect(Math.sign(compareCodePoints(a, b)), `${JSON.stringify(a)} before ${JSON.stringify(b)}`).toBe(-1);
        expect(Math.sign(compareCodePoints(b, a)), `${JSON.stringify(b)} after ${JSON.stringify(a)}`).toBe(1);
      }
    });
  });

  it.each([
    // BMP characters at U+E000 and above against astral ones: UTF-16 units say the opposite.
    ['\uE000', '\u{10000}'],
    ['\uFF61', '\u{1F600}'],
    ['\uFFFD', '\u{1F600}'],
    ['\uFFFF', '\u{1D11E}'],
    ['\uF8FF', '\u{10FFFF}'],
    ['x\uFF61', 'x\u{1F600}'],
    ['\uFF61\u{1F600}', '\u{1F600}\uFF61'],
  ])('%j sorts before %j (by code point), although its first UTF-16 unit is larger', (bmp, astral) => {
    expect(compareCodePoints(bmp, astral)).toBeLessThan(0);
    expect(compareCodePoints(astral, bmp)).toBeGreaterThan(0);
  });

  it('sorts lone surrogates after U+FFFF (docs/evaluator.md: they are not characters)', () => {
    expect([...['\uD800', '\uFFFF', 'z', '\uE000', '\uDFFF'].sort(compareCodePoints)]).toEqual(['z', '\uE000', '\uFFFF', '\uD800', '\uDFFF']);
  });

  it('agrees with a code-point array comparison on any full-Unicode strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(oracle(a, b)));
      }),
      seeded(1000), // 1,000 pairs of full-Unicode strings
    );
  });

  it('mixes astral, private-use and ASCII characters', () => {
    const units = fc.constantFrom('a', 'A', '\uE000', '\uFFFF', '😀', '\u{10FFFF}', '\uD7FF', '');
    const text = fc.array(units, { maxLength: 5 }).map((parts) => parts.join(''));
    // 2,000 pairs over 8 units: most pairs share a prefix and differ where the orders disagree.
    fc.assert(fc.property(text, text, (a, b) => Math.sign(compareCodePoints(a, b)) === Math.sign(oracle(a, b))), seeded(2000));
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
      seeded(1000), // 1,000 pairs
    );
  });
});
