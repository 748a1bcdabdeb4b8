/**
 * Decoding and checking of literal tokens. Kept apart from the grammar so the parser stays a
 * pure grammar and the checks are testable alone.
 *
 * @module
 * @internal
 */
import type { IssueDraft } from '../errors/issue.js';

const BACKSLASH = 92;

function isClosed(image: string): boolean {
  if (image.length < 2 || image[image.length - 1] !== image[0]) return false;
  // The last quote closes the string unless it is escaped by an odd run of backslashes.
  let run = 0;
  for (let i = image.length - 2; i > 0 && image.charCodeAt(i) === BACKSLASH; i--) run++;
  return run % 2 === 0;
}

/**
 * The value of a string token: quotes removed, `\'`/`\"` (own quote) and `\\` resolved.
 * Invalid escapes keep the escaped character (an issue reports them); an unclosed string runs to
 * the end of the text.
 */
export function decodeString(image: string): string {
  const end = isClosed(image) ? image.length - 1 : image.length;
  const body = image.slice(1, end);
  if (body.indexOf('\\') === -1) return body;
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '\\' && i + 1 < body.length) {
      out += body[++i];
    } else if (c !== '\\') {
      out += c;
    }
  }
  return out;
}

/** Issues of a string token at `offset`: invalid escapes, and a missing closing quote. */
export function checkString(image: string, offset: number, issues: IssueDraft[]): void {
  const quote = image[0]!;
  const closed = isClosed(image);
  if (!closed) issues.push({ code: 'unterminated_string', offset, length: 1 });
  const end = closed ? image.length - 1 : image.length;
  for (let i = 1; i < end; i++) {
    if (image.charCodeAt(i) !== BACKSLASH) continue;
    if (i + 1 >= end) {
      issues.push({ code: 'invalid_escape', offset: offset + i, length: 1 });
      continue;
    }
    const next = image[i + 1]!;
    if (next !== quote && next !== '\\') {
      const codePoint = image.codePointAt(i + 1)!;
      issues.push({ code: 'invalid_escape', offset: offset + i, length: codePoint > 0xffff ? 3 : 2 });
    }
    i++;
  }
}

const NUMBER_PREFIX = /^-?[0-9]+(?:\.[0-9]+)?/;

/** The value of a number token (`-0` is `0`); for a malformed `5abc`, the value of `5`. */
export function decodeNumber(image: string): number {
  const match = NUMBER_PREFIX.exec(image);
  const value = Number(match ? match[0] : image);
  return value === 0 ? 0 : value;
}

const MAX_SAFE = String(Number.MAX_SAFE_INTEGER);

/** Whether the number's exact magnitude exceeds 2^53 - 1 (decided on the text, not the rounded double). */
export function isNumberOutOfRange(image: string): boolean {
  // Fewer than 16 characters hold fewer than 16 whole digits: below 2^53 - 1 (16 digits).
  if (image.length < MAX_SAFE.length) return false;
  const match = NUMBER_PREFIX.exec(image);
  const text = (match ? match[0] : image).replace(/^-/, '');
  const [whole = '', fraction = ''] = text.split('.');
  const digits = whole.replace(/^0+(?=.)/, '');
  if (digits.length !== MAX_SAFE.length) return digits.length > MAX_SAFE.length;
  if (digits !== MAX_SAFE) return digits > MAX_SAFE;
  return /[1-9]/.test(fraction);
}
