/**
 * The one bounded cache of the package: every cache that must stay within a bound (the parse
 * cache, the client's checked filters, the store's list windows, matrix lists, competitor lists,
 * domain and shard lookups) is a {@link BoundedCache}, with one eviction scheme.
 *
 * @module
 * @internal
 */

/** What an entry is estimated to take besides its key and value: the map's slot and the record of its size. @internal */
export const ENTRY_BYTES = 64;

/** The estimated bytes of a string: two a UTF-16 unit (an upper bound: V8 keeps Latin-1 text in one). @internal */
export const textBytes = (text: string): number => 2 * text.length;

interface Entry<V> {
  readonly value: V;
  readonly bytes: number;
}

/**
 * Values by key, within a bound on their estimated bytes (`bytesOf(value, key)`, the caller's
 * estimate, measured once when the value is set): once the total passes `maxBytes`, the least
 * recently used entries go first, until it is within the bound again or only the entry just set
 * is left: that one is kept whatever its size (so a caller can always use what it just stored; a
 * bound of 0 keeps the last entry alone). A total exactly at the bound is within it. `get`, `set`
 * and `load` make an entry the most recently used.
 *
 * `load(key, read)` is the asynchronous form: the value kept, or `read()`'s, then kept; callers
 * that ask while a read is under way share its promise, and a read that fails is not kept (the
 * next call reads again). `delete` and `clear` also drop a read under way: its value, when it
 * comes, goes to its callers but is not kept (the data it was read from may have changed).
 *
 * A value whose size changes in place is set again (`set(key, value)`) to be measured again.
 *
 * @example
 * ```ts
 * const lists = new BoundedCache<string, number[]>(1_000_000, (list) => 8 * list.length);
 * await lists.load('example.com', () => readList('example.com'));
 * lists.get('example.com'); // the list, now the most recently used
 * ```
 * @internal
 */
export class BoundedCache<K, V> {
  /** In order of use: the least recently used first (a `Map` iterates in insertion order). */
  readonly #entries = new Map<K, Entry<V>>();
  readonly #reads = new Map<K, Promise<V>>();
  #bytes = 0;
  /** The most recently used key, if still kept: a hit on it moves nothing (runs of one key are common: a bulk load's hosts). */
  #newest: K | undefined;

  constructor(
    readonly maxBytes: number,
    private readonly bytesOf: (value: V, key: K) => number,
  ) {}

  /** The number of values kept (reads under way not counted). */
  get size(): number {
    return this.#entries.size;
  }

  /** The estimated bytes of the values kept. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The value kept under `key`, made the most recently used; `undefined` when none is. */
  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (key !== this.#newest) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
      this.#newest = key;
    }
    return entry.value;
  }

  /** Keeps `value` under `key` as the most recently used (replacing a kept value or a read under way), then drops the least recently used past the bound. */
  set(key: K, value: V): void {
    this.delete(key);
    const bytes = this.bytesOf(value, key);
    this.#entries.set(key, { value, bytes });
    this.#newest = key;
    this.#bytes += bytes;
    for (const [old, entry] of this.#entries) {
      if (this.#bytes <= this.maxBytes || old === key) break;
      this.#entries.delete(old);
      this.#bytes -= entry.bytes;
    }
  }

  /** Forgets `key`'s value and any read of it under way; whether a value was kept. */
  delete(key: K): boolean {
    this.#reads.delete(key);
    const entry = this.#entries.get(key);
    if (entry === undefined) return false;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
    return true;
  }

  /** Forgets every value and every read under way (the data changed). */
  clear(): void {
    this.#entries.clear();
    this.#reads.clear();
    this.#bytes = 0;
  }

  /** The value kept under `key`, else the read of it under way, else what `read()` resolves to (then kept). */
  load(key: K, read: () => Promise<V>): Promise<V> {
    if (this.#entries.has(key)) return Promise.resolve(this.get(key) as V);
    const pending = this.#reads.get(key);
    if (pending !== undefined) return pending;
    // A read that throws before returning its promise fails the same way as one that rejects.
    const reading: Promise<V> = new Promise<V>((resolve) => resolve(read())).then(
      (value) => {
        if (this.#reads.get(key) === reading) {
          this.#reads.delete(key);
          this.set(key, value);
        }
        return value;
      },
      (error: unknown) => {
        if (this.#reads.get(key) === reading) this.#reads.delete(key);
        throw error;
      },
    );
    this.#reads.set(key, reading);
    return reading;
  }
}
