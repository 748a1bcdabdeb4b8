/**
 * What stands in, in the build, for the parts of Chevrotain that the filter language never runs
 * (scripts/chevrotain-stubs.ts lists them and says why each is unreachable). Each stand-in throws
 * an Error naming what was left out as soon as it is used, so that a wrong stub fails loudly (in
 * test/entries/built-filter.test.ts, which runs the built files) rather than doing something else.
 *
 * Only the build uses this module: the package's sources, and its tests, run the real Chevrotain.
 *
 * @module
 * @internal
 */

/** The message of every stand-in's Error. */
export const leftOutMessage = (what: string) =>
  `backlink-query: Chevrotain's ${what} was left out of this build (scripts/chevrotain-stubs.ts), as the filter language never uses it; reaching it is a bug of backlink-query's build`;

/**
 * A function standing in for a function or class of Chevrotain: throws when called or
 * constructed. A plain `function` (not an arrow), so that a module-level `class X extends it`
 * still evaluates.
 */
export function leftOut(what: string): (...args: unknown[]) => never {
  return function leftOutFunction(): never {
    throw new Error(leftOutMessage(what));
  };
}

/** An object standing in for one of Chevrotain's objects (its default error messages): any property read throws. */
export function leftOutObject(what: string): object {
  return new Proxy(
    {},
    {
      get(_target, property) {
        throw new Error(leftOutMessage(`${what}.${String(property)}`));
      },
    },
  );
}
