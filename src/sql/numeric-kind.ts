/**
 * What the catalogue says about a numeric field, and the exact rewrite of an integer field compared
 * with a decimal literal into an integer comparison, so the bound value has the column's type
 * (PostgreSQL rejects 2.5 for a bigint parameter) and an index on the column stays usable.
 *
 * @module
 */
import type { ComparisonOperator, Field } from '../ast/nodes.js';
import { operations, type OperationName } from '../catalogue/operations.js';
import type { FieldType } from '../catalogue/records.js';
import type { ColumnRef } from './columns.js';
import { checkTargetOptions } from '../validate/validate.js';

/** `integer`: the column holds integers; `unknown`: anything numeric. @internal */
export type NumericKind = 'integer' | 'unknown';

function recordType(operation: OperationName, name: string): FieldType | undefined {
  const record = operations[operation].record as Readonly<Record<string, { type: FieldType }>>;
  return Object.hasOwn(record, name) ? record[name]!.type : undefined;
}

const FILTERABLE = (Object.keys(operations) as OperationName[]).filter((name) => operations[name].filter);

/**
 * The numeric kind of a field: array elements are integers; a named operation's record decides;
 * without one, a field is an integer when every filterable record that has it says so. A trusted
 * `{ sql }` expression may compute anything, so it is `unknown`.
 *
 * @internal
 */
export function numericKind(field: Field, ref: ColumnRef, operation?: string): NumericKind {
  if (ref.kind === 'sql') return 'unknown';
  if (field.index !== null) return 'integer';
  const scope = operation === undefined ? FILTERABLE : [checkTargetOptions(operation)];
  const types = scope.map((name) => recordType(name, field.name)).filter((type) => type !== undefined);
  return types.length > 0 && types.every((type) => type === 'integer') ? 'integer' : 'unknown';
}

/** A comparison rewritten for an integer column, or a constant truth value. @internal */
export type IntegerComparison = { readonly operator: ComparisonOperator; readonly value: number } | boolean;

/**
 * Rewrites `integer op decimal` exactly: `= 2.5` never holds, `!= 2.5` always does, `< 2.5` and
 * `<= 2.5` are `<= 2`, `> 2.5` and `>= 2.5` are `>= 3`. Integer literals are left alone.
 *
 * @internal
 */
export function rewriteIntegerComparison(operator: ComparisonOperator, value: number): IntegerComparison {
  if (Number.isInteger(value)) return { operator, value };
  switch (operator) {
    case '=':
      return false;
    case '!=':
      return true;
    case '<':
    case '<=':
      return { operator: '<=', value: Math.floor(value) };
    case '>':
    case '>=':
      return { operator: '>=', value: Math.ceil(value) };
  }
}
