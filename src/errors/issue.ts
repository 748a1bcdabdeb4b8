/**
 * The issue model: every problem in a filter is one {@link FilterIssue} with a stable code.
 *
 * @module
 */

import type { IssueCode } from '../catalogue/issue-codes.js';

export { ISSUE_CODES, type IssueCode } from '../catalogue/issue-codes.js';

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
