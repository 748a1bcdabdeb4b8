/**
 * The shapes of filter completion: what {@link complete} is asked and what it answers.
 *
 * @module
 */
import type { TargetOptions } from '../validate/validate.js';

/** Options of `complete`: the operation the filter is for and, for matrix, the number of targets. */
export type CompletionOptions = TargetOptions;

/**
 * What a suggestion is:
 *
 * - `field`: a field of the operation (`domain_score`, `backlinks_counts[2]`);
 * - `operator`: a comparison operator, `LIKE` or `NOT LIKE`, each allowed by the field's type;
 * - `keyword`: `AND`, `OR`, `NOT`;
 * - `literal`: a value or a template for one (`true`, `'2024-05-01'`, `''`, a number hint);
 * - `punctuation`: `(`, `)`, `[`, `]`.
 */
export type CompletionKind = 'field' | 'operator' | 'keyword' | 'literal' | 'punctuation';

/** One suggestion, with the text range of the input it replaces. */
export interface Completion {
  /** What a list shows: `domain_score`, `>=`, `NOT LIKE`, `AND`, `true`, `'YYYY-MM-DD'`. */
  readonly label: string;
  /** The text that replaces `from`..`to` when the suggestion is taken. */
  readonly insert: string;
  readonly kind: CompletionKind;
  /** For a field its type (`integer`, `timestamp`, ...); for an operator or literal what it takes. */
  readonly detail?: string;
  /** One line: the field's meaning from the catalogue, or what the operator or template does. */
  readonly description?: string;
  /** Start of the replaced range: a 0-based UTF-16 offset into the text. */
  readonly from: number;
  /** End of the replaced range (exclusive); `from === to` inserts at the cursor. */
  readonly to: number;
  /**
   * Where the cursor goes after inserting, relative to `from` (inside a template's quotes, say).
   * Absent: after the inserted text.
   */
  readonly cursor?: number;
}
