/**
 * The server's query-string parser (Fastify's `querystringParser`). It reads a query string as
 * Fastify's default parser does (names and values split at the first `=`, `+` as a space,
 * percent-escapes decoded as UTF-8, a repeated name as an array of its values in order, `a` alone
 * as `a=`, empty pieces between `&`s skipped), into an object without a prototype, so that
 * `__proto__`, `constructor` and every other name is an own key like any other. What it adds: a
 * value whose percent-escapes do not decode to UTF-8 (`%FF`, `%C3%28`, `%zz`, a lone `%`) is kept
 * as written, as before, and remembered, so that validation names the parameter and the escape
 * (rule `bad_encoding`) instead of reading the raw text (a filter would report every `%` as an
 * unexpected character).
 *
 * @module
 */

/** Where {@link parseQueryString} leaves the values that did not decode (a symbol: never a parameter). */
const BAD_ESCAPES = Symbol('bad percent-escapes');

/** A parsed query: own keys only, no prototype. */
export type ParsedQuery = Record<string, string | string[]>;

const isHex = (code: number) => (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);

/** Decodes percent-escapes as UTF-8; `undefined` when they do not decode. */
function decode(text: string): string | undefined {
  if (text.indexOf('%') === -1) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The first percent-escape of `text` that does not decode to UTF-8, as written: a `%` not
 * followed by two hex digits (`%`, `%z`, `%zz`), a byte that cannot start a character (`%FF`,
 * `%80`, `%C0`), or a lead byte with the escapes it claims up to the first that does not continue
 * it (`%C3%28`, `%E2%82`) or that together are no character (an overlong form, a surrogate).
 *
 * @example
 * ```ts
 * firstBadEscape("anchor = '%C3%28'"); // '%C3%28'
 * ```
 */
export function firstBadEscape(text: string): string | undefined {
  const hexAt = (i: number) => text.charCodeAt(i) === 37 && isHex(text.charCodeAt(i + 1)) && isHex(text.charCodeAt(i + 2));
  for (let i = text.indexOf('%'); i !== -1; i = text.indexOf('%', i)) {
    if (!hexAt(i)) return text.slice(i, i + 3);
    const lead = parseInt(text.slice(i + 1, i + 3), 16);
    const claims = lead < 0x80 ? 0 : lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead >= 0xf0 && lead <= 0xf4 ? 3 : -1;
    if (claims < 0) return text.slice(i, i + 3);
    const bytes = [lead];
    let end = i + 3;
    while (bytes.length <= claims) {
      if (!hexAt(end)) return text.slice(i, end);
      const next = parseInt(text.slice(end + 1, end + 3), 16);
      bytes.push(next);
      end += 3;
      if ((next & 0xc0) !== 0x80) return text.slice(i, end);
    }
    try {
      strictUtf8.decode(Uint8Array.from(bytes));
    } catch {
      return text.slice(i, end);
    }
    i = end;
  }
  return undefined;
}

/**
 * Parses a query string (without its `?`).
 *
 * @example
 * ```ts
 * const query = parseQueryString('url=example.com&filter=%FF&__proto__=x');
 * query.__proto__;         // 'x' (an own key)
 * badEscapesOf(query);     // Map { 'filter' => '%FF' }
 * ```
 */
export function parseQueryString(text: string): ParsedQuery {
  const query: ParsedQuery = Object.create(null);
  let bad: Map<string, string> | undefined;
  for (const piece of text.split('&')) {
    const equals = piece.indexOf('=');
    if (equals === -1 && piece.length === 0) continue;
    const rawName = (equals === -1 ? piece : piece.slice(0, equals)).replace(/\+/g, ' ');
    const rawValue = (equals === -1 ? '' : piece.slice(equals + 1)).replace(/\+/g, ' ');
    // A name that does not decode is kept as written: it names no parameter, and is reported as unknown.
    const name = decode(rawName) ?? rawName;
    let value = decode(rawValue);
    if (value === undefined) {
      value = rawValue;
      if (!bad?.has(name)) (bad ??= new Map()).set(name, firstBadEscape(rawValue) ?? '%');
    }
    const current = query[name];
    if (current === undefined) query[name] = value;
    else if (Array.isArray(current)) current.push(value);
    else query[name] = [current, value];
  }
  if (bad) Object.defineProperty(query, BAD_ESCAPES, { value: bad, enumerable: false });
  return query;
}

/**
 * The values of a query parsed by {@link parseQueryString} whose percent-escapes did not decode,
 * by parameter name, each with its first bad escape as written (empty for any other query).
 *
 * @example
 * ```ts
 * badEscapesOf(parseQueryString('filter=%C3%28')).get('filter'); // '%C3%28'
 * ```
 */
export function badEscapesOf(query: object): ReadonlyMap<string, string> {
  return (query as { [BAD_ESCAPES]?: Map<string, string> })[BAD_ESCAPES] ?? EMPTY;
}

const EMPTY: ReadonlyMap<string, string> = new Map();
