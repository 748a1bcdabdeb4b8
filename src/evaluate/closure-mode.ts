/**
 * 'closure' mode: the filter becomes a tree of small closures, for platforms that forbid
 * `new Function`. The hot case, an unindexed field against a literal, gets one closure per operator
 * so that a condition costs one call.
 *
 * @module
 */
import type { ComparisonOperator, FilterNode } from '../ast/nodes.js';
import type { Row } from './row.js';
import { compareCodePoints } from './text-order.js';
import { likeMatcher } from './like.js';
import { planCondition, type Access, type ConditionPlan } from './plan.js';
import { malformedAst } from '../ast/shape.js';

type Predicate = (row: Row) => boolean;
type Getter = (row: Row) => unknown;
// Rows hold scalars of the field's type; `<` on `unknown` needs a cast, the values are never mixed.
type Scalar = number;

const FIELD_TESTS: { readonly [K in ComparisonOperator]: (name: string, c: Scalar) => Predicate } = {
  '=': (name, c) => (row) => row[name] === c,
  '!=': (name, c) => (row) => row[name] !== c,
  '<': (name, c) => (row) => (row[name] as Scalar) < c,
  '<=': (name, c) => (row) => (row[name] as Scalar) <= c,
  '>': (name, c) => (row) => (row[name] as Scalar) > c,
  '>=': (name, c) => (row) => (row[name] as Scalar) >= c,
};

const VALUE_TESTS: { readonly [K in ComparisonOperator]: (a: Scalar, b: Scalar) => boolean } = {
  '=': (a, b) => a === b,
  '!=': (a, b) => a !== b,
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
};

function getter(access: Access): Getter {
  const { name, element } = access;
  if (element === null) return (row) => row[name];
  return (row) => (row[name] as readonly unknown[])[element];
}

function compareClosure(plan: Extract<ConditionPlan, { kind: 'compare' }>): Predicate {
  const c = plan.value as Scalar;
  if (plan.order === 'native' && plan.access.element === null) return FIELD_TESTS[plan.operator](plan.access.name, c);
  const get = getter(plan.access);
  const test = VALUE_TESTS[plan.operator];
  if (plan.order === 'native') return (row) => test(get(row) as Scalar, c);
  const text = plan.value as string;
  return (row) => test(compareCodePoints(get(row) as string, text), 0);
}

function conditionClosure(plan: ConditionPlan): Predicate {
  if (plan.kind === 'compare') return compareClosure(plan);
  const get = getter(plan.access);
  const matches = likeMatcher(plan.like);
  return plan.negated ? (row) => !matches(get(row) as string) : (row) => matches(get(row) as string);
}

function andClosure(parts: readonly Predicate[]): Predicate {
  if (parts.length === 2) {
    const [a, b] = parts as [Predicate, Predicate];
    return (row) => a(row) && b(row);
  }
  return (row) => {
    for (const part of parts) if (!part(row)) return false;
    return true;
  };
}

function orClosure(parts: readonly Predicate[]): Predicate {
  if (parts.length === 2) {
    const [a, b] = parts as [Predicate, Predicate];
    return (row) => a(row) || b(row);
  }
  return (row) => {
    for (const part of parts) if (part(row)) return true;
    return false;
  };
}

/**
 * Compiles a filter into a closure tree.
 *
 * @internal
 */
export function compileClosure(filter: FilterNode): Predicate {
  switch (filter.kind) {
    case 'And':
      return andClosure(filter.operands.map(compileClosure));
    case 'Or':
      return orClosure(filter.operands.map(compileClosure));
    case 'Comparison':
    case 'Like':
      return conditionClosure(planCondition(filter));
    default:
      throw malformedAst(`unknown node kind ${String((filter as { kind?: unknown }).kind)}`);
  }
}
