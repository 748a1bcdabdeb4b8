/**
 * The meaning of one condition, decided once when a filter is compiled and shared by the code and
 * closure modes, so the two modes cannot drift apart.
 *
 * @module
 */
import type { ComparisonOperator, Condition, Field } from '../ast/nodes.js';
import { COMPARISON_OPERATORS } from '../ast/nodes.js';
import { isNativeOrderSafe } from './text-order.js';
import { planLike, type LikePlan } from './like.js';
import { internalize } from './intern.js';
import { malformedAst } from '../ast/shape.js';

/** Where a condition reads its value: `row[name]`, or `row[name][element]` for `name[n]`. @internal */
export interface Access {
  readonly name: string;
  /** 0-based array element (`backlinks_counts[1]` reads element 0), or `null`. */
  readonly element: number | null;
}

/**
 * How a comparison compares: `native` uses JavaScript's operators (numbers, booleans, and text whose
 * literal makes UTF-16 order equal code-point order); `codepoint` calls `compareCodePoints`.
 *
 * @internal
 */
export type CompareOrder = 'native' | 'codepoint';

/** One condition, ready to run. @internal */
export type ConditionPlan =
  | {
      readonly kind: 'compare';
      readonly access: Access;
      readonly operator: ComparisonOperator;
      readonly value: string | number | boolean;
      readonly order: CompareOrder;
    }
  | { readonly kind: 'like'; readonly access: Access; readonly negated: boolean; readonly like: LikePlan };

function planAccess(field: Field): Access {
  if (field.index === null) return { name: field.name, element: null };
  if (!Number.isSafeInteger(field.index) || field.index < 1) {
    throw malformedAst(`index ${String(field.index)} on field ${field.name} (indexes count from 1)`);
  }
  return { name: field.name, element: field.index - 1 };
}

function planOrder(operator: ComparisonOperator, value: string | number | boolean): CompareOrder {
  if (typeof value === 'boolean' && operator !== '=' && operator !== '!=') {
    throw malformedAst(`operator ${operator} on a boolean`);
  }
  if (typeof value !== 'string' || operator === '=' || operator === '!=') return 'native';
  return isNativeOrderSafe(value) ? 'native' : 'codepoint';
}

/**
 * Plans one condition. Throws {@link malformedAst} for a node no parser produces (an unknown operator, a
 * non-string LIKE pattern, an index below 1, a number that is not finite): the AST is meant to be validated first.
 *
 * @internal
 */
export function planCondition(node: Condition): ConditionPlan {
  const access = planAccess(node.field);
  if (node.kind === 'Like') {
    if (node.pattern?.kind !== 'String') throw malformedAst('a LIKE pattern that is not a string literal');
    return { kind: 'like', access, negated: node.negated === true, like: planLike(node.pattern.value) };
  }
  if (!(COMPARISON_OPERATORS as readonly string[]).includes(node.operator)) {
    throw malformedAst(`unknown comparison operator ${String(node.operator)}`);
  }
  const raw = node.value.value;
  if (typeof raw === 'number' && !Number.isFinite(raw)) throw malformedAst(`a number literal that is not finite (${String(raw)})`);
  const value = typeof raw === 'string' ? internalize(raw) : raw;
  return { kind: 'compare', access, operator: node.operator, value, order: planOrder(node.operator, value) };
}

