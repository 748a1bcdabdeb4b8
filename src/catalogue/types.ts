/**
 * TypeScript types derived from the catalogue: the value type of each field type, the row type of
 * each operation, and the field names usable in a filter.
 *
 * @module
 */
import type { OperationName, Operations } from './operations.js';
import type { FieldType } from './records.js';

/** The JavaScript value of each field type, as the JSON form carries it. */
export interface FieldValueTypes {
  string: string;
  timestamp: string;
  integer: number;
  number: number;
  boolean: boolean;
  'integer[]': number[];
  'string[]': string[];
}

/** The value type of one field type. */
export type ValueOfType<T extends FieldType> = FieldValueTypes[T];

/** The record of an operation. */
export type RecordSpecOf<Op extends OperationName> = Operations[Op]['record'];

/** The type of one field of an operation (`'integer'`, `'timestamp'`, ...). */
export type FieldTypeOf<Op extends OperationName, F extends keyof RecordSpecOf<Op>> = RecordSpecOf<Op>[F] extends {
  readonly type: infer T extends FieldType;
}
  ? T
  : never;

/**
 * A full row of an operation, as JSON returns it.
 *
 * @example
 * ```ts
 * type Link = RowOf<'links'>; // { source_url: string; domain_score: number; is_nofollow: boolean; ... }
 * ```
 */
export type RowOf<Op extends OperationName> = {
  -readonly [F in keyof RecordSpecOf<Op>]: ValueOfType<FieldTypeOf<Op, F>>;
};

/** The fields of an operation that hold a given type. */
export type FieldsOfType<Op extends OperationName, T extends FieldType> = {
  [F in keyof RecordSpecOf<Op>]: FieldTypeOf<Op, F> extends T ? F : never;
}[keyof RecordSpecOf<Op>] &
  string;
