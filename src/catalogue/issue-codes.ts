/**
 * The codes of the filter language's issues: data, as the parameter rules are
 * (`rules.ts`), so that an error detail's `rule` can name either (`errors.ts`). The issue model
 * itself is `src/errors/issue.ts`.
 *
 * @module
 */

/**
 * Stable, machine-readable issue codes. Frozen once released: new codes may be added, none is
 * renamed or removed.
 *
 * @example
 * ```ts
 * ISSUE_CODES.includes('unknown_field'); // true
 * ```
 */
export const ISSUE_CODES = [
  'empty_filter',
  'too_long',
  'too_deep',
  'too_many_conditions',
  'unexpected_character',
  'unterminated_string',
  'invalid_escape',
  'invalid_number',
  'number_out_of_range',
  'unexpected_token',
  'unexpected_end',
  'filter_not_allowed',
  'unknown_field',
  'operator_not_allowed',
  'literal_type_mismatch',
  'invalid_timestamp',
  'index_not_allowed',
  'index_required',
  'index_out_of_range',
] as const;

/** An issue code. */
export type IssueCode = (typeof ISSUE_CODES)[number];
