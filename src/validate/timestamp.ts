/**
 * The timestamp literal rule: a prefix of `YYYY-MM-DDTHH:MM:SS` that ends at a part boundary,
 * with every part in range (leap years counted).
 *
 * @module
 * @internal
 */

const SHAPE = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2})(?::(\d{2})(?::(\d{2}))?)?)?)?)?$/;

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether `text` is a valid timestamp literal for comparisons.
 *
 * @example
 * ```ts
 * isTimestampLiteral('2024-02-29'); // true
 * isTimestampLiteral('2023-02-29'); // false
 * isTimestampLiteral('2024-05-01T1'); // false: not at a part boundary
 * ```
 */
export function isTimestampLiteral(text: string): boolean {
  const m = SHAPE.exec(text);
  if (!m) return false;
  const [, y, mo, d, h, mi, s] = m;
  const year = Number(y);
  if (year < 1) return false;
  if (mo === undefined) return true;
  const month = Number(mo);
  if (month < 1 || month > 12) return false;
  if (d !== undefined) {
    const day = Number(d);
    const max = month === 2 && isLeap(year) ? 29 : DAYS[month - 1]!;
    if (day < 1 || day > max) return false;
  }
  if (h !== undefined && Number(h) > 23) return false;
  if (mi !== undefined && Number(mi) > 59) return false;
  if (s !== undefined && Number(s) > 59) return false;
  return true;
}
