/**
 * The issue model: every problem in a filter is one {@link FilterIssue} with a stable code.
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

/** One problem in a filter text, with its place. */
export interface FilterIssue {
  readonly code: IssueCode;
  /** A sentence a person understands. */
  readonly message: string;
  /** 0-based offset in UTF-16 units. */
  readonly offset: number;
  /** Length in UTF-16 units (0 at the end of the input). */
  readonly length: number;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column, in UTF-16 units. */
  readonly column: number;
  /** The field concerned, for field and type issues. */
  readonly field?: string;
  /** What was expected, for syntax and type issues. */
  readonly expected?: string;
  /** The closest known field name, for `unknown_field`. */
  readonly suggestion?: string;
}

/** An issue before its line and column are computed. @internal */
export type IssueDraft = Omit<FilterIssue, 'line' | 'column' | 'message'> & { readonly message?: string };
