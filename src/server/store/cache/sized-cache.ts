/**
 * Values a store reads once and keeps, least recently used first out past a bound on their sizes.
 *
 * @module
 * @internal
 */

/**
 * Keeps the values of `load` calls by key (the pending promise too: concurrent callers share one
 * read), least recently used dropped first once the sizes of the kept values (by `sizeOf`) pass
 * `maxSize`; the one just read is kept whatever its size. A read that fails is not kept.
 *
 * @example
 * ```ts
 * const lists = new SizedCache<number[]>(1_000_000, (list) => list.length);
 * await lists.get('d:example.com', () => readList('example.com'));
 * ```
 */
export class SizedCache<V> {
  readonly #entries = new Map<string, { readonly value: Promise<V>; size: number }>();
  #total = 0;
  constructor(
    private readonly maxSize: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  /** The value kept under `key`, else what `load` resolves to (then kept). */
  get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.#entries.get(key);
    if (hit) {
      // Most recently used last.
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit.value;
    }
    const entry = { value: load(), size: 0 };
    this.#entries.set(key, entry);
    entry.value.then(
      (value) => {
        if (this.#entries.get(key) !== entry) return;
        entry.size = this.sizeOf(value);
        this.#total += entry.size;
        for (const [old, kept] of this.#entries) {
          if (this.#total <= this.maxSize || old === key) break;
          this.#total -= kept.size;
          this.#entries.delete(old);
        }
      },
      () => {
        if (this.#entries.get(key) === entry) this.#entries.delete(key);
      },
    );
    return entry.value;
  }

  /** Forgets the value under `key`. */
  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#total -= entry.size;
    this.#entries.delete(key);
  }

  /** Forgets every value (the data changed). */
  clear(): void {
    this.#entries.clear();
    this.#total = 0;
  }
}
