/**
 * fast-check arbitraries of valid filters for one operation: ASTs (in the parser's shape, valid
 * under shrinking), and texts written the many ways a person may write them.
 *
 * @module
 */
import type { Arbitrary } from 'fast-check';
import { fc } from './optional-peer.js';
import * as ast from '../ast/factories.js';
import type { Condition, Field, FilterNode, Literal } from '../ast/nodes.js';
import { COMPARISON_OPERATORS } from '../ast/nodes.js';
import { filterFieldsOf as catalogueFields, type FilterFieldType } from '../catalogue/filter-fields.js';
import { operations, type FilterableOperation } from '../catalogue/operations.js';
import type { FieldType } from '../catalogue/records.js';
import { FilterError } from '../errors/filter-error.js';
import { finishIssues } from '../errors/format.js';
import { printNumber } from '../print/printer.js';
import { DEFAULT_LIMITS } from '../validate/limits.js';
import { isTimestampLiteral } from '../validate/timestamp.js';
import { checkTargetOptions } from '../validate/validate.js';
import { seededRandom } from './random.js';

/**
 * Per-type value arbitraries to draw literals from, for example values taken from a dataset so
 * that generated filters hit its rows. Pool values are used four times out of five; the rest
 * come from the default generators, so edge cases still appear. Timestamp pool values are cut
 * at a part boundary (`2024-05-01T10:30:00` may become `2024-05`) and LIKE patterns are cut from
 * string and timestamp pool values.
 */
export interface LiteralPools {
  readonly string?: Arbitrary<string>;
  readonly timestamp?: Arbitrary<string>;
  readonly integer?: Arbitrary<number>;
  readonly number?: Arbitrary<number>;
}

/**
 * Values per field name, as `valuePools(rows)` returns them: each field's conditions then draw
 * from that field's own values (matrix counts from every element of `backlinks_counts`).
 */
export interface FieldValuePools {
  readonly fields: Readonly<Record<string, readonly (string | number | boolean)[]>>;
}

/** An operation that takes a filter; any other string is checked at run time (autocompletion kept). */
export type FilterOperationName = FilterableOperation | (string & {});

/** Options of {@link filterAstArbitrary}. */
export interface FilterArbitraryOptions {
  /** Matrix: the number of targets (1-6); `backlinks_counts[n]` takes `n` up to it (default 6). */
  readonly targets?: number;
  /** Most levels of nested AND/OR groups (default 4), so canonical text never nests parentheses deeper. */
  readonly maxDepth?: number;
  /** Most conditions in one filter (default 100, the language's limit). */
  readonly maxConditions?: number;
  /** Values to draw literals from: arbitraries per type, or values per field (`valuePools(rows)`). */
  readonly pools?: LiteralPools | FieldValuePools;
}

/** Options of {@link filterTextArbitrary}: also the longest text (default 4,096 characters). */
export interface FilterTextOptions extends FilterArbitraryOptions {
  readonly maxLength?: number;
}

/** A valid filter text and the AST it must parse to. */
export interface FilterCase {
  readonly text: string;
  readonly ast: FilterNode;
}

const TRICKY = ["'", '"', '\\', '%', '_', ' ', '\n', '\t', 'a', 'Z', 'é', 'ß', '中', '😀', '\u0301', '-', '.', ':', '0'];
// No NUL and no lone surrogates by default: databases a caller compares against cannot store them.
// Built on first use, not on import: fast-check's binary unit builds a table of every code point,
// which made `import 'backlink-query/testing'` slow (bench/RESULTS.md, section "Starting the test
// service"); createTestService's users pay for it only if they ask for arbitraries.
let defaultStrings: Arbitrary<string> | undefined;
const defaultString = (): Arbitrary<string> =>
  (defaultStrings ??= fc.oneof(
    fc.string({ unit: fc.constantFrom(...TRICKY), maxLength: 12 }),
    fc.string({ unit: 'grapheme', maxLength: 8 }),
    fc.string({ unit: 'binary', maxLength: 8 }).filter((s) => !s.includes('\u0000')),
  ));

const SAFE = Number.MAX_SAFE_INTEGER;
const defaultInteger = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -10, max: 200 }) },
  { weight: 1, arbitrary: fc.integer({ min: -SAFE, max: SAFE }) },
  { weight: 1, arbitrary: fc.integer({ min: -4000, max: 4000 }).map((n) => n / 4) },
);
const defaultNumber = fc.oneof(defaultInteger, fc.double({ min: -SAFE, max: SAFE, noNaN: true, noDefaultInfinity: true }));

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
/** A full `YYYY-MM-DDTHH:MM:SS`, mostly in recent years, valid by construction. */
const fullTimestamp = fc
  .record({
    year: fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 2000, max: 2030 }) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 9999 }) }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 31 }),
    time: fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 })),
  })
  .map(({ year, month, day, time: [h, mi, s] }) => {
    const max = month === 2 && !isLeap(year) ? 28 : DAYS[month - 1]!;
    return `${pad(year, 4)}-${pad(month, 2)}-${pad(Math.min(day, max), 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}`;
  });
