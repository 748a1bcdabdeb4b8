/**
 * Every issue message, keyed by code, so wording can change without touching logic.
 *
 * @module
 */
import type { IssueCode, IssueDraft } from './issue.js';

type MessageFn = (issue: IssueDraft, text: string) => string;

const excerpt = (issue: IssueDraft, text: string) => JSON.stringify(text.slice(issue.offset, issue.offset + issue.length));

/** @internal */
export const MESSAGES: Readonly<Record<IssueCode, MessageFn>> = {
  empty_filter: () => 'The filter is empty; write at least one condition, or leave the parameter out.',
  too_long: (i) => `The filter is too long: ${i.offset + i.length} characters, at most ${i.expected} allowed.`,
  too_deep: (i) => `Parentheses are nested too deeply: at most ${i.expected} levels allowed.`,
  too_many_conditions: (i) => `Too many conditions: at most ${i.expected} allowed.`,
  unexpected_character: (i, t) =>
    `Unexpected ${[...t.slice(i.offset, i.offset + i.length)].length > 1 ? 'characters' : 'character'} ${excerpt(i, t)}.`,
  unterminated_string: () => 'This string has no closing quote.',
  invalid_escape: (i, t) =>
    i.length === 1
      ? 'A backslash at the end of a string escapes nothing; write \\\\ for a backslash.'
      : `Invalid escape ${excerpt(i, t)}: only the string's own quote and the backslash may be escaped.`,
  invalid_number: (i, t) => `Invalid number ${excerpt(i, t)}: a number may not run straight into a word.`,
  number_out_of_range: (i, t) => `The number ${t.slice(i.offset, i.offset + i.length)} is too large: its magnitude must be at most 2^53 - 1.`,
  unexpected_token: (i, t) => `Unexpected ${excerpt(i, t)}; expected ${i.expected}.`,
  unexpected_end: (i) => `The filter ends too early; expected ${i.expected}.`,
  filter_not_allowed: (i) => `The operation ${i.expected} takes no filter.`,
  unknown_field: (i) =>
    i.suggestion
      ? `Unknown field ${i.field}; did you mean ${i.suggestion}?`
      : `Unknown field ${i.field}; the operation's fields are: ${i.expected}.`,
  operator_not_allowed: (i) => `This operator cannot be used on ${i.field}, which is ${i.expected}.`,
  literal_type_mismatch: (i) => `${i.field} is compared with the wrong type of value; expected ${i.expected}.`,
  invalid_timestamp: (i) =>
    `Invalid timestamp for ${i.field}: write a prefix of YYYY-MM-DDTHH:MM:SS that ends at a part boundary, such as '2024-05' or '2024-05-01T10:30'.`,
  index_not_allowed: (i) => `${i.field} is not an array; it takes no index.`,
  index_required: (i) => `${i.field} is an array; address one element as ${i.field}[n].`,
  index_out_of_range: (i) => `Index out of range: ${i.field}[n] takes n from 1 to ${i.expected}.`,
};
