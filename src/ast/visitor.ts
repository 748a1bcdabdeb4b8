/**
 * One visitor shape for every consumer of the AST. Adding a node kind breaks the build until
 * every consumer handles it.
 *
 * @module
 */
import type { FilterNode, Node, NodeKind } from './nodes.js';

/** A handler for each filter node kind. */
export type FilterVisitor<R, C = void> = {
  readonly [K in FilterNode['kind']]: (node: Extract<FilterNode, { kind: K }>, context: C) => R;
};

/**
 * Dispatches a filter node to the visitor's handler for its kind.
 *
 * @example
 * ```ts
 * const count: FilterVisitor<number> = {
 *   Or: (n) => n.operands.reduce((s, o) => s + visit(count, o), 0),
 *   And: (n) => n.operands.reduce((s, o) => s + visit(count, o), 0),
 *   Comparison: () => 1,
 *   Like: () => 1,
 * };
 * visit(count, parseFilter('a = 1 AND b = 2', { operation: 'links' })); // 2
 * ```
 */
export function visit<R, C>(visitor: FilterVisitor<R, C>, node: FilterNode, context: C): R;
export function visit<R>(visitor: FilterVisitor<R, void>, node: FilterNode): R;
export function visit<R, C>(visitor: FilterVisitor<R, C>, node: FilterNode, context?: C): R {
  const handler = visitor[node.kind] as (n: FilterNode, c: C | undefined) => R;
  return handler(node, context);
}

/**
 * The names of the fields a filter reads, in the order they first appear (`name[index]` counts as
 * `name`).
 *
 * @example
 * ```ts
 * fieldNames(parseFilter("a = 1 OR (b LIKE 'x%' AND a = 2)", { operation: 'links' })); // ['a', 'b']
 * ```
 */
export function fieldNames(node: FilterNode): string[] {
  const names = new Set<string>();
  const collect: FilterVisitor<void> = {
    Or: (n) => n.operands.forEach((operand) => visit(collect, operand)),
    And: (n) => n.operands.forEach((operand) => visit(collect, operand)),
    Comparison: (n) => void names.add(n.field.name),
    Like: (n) => void names.add(n.field.name),
  };
  visit(collect, node);
  return [...names];
}

/**
 * Whether two nodes are equal, ignoring spans.
 *
 * @example
 * ```ts
 * nodesEqual(parse('a = 1'), parse('a  =  1')); // true
 * ```
 */
export function nodesEqual(a: Node, b: Node): boolean {
  return JSON.stringify(stripSpans(a)) === JSON.stringify(stripSpans(b));
}

/**
 * A deep copy of a node without spans, for comparing and snapshotting.
 *
 * @example
 * ```ts
 * stripSpans(field('domain')); // { kind: 'Field', name: 'domain', index: null }
 * ```
 */
export function stripSpans(node: Node): unknown {
  return JSON.parse(JSON.stringify(node, (key, value: unknown) => (key === 'span' ? undefined : value)));
}

/** Every node kind, for exhaustive tables. @internal */
export const NODE_KINDS: readonly NodeKind[] = ['Or', 'And', 'Comparison', 'Like', 'Field', 'String', 'Number', 'Boolean'];