const BOUNDARIES = [4, 7, 10, 13, 16, 19] as const;
/** A valid timestamp literal: a full timestamp cut at a part boundary (the fallback when a pool value is not one). */
const timestampLiteral = (full: Arbitrary<string>) =>
  fc.tuple(full, fc.constantFrom(...BOUNDARIES), fullTimestamp).map(([value, cut, fallback]) => {
    const text = value.slice(0, cut);
    return isTimestampLiteral(text) ? text : fallback.slice(0, cut);
  });

const withPool = <T>(pool: Arbitrary<T> | undefined, fallback: Arbitrary<T>): Arbitrary<T> =>
  pool === undefined ? fallback : fc.oneof({ weight: 4, arbitrary: pool }, { weight: 1, arbitrary: fallback });

/** LIKE patterns cut from a value on code-point boundaries: exact, prefix%, %suffix, %middle%, %. */
const patternFrom = (base: Arbitrary<string>) =>
  fc.tuple(base, fc.constantFrom('exact', 'prefix', 'suffix', 'contains', 'any', 'wild'), fc.nat(), fc.nat()).map(([value, shape, a, b]) => {
    const chars = Array.from(value);
    const i = chars.length === 0 ? 0 : a % (chars.length + 1);
    const j = chars.length === 0 ? 0 : b % (chars.length + 1);
    const [from, to] = i <= j ? [i, j] : [j, i];
    if (shape === 'exact') return value;
    if (shape === 'prefix') return `${chars.slice(0, to).join('')}%`;
    if (shape === 'suffix') return `%${chars.slice(from).join('')}`;
    if (shape === 'contains') return `%${chars.slice(from, to).join('')}%`;
    if (shape === 'any') return '%';
    return chars.map((c, k) => (k === from ? '%' : c)).join('');
  });

type ScalarType = FilterFieldType;

/** Literal and pattern arbitraries of each scalar type, from the pools. @internal */
export function literalArbitraries(pools: LiteralPools = {}) {
  const string = withPool(pools.string, defaultString());
  const fullTimestamps = withPool(pools.timestamp, fullTimestamp);
  const integer = withPool(pools.integer, defaultInteger).filter((n) => Number.isFinite(n) && Math.abs(n) <= SAFE);
  const number = withPool(pools.number, defaultNumber).filter((n) => Number.isFinite(n) && Math.abs(n) <= SAFE);
  return {
    string: { value: string.map((v): Literal => ast.stringLiteral(v)), pattern: patternFrom(string) },
    timestamp: { value: timestampLiteral(fullTimestamps).map((v): Literal => ast.stringLiteral(v)), pattern: patternFrom(fullTimestamps) },
    integer: { value: integer.map((v): Literal => ast.numberLiteral(v)), pattern: undefined },
    number: { value: number.map((v): Literal => ast.numberLiteral(v)), pattern: undefined },
    boolean: { value: fc.boolean().map((v): Literal => ast.booleanLiteral(v)), pattern: undefined },
  } satisfies Record<ScalarType, { value: Arbitrary<Literal>; pattern: Arbitrary<string> | undefined }>;
}

/** The fields a filter of `operation` may name, with the scalar type each compares as. @internal */
export function filterFieldsOf(operation: string, targets?: number): { field: Field; type: ScalarType }[] {
  const name = checkTargetOptions(operation, targets);
  if (!operations[name].filter) {
    throw new FilterError(finishIssues([{ code: 'filter_not_allowed', offset: 0, length: 0, expected: name }], ''), '');
  }
  return catalogueFields(name, targets).map(({ name: fieldName, index, type }) => ({ field: ast.field(fieldName, index), type }));
}

/**
 * Valid conditions (comparisons and LIKEs) of one operation.
 *
 * @example
 * ```ts
 * fc.sample(conditionArbitrary('anchors'), 3);
 * ```
 */
export function conditionArbitrary(operation: FilterOperationName, options: FilterArbitraryOptions = {}): Arbitrary<Condition> {
  const shared = options.pools === undefined || !('fields' in options.pools) ? literalArbitraries(options.pools) : undefined;
  const perField = filterFieldsOf(operation, options.targets).map(({ field, type }) => {
    const literals = shared ?? literalArbitraries(fieldPools(options.pools as FieldValuePools, field.name, type));
    const { value, pattern } = literals[type];
    const operators = type === 'boolean' ? (['=', '!='] as const) : COMPARISON_OPERATORS;
    const compare = fc.tuple(fc.constantFrom(...operators), value).map(([op, v]): Condition => ast.comparison(field, op, v));
    if (pattern === undefined) return compare;
    const match = fc.tuple(pattern, fc.boolean()).map(([p, negated]): Condition => ast.like(field, ast.stringLiteral(p), negated));
    return fc.oneof(compare, match);
  });
  return fc.oneof(...perField);
}

