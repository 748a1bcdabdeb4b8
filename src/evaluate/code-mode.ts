/**
 * 'code' mode: the filter becomes the body of one JavaScript function, built with `new Function`,
 * so it runs as fast as a hand-written arrow function. Nothing from the filter is spliced into the
 * source except field names that are plain identifiers and validated integer indexes: every literal
 * and pattern travels in a constants array and is read through a local `const`.
 *
 * @module
 */
import type { FilterNode } from '../ast/nodes.js';
import type { Row } from './row.js';
import { compareCodePoints } from './text-order.js';
import { likeMatcher } from './like.js';
import { planCondition, type Access, type ConditionPlan } from './plan.js';
import { malformedAst } from '../ast/shape.js';

const JS_OPERATORS = { '=': '===', '!=': '!==', '<': '<', '<=': '<=', '>': '>', '>=': '>=' } as const;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Collects constants and hands out the local name of each. */
class Constants {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `c${this.values.length - 1}`;
  }
}

function accessSource(access: Access, constants: Constants): string {
  const base = IDENTIFIER.test(access.name) ? `r.${access.name}` : `r[${constants.add(access.name)}]`;
  // `element` is a safe non-negative integer (checked by planCondition), so it is spliced as digits.
  return access.element === null ? base : `${base}[${String(access.element)}]`;
}

function likeSource(plan: Extract<ConditionPlan, { kind: 'like' }>, value: string, constants: Constants): string {
  const like = plan.like;
  switch (like.shape) {
    case 'equals':
      return `${value} === ${constants.add(like.text)}`;
    case 'prefix':
      return `${value}.startsWith(${constants.add(like.text)})`;
    case 'suffix':
      return `${value}.endsWith(${constants.add(like.text)})`;
    case 'contains':
      return `${value}.includes(${constants.add(like.text)})`;
    case 'any':
      return 'true';
    case 'general':
      return `${constants.add(likeMatcher(like))}(${value})`;
  }
}

function conditionSource(plan: ConditionPlan, constants: Constants): string {
  const value = accessSource(plan.access, constants);
  if (plan.kind === 'like') {
    const source = likeSource(plan, value, constants);
    return plan.negated ? `!(${source})` : `(${source})`;
  }
  const literal = constants.add(plan.value);
  const operator = JS_OPERATORS[plan.operator];
  if (plan.order === 'codepoint') return `(cmp(${value}, ${literal}) ${operator} 0)`;
  return `(${value} ${operator} ${literal})`;
}

function nodeSource(node: FilterNode, constants: Constants): string {
  switch (node.kind) {
    case 'And':
      return `(${node.operands.map((operand) => nodeSource(operand, constants)).join(' && ')})`;
    case 'Or':
      return `(${node.operands.map((operand) => nodeSource(operand, constants)).join(' || ')})`;
    case 'Comparison':
    case 'Like':
      return conditionSource(planCondition(node), constants);
    default:
      throw malformedAst(`unknown node kind ${String((node as { kind?: unknown }).kind)}`);
  }
}

/**
 * The source of the factory `new Function` receives, and the constants it is called with.
 *
 * @internal
 */
export function generatePredicateSource(filter: FilterNode): { source: string; constants: readonly unknown[] } {
  const constants = new Constants();
  const body = nodeSource(filter, constants);
  const locals = constants.values.map((_, i) => `const c${i} = c[${i}];`).join('\n');
  const source = `"use strict";\n${locals}\nreturn function predicate(r) { return ${body}; };`;
  return { source, constants: constants.values };
}

/**
 * Compiles a filter with `new Function`. Throws whatever the platform throws when code generation is
 * forbidden (an `EvalError` under a Content Security Policy without `unsafe-eval`).
 *
 * @internal
 */
export function compileCode(filter: FilterNode): (row: Row) => boolean {
  const { source, constants } = generatePredicateSource(filter);
  const factory = new Function('c', 'cmp', source) as (
    c: readonly unknown[],
    cmp: typeof compareCodePoints,
  ) => (row: Row) => boolean;
  return factory(constants, compareCodePoints);
}
