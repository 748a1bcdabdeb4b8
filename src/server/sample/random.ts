/**
 * A small seeded random source (sfc32 seeded through splitmix32) so the sample data is the same
 * for the same seed on every machine, with the few distributions the generator needs.
 *
 * @module
 * @internal
 */

/** Weight tables prepared once per table object. */
const TABLES = new WeakMap<object, { keys: string[]; weights: number[]; total: number }>();

/** A deterministic random source. @internal */
export class Random {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const next = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.#a = next();
    this.#b = next();
    this.#c = next();
    this.#d = next();
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    const t = (((this.#a + this.#b) >>> 0) + this.#d) >>> 0;
    this.#d = (this.#d + 1) >>> 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) >>> 0;
    this.#c = ((this.#c << 21) | (this.#c >>> 11)) >>> 0;
    this.#c = (this.#c + t) >>> 0;
    return t / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element, uniformly. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** One key of a weight table. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    let table = TABLES.get(weights);
    if (!table) {
      const entries = Object.entries(weights) as [string, number][];
      table = { keys: entries.map(([key]) => key), weights: entries.map(([, w]) => w), total: entries.reduce((sum, [, w]) => sum + w, 0) };
      TABLES.set(weights, table);
    }
    let x = this.next() * table.total;
    for (let i = 0; i < table.keys.length; i++) {
      x -= table.weights[i]!;
      if (x < 0) return table.keys[i] as K;
    }
    return table.keys[table.keys.length - 1] as K;
  }
}

/**
 * Draws indexes 0..n-1 with probability proportional to 1/(i+1)^s: a heavy tail, where a few
 * items get most draws.
 *
 * @internal
 */
export class Zipf {
  readonly #cdf: Float64Array;
  constructor(n: number, s: number) {
    this.#cdf = new Float64Array(n);
    let sum = 0;
    for (let i = 0; i < n; i++) {
      sum += 1 / Math.pow(i + 1, s);
      this.#cdf[i] = sum;
    }
    for (let i = 0; i < n; i++) this.#cdf[i]! /= sum;
  }

  /** One index. */
  draw(random: Random): number {
    const x = random.next();
    let lo = 0;
    let hi = this.#cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
