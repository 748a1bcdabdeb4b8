/**
 * The first `k` of many items in an order, without sorting them all.
 *
 * @module
 * @internal
 */

/**
 * The first `k` items of `items` in `compare` order, sorted: a bounded max-heap (the worst kept
 * item on top), so that most items cost one comparison.
 */
export function topK<T>(items: Iterable<T> & { readonly length: number }, k: number, compare: (a: T, b: T) => number): T[] {
  if (k <= 0) return [];
  if (items.length <= k) return Array.from(items).sort(compare);
  const heap: T[] = [];
  const up = (i: number) => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (compare(heap[i]!, heap[parent]!) <= 0) return;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let largest = i;
      if (left < heap.length && compare(heap[left]!, heap[largest]!) > 0) largest = left;
      if (right < heap.length && compare(heap[right]!, heap[largest]!) > 0) largest = right;
      if (largest === i) return;
      [heap[i], heap[largest]] = [heap[largest]!, heap[i]!];
      i = largest;
    }
  };
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      up(heap.length - 1);
    } else if (compare(item, heap[0]!) < 0) {
      heap[0] = item;
      down(0);
    }
  }
  return heap.sort(compare);
}
