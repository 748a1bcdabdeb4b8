/**
 * ClickHouse. `String` holds bytes and compares them, which on UTF-8 is code-point order, and
 * `LIKE` is case-sensitive with the backslash as its one escape (no `ESCAPE` clause), so text needs
 * no collation. There is no boolean type before 21.12 (`UInt8` 0/1); arrays count from 1.
 *
 * Two dialects, one compiler:
 * - `clickhouse` binds every literal as a query parameter, `{p1:String}`, sent apart from the SQL
 *   (`query_params` of @clickhouse/client, `param_p1` over HTTP). Servers that accept query
 *   parameters need it.
 * - `clickhouse-literals`, for servers without query parameters (Debian's 18.16, say), writes each
 *   literal into the SQL text through one escaping function, {@link clickhouseLiteral}; the
 *   injection suite proves it on the real engine.
 *
 * @module
 */
import type { CompileContext } from '../compiler.js';
import { FilterCompiler } from '../compiler.js';
import type { FilterNode } from '../../ast/nodes.js';
import type { SqlFragments } from '../compiled-sql.js';
import type { Dialect } from '../dialect.js';

/** The escapes of a ClickHouse string literal, beside the quote and the backslash themselves. */
const CONTROL_ESCAPES: Readonly<Record<string, string>> = { '\0': '\\0', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * A value as a ClickHouse literal: a string single-quoted with `\` before `'` and `\`, and control
 * characters as escapes (so the text stays one line and free of NUL); a finite number in its
 * shortest round-trip form (negative numbers in parentheses, so `- -1` can never form; a
 * subnormal number as an exact product of two normal ones); a boolean as `1` or `0`.
 *
 * The one function through which `clickhouse-literals` writes values into SQL text.
 *
 * @example
 * ```ts
 * clickhouseLiteral("it's 50% \\ off"); // "'it\\'s 50% \\\\ off'"
 * clickhouseLiteral(-2.5);              // '(-2.5)'
 * ```
 *
 * @internal
 */
export function clickhouseLiteral(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return quoted(value, "'");
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`not a finite number: ${value}`);
      // 18.16 cannot parse a subnormal literal (5e-324 is a syntax error); scaled by 2^600 it is
      // normal, and the product with 2^-600 is exact.
      if (value !== 0 && Math.abs(value) < MIN_NORMAL) return `(${numberLiteral(value * 2 ** 600)} * ${String(2 ** -600)})`;
      return numberLiteral(value);
    case 'boolean':
      return value ? '1' : '0';
    default:
      throw new TypeError(`no ClickHouse literal for a ${typeof value}`);
  }
}

const MIN_NORMAL = 2.2250738585072014e-308;

/** A finite number in JavaScript's shortest round-trip form, which ClickHouse parses exactly; negatives in parentheses. */
const numberLiteral = (value: number): string => (value < 0 ? `(${String(value)})` : String(value));

/** `text` between `quote`s, with `\` before the quote and the backslash and control characters escaped. */
function quoted(text: string, quote: "'" | '"'): string {
  let out = quote;
  for (const char of text) {
    if (char === quote || char === '\\') out += `\\${char}`;
    else if (char < ' ' || char === '\u007f') out += CONTROL_ESCAPES[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`;
    else out += char;
  }
  return out + quote;
}

/** The type of a bound value in a `{name:Type}` placeholder. */
function parameterType(value: unknown): string {
  if (typeof value === 'string') return 'String';
  if (typeof value === 'number') return Number.isSafeInteger(value) ? 'Int64' : 'Float64';
  if (typeof value === 'boolean') return 'UInt8';
  throw new TypeError(`no ClickHouse parameter type for a ${typeof value}`);
}

/** @internal */
export class ClickhouseCompiler extends FilterCompiler {
  protected override readonly likeEscape = '\\';

  // ClickHouse reads the same backslash escapes in quoted identifiers as in string literals.
  protected override quoteIdentifier(name: string): string {
    return quoted(name, '"');
  }

  protected override placeholder(index: number, value: unknown): string {
    return `{p${index}:${parameterType(value)}}`;
  }

  protected override like(left: string, pattern: string, negated: boolean): string {
    return `${left} ${negated ? 'NOT LIKE' : 'LIKE'} ${pattern}`;
  }

  protected override bindBoolean(value: boolean): unknown {
    return value ? 1 : 0;
  }
}

/** @internal */
export class ClickhouseLiteralsCompiler extends ClickhouseCompiler {
  /** The filter with every value written in as a literal; no parameters are left. */
  override compileFragments(filter: FilterNode, context: CompileContext = {}): SqlFragments {
    const { fragments, parameters } = super.compileFragments(filter, context);
    let sql = fragments[0]!;
    for (let i = 0; i < parameters.length; i++) sql += clickhouseLiteral(parameters[i]) + fragments[i + 1]!;
    return Object.freeze({ fragments: Object.freeze([sql]), parameters: Object.freeze([]) });
  }
}

/**
 * The ClickHouse dialect: every literal a query parameter `{pN:Type}`, named `p1`, `p2`, ... in
 * the order of `parameters`.
 *
 * @example
 * ```ts
 * const { sql, parameters } = toSql(filter, { dialect: 'clickhouse' });
 * await client.query({ query: `SELECT * FROM links WHERE ${sql}`, query_params: Object.fromEntries(parameters.map((v, i) => [`p${i + 1}`, v])) });
 * ```
 */
export const clickhouseDialect: Dialect = Object.freeze({ name: 'clickhouse', createCompiler: () => new ClickhouseCompiler('clickhouse') });

/**
 * ClickHouse for servers without query parameters: every literal written into the SQL text,
 * escaped by one function; `parameters` is always empty.
 *
 * @example
 * ```ts
 * toSql(filter, { dialect: 'clickhouse-literals' }).sql; // "\"anchor\" LIKE '%seo\\\\_tips%'"
 * ```
 */
export const clickhouseLiteralsDialect: Dialect = Object.freeze({
  name: 'clickhouse-literals',
  createCompiler: () => new ClickhouseLiteralsCompiler('clickhouse-literals'),
});