/** The pool of one field's own values, of the kind its type takes. */
function fieldPools(pools: FieldValuePools, name: string, type: ScalarType): LiteralPools {
  const values = Object.hasOwn(pools.fields, name) ? (pools.fields[name] ?? []) : [];
  const kind = type === 'string' || type === 'timestamp' ? 'string' : type === 'boolean' ? 'boolean' : 'number';
  const own = values.filter((v) => typeof v === kind);
  return own.length === 0 || kind === 'boolean' ? {} : { [type]: fc.constantFrom(...own) };
}

/**
 * Valid filter ASTs for one operation, shaped as the parser builds them (n-ary, flattened, frozen,
 * empty spans). Every shrink is valid too.
 *
 * @example
 * ```ts
 * fc.assert(fc.property(filterAstArbitrary('links'), (filter) => {
 *   expect(validateFilter(filter, { operation: 'links' })).toEqual([]);
 * }));
 * ```
 */
export function filterAstArbitrary(operation: FilterOperationName, options: FilterArbitraryOptions = {}): Arbitrary<FilterNode> {
  const leaf = conditionArbitrary(operation, options);
  const maxDepth = options.maxDepth ?? 4;
  const maxConditions = options.maxConditions ?? DEFAULT_LIMITS.maxConditions;
  const { node } = fc.letrec<{ node: FilterNode; group: FilterNode }>((tie) => ({
    node: fc.oneof({ depthSize: 'small', maxDepth, withCrossShrink: true }, leaf, tie('group')),
    group: fc
      .tuple(fc.boolean(), fc.array(tie('node'), { minLength: 2, maxLength: 4 }))
      .map(([isAnd, operands]) => (isAnd ? ast.and(operands) : ast.or(operands))),
  }));
  return node.map((tree) => prune(tree, Math.max(1, maxConditions)).node);
}

/** Keeps the first `budget` conditions, rebuilding groups with the factories so the shape stays the parser's. */
function prune(node: FilterNode, budget: number): { node: FilterNode; used: number } {
  if (node.kind !== 'And' && node.kind !== 'Or') return { node, used: 1 };
  const kept: FilterNode[] = [];
  let used = 0;
  for (const operand of node.operands) {
    if (used >= budget) break;
    const part = prune(operand, budget - used);
    kept.push(part.node);
    used += part.used;
  }
  return { node: node.kind === 'And' ? ast.and(kept) : ast.or(kept), used };
}

/**
 * Valid filter texts paired with the AST each must parse to. Texts are not only canonical:
 * keywords and booleans in random case, random white space (newlines, tabs, none where allowed),
 * redundant parentheses and regrouped AND/OR runs, `<>` for `!=`, double-quoted strings, numbers
 * with leading or trailing zeros and `-0`, and indexes with leading zeros.
 *
 * @example
 * ```ts
 * fc.assert(fc.property(filterCaseArbitrary('links'), ({ text, ast }) => {
 *   expect(nodesEqual(parseFilter(text, { operation: 'links' }), ast)).toBe(true);
 * }));
 * ```
 */
export function filterCaseArbitrary(operation: FilterOperationName, options: FilterTextOptions = {}): Arbitrary<FilterCase> {
  const maxLength = options.maxLength ?? DEFAULT_LIMITS.maxLength;
  return fc
    .tuple(filterAstArbitrary(operation, options), fc.integer())
    .map(([tree, seed]): FilterCase => ({ text: writeFilter(tree, seededRandom(seed)), ast: tree }))
    .filter(({ text }) => text.length <= maxLength);
}

/**
 * Valid filter texts for one operation, written in varied styles (see {@link filterCaseArbitrary}).
 *
 * @example
 * ```ts
 * fc.assert(fc.property(filterTextArbitrary('matrix', { targets: 2 }), (text) => {
 *   expect(safeParseFilter(text, { operation: 'matrix', targets: 2 }).ok).toBe(true);
 * }));
 * ```
 */
export function filterTextArbitrary(operation: FilterOperationName, options: FilterTextOptions = {}): Arbitrary<string> {
  return filterCaseArbitrary(operation, options).map((c) => c.text);
}

type Rand = () => number;
interface Token {
  readonly text: string;
  /** Words, keywords and numbers need white space between them. */
  readonly word: boolean;
}

