/**
 * Types the builder derives from the `as const` catalogue: for one operation, the names a filter
 * may use (with `backlinks_counts[n]` spelled out for each allowed `n`), the operators each field
 * type allows, and the JavaScript value each type takes. Every type here is a flat mapped or
 * conditional type evaluated once per builder, so long chains of conditions stay cheap to check.
 *
 * @module
 */
import type { FilterableOperation } from '../catalogue/operations.js';
import type { FieldTypeOf, RecordSpecOf } from '../catalogue/types.js';

/** The field types a condition can compare: the scalar types, and array elements as `integer`. */
export type ScalarFieldType = 'string' | 'timestamp' | 'integer' | 'number' | 'boolean';

/** The operators of comparisons that order values. */
export type OrderOperator = '<' | '<=' | '>' | '>=';
/** The equality operators; `<>` is accepted as a synonym of `!=` and built as `!=`. */
export type EqualityOperator = '=' | '!=' | '<>';
/** The pattern operators, allowed only on `string` and `timestamp` fields. */
export type PatternOperator = 'LIKE' | 'NOT LIKE';
/** Every operator `where` accepts at run time. */
export type BuilderOperator = EqualityOperator | OrderOperator | PatternOperator;

/**
 * The operators a field type allows: all comparisons and LIKE on text, all comparisons on
 * numbers, only `=` and `!=` on booleans.
 *
 * @example
 * ```ts
 * type B = OperatorFor<'boolean'>; // '=' | '!=' | '<>'
 * ```
 */
export type OperatorFor<T extends ScalarFieldType> = T extends 'string' | 'timestamp'
  ? EqualityOperator | OrderOperator | PatternOperator
  : T extends 'boolean'
    ? EqualityOperator
    : EqualityOperator | OrderOperator;

/**
 * The JavaScript value a field type is compared with: strings for text and timestamps, numbers
 * for integers and numbers, booleans for flags.
 *
 * @example
 * ```ts
 * type V = ValueFor<'integer'>; // number
 * ```
 */
export type ValueFor<T extends ScalarFieldType> = T extends 'string' | 'timestamp' ? string : T extends 'boolean' ? boolean : number;

/**
 * The positive integers from 1 to `N` (1 to 6 when `N` is not a literal), the indexes
 * `backlinks_counts[n]` accepts for `N` targets. `Acc` is the counter of the recursion, which
 * stops at `N` or after six steps, whichever comes first.
 *
 * @example
 * ```ts
 * type I = IndexUpTo<3>; // 1 | 2 | 3
 * ```
 */
export type IndexUpTo<N extends number, Acc extends unknown[] = [unknown]> = number extends N
  ? IndexUpTo<6>
  : Acc['length'] extends N | 7
    ? Acc['length'] extends 7
      ? never
      : N
    : Acc['length'] | IndexUpTo<N, [...Acc, unknown]>;

/**
 * The names one operation's filters may use, each mapped to the scalar type it compares as. For
 * matrix, `backlinks_counts` appears only as `backlinks_counts[1]` ... `backlinks_counts[N]`.
 *
 * @example
 * ```ts
 * type M = FilterFields<'matrix', 2>;
 * // { domain: 'string'; domain_score: 'integer'; ...; 'backlinks_counts[1]': 'integer'; 'backlinks_counts[2]': 'integer' }
 * ```
 */
export type FilterFields<Op extends FilterableOperation, N extends number = 6> = {
  [F in keyof RecordSpecOf<Op> & string as FieldTypeOf<Op, F> extends 'integer[]'
    ? `${F}[${IndexUpTo<N>}]`
    : FieldTypeOf<Op, F> extends ScalarFieldType
      ? F
      : never]: FieldTypeOf<Op, F> extends 'integer[]' ? 'integer' : Extract<FieldTypeOf<Op, F>, ScalarFieldType>;
};

/** Field map of a builder whose operation is known only at run time. */
export type AnyFilterFields = Readonly<Record<string, ScalarFieldType>>;

/**
 * The names of a field map whose type allows LIKE (`string` and `timestamp`).
 *
 * @example
 * ```ts
 * type T = TextFieldOf<FilterFields<'anchors'>>; // 'anchor' | 'first_seen_at' | 'last_seen_at'
 * ```
 */
export type TextFieldOf<M extends AnyFilterFields> = {
  // Extract, not `extends`: a run-time builder's type is the union of all types, and still takes LIKE.
  [K in keyof M]: [Extract<M[K], 'string' | 'timestamp'>] extends [never] ? never : K;
}[keyof M] &
  string;
