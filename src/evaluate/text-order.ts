/**
 * Text order by Unicode code point, the order of the filter language (SQLite's BINARY collation on
 * UTF-8 text, PostgreSQL's `COLLATE "C"`). JavaScript's `<` compares UTF-16 units, which differs only
 * when a surrogate (an astral character) meets a unit in U+E000-U+FFFF.
 *
 * @module
 */

/**
 * Moves UTF-16 units so that their numeric order is code-point order: surrogates (U+D800-U+DFFF, the
 * halves of astral characters) go above U+E000-U+FFFF, which move down to make room.
 */
function codePointRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

/**
 * Compares two strings by Unicode code point: negative when `a` sorts first, positive when `b`
 * does, 0 when they are equal. Case-sensitive, locale-free.
 *
 * @example
 * ```ts
 * compareCodePoints('a', 'b'); // < 0
 * compareCodePoints('\uFFFF', '😀'); // < 0, although '\uFFFF' < '😀' is false in JavaScript
 * ```
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/**
 * Whether JavaScript's `<` on any string against `literal` gives code-point order. It does when
 * every unit of the literal is below U+D800: at the first difference the literal's unit is then
 * below every unit where the two orders disagree. Checked once, when a filter is compiled.
 *
 * @internal
 */
export function isNativeOrderSafe(literal: string): boolean {
  for (let i = 0; i < literal.length; i++) {
    if (literal.charCodeAt(i) >= 0xd800) return false;
  }
  return true;
}
