/**
 * One deliberate bug for `npm run mutate`, as data. The lists live beside this file, one per part
 * of the code (`mutants.ts` gathers them).
 *
 * @internal
 * @module
 */

/** One deliberate bug. */
export interface Mutant {
  /** A short stable name (`--only` takes it). */
  readonly name: string;
  /** The part of the code it breaks (docs/mutation.md has a table of them). */
  readonly area: string;
  /** File under the repository root. */
  readonly file: string;
  /** Source text replaced, exactly once. */
  readonly find: string;
  readonly replace: string;
  /** Test files run against the mutant; any failure means it was caught. */
  readonly tests: readonly string[];
  /**
   * vitest project (`all`, `unit` and `server-embedded` unless the mutant is about another), or several: a mutant in
   * code every store shares runs its tests on each store's project, so each store must catch it.
   */
  readonly project?: string | readonly string[];
  /**
   * Set only for a mutant no test can catch because it changes nothing observable: why. A
   * survivor without a reason fails the run.
   */
  readonly survives?: string;
}
