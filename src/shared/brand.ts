/**
 * How the package's errors are recognised: by a brand, never by `instanceof` or by `name`. Each
 * error class marks its instances in its constructor with the property
 * `Symbol.for('backlink-query.<Name>')` and exports a guard `isX()` that tests it. `Symbol.for`
 * gives the same symbol in every copy of the package and every realm, so a guard recognises an
 * error thrown by another copy (a second install, the CommonJS build beside the ES one, another
 * bundle) where `instanceof` does not, and never an error that merely has the same `name`.
 * A subclass carries its own brand and its base class's (`HttpError` is an `ApiError`).
 *
 * @module
 * @internal
 */

/** The brand of one error class: `mark` in its constructor, `is` as its guard. @internal */
export interface ErrorBrand<T> {
  /** Marks an instance (called by the class's constructor). */
  readonly mark: (error: T) => void;
  /** Whether a value carries the brand, whichever copy of the package made it. */
  readonly is: (value: unknown) => value is T;
}

/**
 * The brand `Symbol.for('backlink-query.<name>')` of an error class.
 *
 * @example
 * ```ts
 * const BRAND = errorBrand<KeyConfigError>('KeyConfigError');
 * class KeyConfigError extends Error {
 *   constructor(message: string) { super(message); BRAND.mark(this); }
 * }
 * BRAND.is(new KeyConfigError('x')); // true
 * BRAND.is(Object.assign(new Error('x'), { name: 'KeyConfigError' })); // false
 * ```
 *
 * @internal
 */
export function errorBrand<T extends object>(name: string): ErrorBrand<T> {
  const key = Symbol.for(`backlink-query.${name}`);
  return {
    mark: (error) => void Object.defineProperty(error, key, { value: true }),
    is: (value): value is T => typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[key] === true,
  };
}
