/**
 * A small least-recently-used map, and the deep freeze that makes a parse result safe to share:
 * the parse cache of {@link safeParseFilter} (option `cache`) hands the same result to every
 * caller that parses the same text for the same operation, so nothing in it may change.
 *
 * @module
 * @internal
 */
import type { FilterNode, Span } from '../ast/nodes.js';

/**
 * At most `capacity` entries; reading an entry makes it the most recent, and adding one past the
 * capacity drops the least recent. A `Map` keeps insertion order, so the least recent is its first.
 *
 * @example
 * ```ts
 * const lru = new LruCache<string, number>(2);
 * lru.set('a', 1); lru.set('b', 2); lru.get('a'); lru.set('c', 3); // drops 'b'
 * ```
 * @internal
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {}

  /** The number of entries held. */
  get size(): number {
    return this.entries.size;
  }

  /** The value for `key`, made the most recent; `undefined` when absent. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    // Re-insert to move it to the end: the most recent. A hit on the newest entry needs nothing.
    if (this.entries.size > 1) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  /** Adds or replaces `key`, dropping the least recent entry past the capacity. */
  set(key: K, value: V): void {
    if (this.capacity <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as K);
  }

  /** Drops every entry. */
  clear(): void {
    this.entries.clear();
  }
}

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