const SPACES = ['', ' ', ' ', ' ', '  ', '\n', '\t', '\r\n', ' \n  '];
/** Redundant parentheses never take the text past the language's default nesting limit. */
const MAX_PARENS = DEFAULT_LIMITS.maxDepth;

const pick = <T>(rand: Rand, items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
const anyCase = (word: string, rand: Rand) =>
  Array.from(word, (c) => (rand() < 0.5 ? c.toLowerCase() : c.toUpperCase())).join('');
const word = (text: string): Token => ({ text, word: true });
const punct = (text: string): Token => ({ text, word: false });

/** Renders an AST as a valid, non-canonical text. @internal */
export function writeFilter(tree: FilterNode, rand: Rand): string {
  const tokens: Token[] = [];
  writeNode(tree, undefined, 0, rand, tokens);
  let out = rand() < 0.2 ? pick(rand, SPACES) : '';
  tokens.forEach((token, i) => {
    const previous = tokens[i - 1];
    if (previous) {
      const gap = pick(rand, SPACES);
      out += gap === '' && previous.word && token.word ? ' ' : gap;
    }
    out += token.text;
  });
  return out + (rand() < 0.2 ? pick(rand, SPACES) : '');
}

/** How deep the canonical text nests parentheses below this node. */
function nesting(node: FilterNode, parent: FilterNode['kind'] | undefined): number {
  if (node.kind !== 'And' && node.kind !== 'Or') return 0;
  const own = node.kind === 'Or' && parent === 'And' ? 1 : 0;
  return own + Math.max(...node.operands.map((o) => nesting(o, node.kind)));
}

function writeNode(node: FilterNode, parent: FilterNode['kind'] | undefined, depth: number, rand: Rand, out: Token[]): void {
  const needed = node.kind === 'Or' && parent === 'And';
  const extra = !needed && rand() < 0.15 && depth + 1 + nesting(node, undefined) <= MAX_PARENS;
  const wrap = needed || extra;
  if (wrap) out.push(punct('('));
  const inner = wrap ? depth + 1 : depth;
  if (node.kind === 'And' || node.kind === 'Or') writeGroup(node.kind, node.operands, inner, rand, out);
  else writeCondition(node, rand, out);
  if (wrap) out.push(punct(')'));
}

/** An n-ary group, sometimes regrouped as `(a AND b) AND c`, which parses back flattened. */
function writeGroup(kind: 'And' | 'Or', operands: readonly FilterNode[], depth: number, rand: Rand, out: Token[]): void {
  const split = operands.length > 2 && rand() < 0.2 && depth + 1 + Math.max(...operands.map((o) => nesting(o, kind))) <= MAX_PARENS;
  const at = split ? 2 + Math.floor(rand() * (operands.length - 2)) : 0;
  const parts: FilterNode[][] = split ? [operands.slice(0, at), operands.slice(at)] : operands.map((o) => [o]);
  parts.forEach((part, i) => {
    if (i > 0) out.push(word(anyCase(kind.toUpperCase(), rand)));
    if (part.length === 1) {
      writeNode(part[0]!, kind, depth, rand, out);
    } else {
      out.push(punct('('));
      writeGroup(kind, part, depth + 1, rand, out);
      out.push(punct(')'));
    }
  });
}

function writeCondition(node: Condition, rand: Rand, out: Token[]): void {
  const { field } = node;
  out.push(word(field.name));
  if (field.index !== null) out.push(punct('['), word(`${rand() < 0.2 ? '0' : ''}${field.index}`), punct(']'));
  if (node.kind === 'Like') {
    if (node.negated) out.push(word(anyCase('NOT', rand)));
    out.push(word(anyCase('LIKE', rand)), punct(writeString(node.pattern.value, rand)));
    return;
  }
  out.push(punct(node.operator === '!=' && rand() < 0.5 ? '<>' : node.operator));
  const { value } = node;
  if (value.kind === 'String') out.push(punct(writeString(value.value, rand)));
  else if (value.kind === 'Boolean') out.push(word(anyCase(String(value.value), rand)));
  else out.push(word(writeNumber(value.value, rand)));
}

function writeString(value: string, rand: Rand): string {
  const quote = rand() < 0.3 ? '"' : "'";
  return `${quote}${value.replace(quote === '"' ? /[\\"]/g : /[\\']/g, (c) => `\\${c}`)}${quote}`;
}

/** The same double in another spelling: `-0`, `007`, `5.0`, `0.50`. */
function writeNumber(value: number, rand: Rand): string {
  const text = printNumber(value);
  const r = rand();
  if (value === 0 && r < 0.3) return rand() < 0.5 ? '-0' : '-0.0';
  if (r < 0.15) return text.replace(/^(-?)/, '$100');
  if (r < 0.3) return text.includes('.') ? `${text}0` : `${text}.0`;
  return text;
}
