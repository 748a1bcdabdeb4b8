/**
 * The limits of the filter language. Each is configurable; past one the answer is an issue,
 * never a stack overflow or a hang.
 *
 * @module
 */
import { ParameterError } from '../errors/filter-error.js';

/** Limits on a filter. */
export interface Limits {
  /** Most characters of input (UTF-16 units, as `String.prototype.length` counts). */
  readonly maxLength: number;
  /** Deepest nesting of parentheses. */
  readonly maxDepth: number;
  /** Most conditions. */
  readonly maxConditions: number;
}

/**
 * The default limits: 4,096 characters, parentheses 32 deep, 100 conditions.
 *
 * @example
 * ```ts
 * parseFilter(text, { limits: { ...DEFAULT_LIMITS, maxConditions: 500 } });
 * ```
 */
export const DEFAULT_LIMITS: Limits = Object.freeze({ maxLength: 4096, maxDepth: 32, maxConditions: 100 });

/** Merges caller limits over the defaults, rejecting nonsense. @internal */
export function resolveLimits(limits: Partial<Limits> | undefined): Limits {
  if (limits === undefined) return DEFAULT_LIMITS;
  const merged = { ...DEFAULT_LIMITS, ...limits };
  for (const [name, value] of Object.entries(merged)) {
    if (!(Number.isInteger(value) && value >= 0) && value !== Number.POSITIVE_INFINITY) {
      throw new ParameterError(`limits.${name}`, 'invalid_value', `limits.${name} must be a non-negative integer or Infinity.`);
    }
  }
  return merged;
}
