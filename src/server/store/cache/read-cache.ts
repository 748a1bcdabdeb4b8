/**
 * The read-cache: what a store keeps between calls, over any engine, bounded by bytes and
 * forgotten as a whole on every load (`create-store.ts` forgets it when a load of this store
 * finishes, and reads a competitor graph it held again at once; values whose data another process
 * may change carry a version the engine reads, and are read again when it differs). No engine
 * keeps or forgets anything of its own.
 *
 * - **List windows** (`reads/run-list.ts`, `ListWindows`): the first rows or keys of a list, by every
 *   parameter that shapes it (`reads/reads.ts`, `windowKey`).
 * - **Values** read whole: the competitor graph, each target's referring-domain list and the unions
 *   of several targets' (`memory/`), by a key naming what they are of.
 *
 * @module
 * @internal
 */
import { ListWindows } from '../reads/run-list.js';
import { BoundedCache } from '../../../shared/bounded-cache.js';

/** What the list windows may hold, estimated in bytes. */
export const WINDOW_BYTES = 64 * 2 ** 20;

/** What the values may hold, estimated in bytes. */
export const VALUE_BYTES = 384 * 2 ** 20;

/** A kept value, its estimated size and the version of the data it was read from. */
interface Kept {
  readonly value: unknown;
  readonly bytes: number;
  readonly version: string;
}

/** A store's read-cache. */
export class ReadCache {
  /** Lists read ahead since the last load. */
  readonly windows: ListWindows;
  readonly #values: BoundedCache<string, Kept>;

  constructor(options: { readonly windowBytes?: number; readonly valueBytes?: number } = {}) {
    this.windows = new ListWindows(options.windowBytes ?? WINDOW_BYTES);
    this.#values = new BoundedCache<string, Kept>(options.valueBytes ?? VALUE_BYTES, (kept) => kept.bytes);
  }

  /**
   * The value kept under `key` (every part that shapes it), else what `read` resolves to, kept at
   * its estimated size in bytes. `version`: the data it is read from; a value kept for another
   * version is read again.
   */
  async value<V>(key: readonly unknown[], read: () => Promise<V>, bytesOf: (value: V) => number, version = ''): Promise<V> {
    const name = JSON.stringify(key);
    const load = async (): Promise<Kept> => {
      const value = await read();
      return { value, bytes: bytesOf(value), version };
    };
    let kept = await this.#values.load(name, load);
    if (kept.version !== version) {
      this.#values.delete(name);
      kept = await this.#values.load(name, load);
    }
    return kept.value as V;
  }

  /** Whether a value is kept under `key`. */
  holds(key: readonly unknown[]): boolean {
    return this.#values.get(JSON.stringify(key)) !== undefined;
  }

  /** Forgets everything read (the data changed). */
  forget(): void {
    this.windows.forget();
    this.#values.clear();
  }
}
