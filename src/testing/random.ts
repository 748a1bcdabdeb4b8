/**
 * A small seeded generator of floats in [0, 1) (mulberry32): the same seed gives the same
 * sequence on every machine. The filter texts of `filterCaseArbitrary` take their style from it
 * (so shrinking stays valid), and the playground its sample rows. No fast-check here: the
 * playground bundles this module alone.
 *
 * @module
 * @internal
 */

/**
 * A generator of floats in [0, 1) seeded with `seed`.
 *
 * @example
 * ```ts
 * const next = seededRandom(42);
 * next(); // the same number on every run
 * ```
 * @internal
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
