/**
 * The errors the front end throws. Nothing else ever leaves it: no raw Chevrotain error, no bare
 * `Error`. Each is recognised by its guard ({@link isFilterError}, {@link isParameterError}), which
 * tests its brand (`src/shared/brand.ts`), across realms and package copies.
 *
 * @module
 */
import type { FilterIssue } from './issue.js';
import { formatIssues } from './format.js';
import type { ParameterRule } from '../catalogue/rules.js';
import { errorBrand } from '../shared/brand.js';

const FILTER_ERROR = /* @__PURE__ */ errorBrand<FilterError>('FilterError');
const PARAMETER_ERROR = /* @__PURE__ */ errorBrand<ParameterError>('ParameterError');

/**
 * Thrown by {@link parseFilter} when a filter has issues; `issues` is never empty.
 *
 * @example
 * ```ts
 * try {
 *   parseFilter('domain_scor > 50', { operation: 'links' });
 * } catch (error) {
 *   if (isFilterError(error)) console.log(error.issues[0].code); // 'unknown_field'
 * }
 * ```
 */
export class FilterError extends Error {
  override readonly name = 'FilterError';
  /** The issues, in order of offset; never empty. */
  readonly issues: readonly FilterIssue[];
  /** The filter text the issues point into. */
  readonly text: string;

  constructor(issues: readonly FilterIssue[], text: string) {
    super(formatIssues(issues, text));
    this.issues = issues;
    this.text = text;
    FILTER_ERROR.mark(this);
  }
}

/**
 * Whether `value` is a {@link FilterError}, across realms and package copies.
 *
 * @example
 * ```ts
 * isFilterError(new FilterError([issue], 'x')); // true
 * ```
 */
export function isFilterError(value: unknown): value is FilterError {
  return FILTER_ERROR.is(value);
}

/**
 * A mistake of the caller in a parameter (an unknown operation name, a number of targets outside
 * 1-6, an invalid limit option), not an issue of the filter text.
 *
 * @example
 * ```ts
 * try {
 *   parseFilter('domain = "a"', { operation: 'matrix', targets: 9 });
 * } catch (error) {
 *   if (isParameterError(error)) console.log(error.parameter); // 'targets'
 * }
 * ```
 */
export class ParameterError extends Error {
  override readonly name = 'ParameterError';
  /** The parameter at fault. */
  readonly parameter: string;
  /** A stable code, one of the parameter rules (`required`, `too_small`, `invalid_value`, ...; see `PARAMETER_RULES`). */
  readonly code: ParameterRule;

  constructor(parameter: string, code: ParameterRule, message: string) {
    super(message);
    this.parameter = parameter;
    this.code = code;
    PARAMETER_ERROR.mark(this);
  }
}

/**
 * Whether `value` is a {@link ParameterError}, across realms and package copies.
 *
 * @example
 * ```ts
 * isParameterError(new ParameterError('limit', 'too_small', 'limit must be at least 1, not 0.')); // true
 * ```
 */
export function isParameterError(value: unknown): value is ParameterError {
  return PARAMETER_ERROR.is(value);
}
