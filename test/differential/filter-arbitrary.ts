/**
 * A value-aware filter generator for the differential suite: conditions whose literals come from
 * the dataset's own values and their near misses (case flips, trailing spaces, prefixes, one more
 * or one less, halves), LIKE patterns cut from real values, timestamp prefixes at every part
 * boundary, all shaped into AND/OR trees. Only filters that `validateFilter` accepts come out.
 *
 * @internal
 * @module
 */
import fc from 'fast-check';
import { and, booleanLiteral, comparison, field, like, numberLiteral, or, stringLiteral } from '../../src/ast/factories.js';
import { COMPARISON_OPERATORS, type Field, type FilterNode } from '../../src/ast/nodes.js';
import { operations, type FilterableOperation } from '../../src/catalogue/operations.js';
import type { FieldType } from '../../src/catalogue/records.js';
import { textArbitrary, textVariants, timestampArbitrary, timestampVariants, type ValuePools } from '../../src/testing/records.js';
import { isTimestampLiteral } from '../../src/validate/timestamp.js';
import { validateFilter } from '../../src/validate/validate.js';

/** Options of {@link filterArbitrary}. @internal */
export interface FilterArbitraryOptions {
  readonly targets?: number;
  readonly pools?: ValuePools;
  /** Most conditions in one filter (default 6). */
  readonly maxConditions?: number;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const pick = <T>(values: readonly T[]): fc.Arbitrary<T> => fc.constantFrom(...values);
const orOwn = <T>(own: fc.Arbitrary<T>, pool: readonly T[]): fc.Arbitrary<T> =>
  pool.length === 0 ? own : fc.oneof({ weight: 3, arbitrary: pick(pool) }, { weight: 1, arbitrary: own });

/** The filterable fields of an operation, `backlinks_counts[n]` expanded. @internal */
export function filterableFields(operation: FilterableOperation, targets: number): { node: Field; type: FieldType }[] {
  const record = operations[operation].record as Readonly<Record<string, { readonly type: FieldType }>>;
  return Object.entries(record).flatMap(([name, spec]) =>
    spec.type === 'integer[]'
      ? Array.from({ length: targets }, (_, i) => ({ node: field(name, i + 1), type: 'integer' as const }))
      : [{ node: field(name), type: spec.type }],
  );
}

/** Numbers near the pool's values: equal, ±1, ±0.5, and the bounds of a double literal. @internal */
function numberLiteralArbitrary(pool: readonly number[]): fc.Arbitrary<number> {
  const near = pool.flatMap((n) => [n, n - 1, n + 1, n - 0.5, n + 0.5, n + 1e-9].filter((x) => Math.abs(x) <= MAX_SAFE));
  const own = fc.oneof(
    pick([0, -1, 1, 0.5, -0.5, 100, 101, 2 ** 31 - 1, 2 ** 31, MAX_SAFE, -MAX_SAFE, 1 / 3]),
    fc.integer({ min: -5, max: 120 }),
  );
  return orOwn(own, near).map((x) => (x === 0 ? 0 : x));
}

/** Text literals: real values and their case, padding and prefix variants. @internal */
function textLiteralArbitrary(pool: readonly string[]): fc.Arbitrary<string> {
  // Cut by code point: a cut through a surrogate pair would leave a lone surrogate, which no
  // engine can store (UTF-8 cannot encode it) and the language does not define.
  const near = pool.flatMap((s) => [...textVariants(s), [...s].slice(0, -1).join(''), `${s}a`, `${s}\u{10000}`, `${s}\uffff`]);
  return orOwn(textArbitrary, near);
}

/** Timestamp literals: prefixes at every part boundary of real values and their neighbours. @internal */
function timestampLiteralArbitrary(pool: readonly string[]): fc.Arbitrary<string> {
  const cuts = [4, 7, 10, 13, 16, 19];
  const near = pool.flatMap(timestampVariants).flatMap((t) => cuts.map((n) => t.slice(0, n))).filter(isTimestampLiteral);
  return orOwn(fc.tuple(timestampArbitrary, pick(cuts)).map(([t, n]) => t.slice(0, n)), near);
}

/** LIKE patterns cut from real values: `%` in place of some runs, literal `_`, case flips. @internal */
function patternArbitrary(pool: readonly string[]): fc.Arbitrary<string> {
  const fromValue = fc
    .tuple(pool.length > 0 ? pick(pool) : textArbitrary, fc.nat(), fc.nat(), pick(['prefix', 'suffix', 'infix', 'hole', 'flip', 'exact']))
    .map(([value, a, b, shape]) => {
      const chars = [...value];
      const i = a % (chars.length + 1);
      const j = i + (b % (chars.length - i + 1));
      const head = chars.slice(0, i).join('');
      const mid = chars.slice(i, j).join('');
      const tail = chars.slice(j).join('');
      const table: Record<string, string> = {
        prefix: `${head}%`,
        suffix: `%${tail}`,
        infix: `%${mid}%`,
        hole: `${head}%${tail}`,
        flip: `%${mid.toUpperCase()}%`,
        exact: value,
      };
      return table[shape] ?? value;
    });
  return fc.oneof({ weight: 4, arbitrary: fromValue }, { weight: 1, arbitrary: pick(['%', '', '%%', '_', '%_%', 'a_c', '%\\%', "%'%", '% ']) });
}

/** One condition over one field, literal drawn from the pools. @internal */
function conditionArbitrary(spec: { node: Field; type: FieldType }, pools: ValuePools | undefined): fc.Arbitrary<FilterNode> {
  const own = pools?.fields[spec.node.name] ?? [];
  const strings = (own.filter((v) => typeof v === 'string') as string[]).concat(pools?.strings.slice(0, 8) ?? []);
  const numbers = (own.filter((v) => typeof v === 'number') as number[]).concat(pools?.numbers.slice(0, 4) ?? []);
  const op = pick(COMPARISON_OPERATORS);
  switch (spec.type) {
    case 'boolean':
      return fc.tuple(pick(['=', '!='] as const), fc.boolean()).map(([o, b]) => comparison(spec.node, o, booleanLiteral(b)));
    case 'integer':
    case 'number':
      return fc.tuple(op, numberLiteralArbitrary(numbers)).map(([o, n]) => comparison(spec.node, o, numberLiteral(n)));
    case 'string':
    case 'timestamp': {
      const literal = spec.type === 'string' ? textLiteralArbitrary(strings) : timestampLiteralArbitrary(strings.filter((s) => /^\d{4}-/.test(s)));
      return fc.oneof(
        fc.tuple(op, literal).map(([o, s]) => comparison(spec.node, o, stringLiteral(s))),
        fc.tuple(patternArbitrary(strings), fc.boolean()).map(([p, negated]) => like(spec.node, stringLiteral(p), negated)),
      );
    }
    default:
      throw new Error(`${spec.node.name}: ${spec.type} is not filterable`);
  }
}

/**
 * Valid filters for one operation, AND/OR trees of conditions whose literals come from `pools`.
 *
 * @internal
 */
export function filterArbitrary(operation: FilterableOperation, options: FilterArbitraryOptions = {}): fc.Arbitrary<FilterNode> {
  const targets = options.targets ?? 6;
  const maxConditions = options.maxConditions ?? 6;
  const condition = fc.oneof(...filterableFields(operation, targets).map((spec) => conditionArbitrary(spec, options.pools)));
  const tree = fc.letrec<{ node: FilterNode }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 3, arbitrary: condition },
      { weight: 1, arbitrary: fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((xs) => and(xs)) },
      { weight: 1, arbitrary: fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((xs) => or(xs)) },
    ),
  })).node;
  return tree.filter(
    (node) => countConditions(node) <= maxConditions && wellFormed(node) && validateFilter(node, { operation, targets }).length === 0,
  );
}

/** No lone surrogate in any literal (see textLiteralArbitrary). @internal */
export function wellFormed(node: FilterNode): boolean {
  if (node.kind === 'And' || node.kind === 'Or') return node.operands.every(wellFormed);
  const text = node.kind === 'Like' ? node.pattern.value : node.value.kind === 'String' ? node.value.value : '';
  return !/\p{Cs}/u.test(text);
}

function countConditions(node: FilterNode): number {
  return node.kind === 'And' || node.kind === 'Or' ? node.operands.reduce((sum, o) => sum + countConditions(o), 0) : 1;
}
