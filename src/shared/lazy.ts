/**
 * The one "load once" of the package: an `import()` (of one of our chunks, or of an optional
 * package) done on first need and shared by every later call.
 *
 * @module
 * @internal
 */

/**
 * Memoizes a load: the first call starts it; until it settles every call gets the same pending
 * promise, and once it has succeeded every call gets the value itself, with no `await` (the
 * client's first call stays synchronous when its checker is already there). A failed load is
 * forgotten, so a later call (after the user installed the package, or the network came back)
 * tries again.
 *
 * @example
 * ```ts
 * const checker = lazy(() => import('./params.js').then((m) => m.checkedQuery));
 * const check = checker(); // a promise the first time, the function once loaded
 * ```
 * @internal
 */
export function lazy<T>(load: () => Promise<T>): () => T | Promise<T> {
  let state: { readonly value: T } | undefined;
  let loading: Promise<T> | undefined;
  return () => {
    if (state) return state.value;
    return (loading ??= load().then(
      (value) => ((state = { value }), value),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  };
}
