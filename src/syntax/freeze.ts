/**
 * The deep freeze that makes a parse result safe to share: the parse cache of
 * {@link safeParseFilter} (option `cache`) hands the same result to every caller that parses the
 * same text for the same operation, so nothing in it may change.
 *
 * @module
 * @internal
 */
import type { FilterNode, Span } from '../ast/nodes.js';

const freezeSpan = (span: Span): void => {
  Object.freeze(span);
};

/**
 * Freezes an AST all the way down. The factories already freeze nodes and operand lists; the
 * spans the parser builds are plain objects, frozen here. Iterative: a deep AST is no stack risk.
 *
 * @internal
 */
export function deepFreezeFilter(root: FilterNode): FilterNode {
  const stack: FilterNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    freezeSpan(node.span);
    if (node.kind === 'And' || node.kind === 'Or') {
      Object.freeze(node.operands);
      for (const operand of node.operands) stack.push(operand);
    } else if (node.kind === 'Comparison') {
      freezeSpan(node.field.span);
      freezeSpan(node.value.span);
      Object.freeze(node.value);
      Object.freeze(node.field);
    } else {
      freezeSpan(node.field.span);
      freezeSpan(node.pattern.span);
      Object.freeze(node.pattern);
      Object.freeze(node.field);
    }
    Object.freeze(node);
  }
  return root;
}
