/**
 * Every issue message, keyed by code, so wording can change without touching logic.
 *
 * @module
 */
import { didYouMean } from '../shared/did-you-mean.js';
import type { IssueCode, IssueDraft } from './issue.js';

type MessageFn = (issue: IssueDraft, text: string) => string;

/** @internal */
export const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
/** @internal */
export const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * `text` cut to at most `max` UTF-16 units (plus `…` when cut), never inside a surrogate pair.
 *
 * @internal
 */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  if (isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end))) end--;
  return `${text.slice(0, end)}…`;
}

/**
 * How much of the text a message quotes (a token, a run of characters, a field name), in UTF-16
 * units; longer ones are cut with `…`, so a message stays short whatever the input.
 */
const QUOTED = 40;

const quoted = (issue: IssueDraft, text: string) => text.slice(issue.offset, issue.offset + Math.min(issue.length, QUOTED + 1));
const excerpt = (issue: IssueDraft, text: string) => JSON.stringify(cut(quoted(issue, text), QUOTED));
const name = (field: string | undefined) => (field === undefined ? field : cut(field, QUOTED));

/** @internal */
export const MESSAGES: Readonly<Record<IssueCode, MessageFn>> = {
  empty_filter: () => 'The filter is empty; write at least one condition, or leave the parameter out.',
  too_long: (i) => `The filter is too long: ${i.offset + i.length} characters, at most ${i.expected} allowed.`,
  too_deep: (i) => `Parentheses are nested too deeply: at most ${i.expected} levels allowed.`,
  too_many_conditions: (i) => `Too many conditions: at most ${i.expected} allowed.`,
  unexpected_character: (i, t) =>
    `Unexpected ${[...quoted(i, t)].length > 1 ? 'characters' : 'character'} ${excerpt(i, t)}.`,
  unterminated_string: () => 'This string has no closing quote.',
  invalid_escape: (i, t) =>
    i.length === 1
      ? 'A backslash at the end of a string escapes nothing; write \\\\ for a backslash.'
      : `Invalid escape ${excerpt(i, t)}: only the string's own quote and the backslash may be escaped.`,
  invalid_number: (i, t) => `Invalid number ${excerpt(i, t)}: a number may not run straight into a word.`,
  number_out_of_range: (i, t) => `The number ${cut(quoted(i, t), QUOTED)} is too large: its magnitude must be at most 2^53 - 1.`,
  unexpected_token: (i, t) => `Unexpected ${excerpt(i, t)}; expected ${i.expected}.`,
  unexpected_end: (i) => `The filter ends too early; expected ${i.expected}.`,
  filter_not_allowed: (i) => `The operation ${i.expected} takes no filter.`,
  unknown_field: (i) =>
    i.suggestion
      ? `Unknown field ${name(i.field)}${didYouMean(i.suggestion)}`
      : `Unknown field ${name(i.field)}; the operation's fields are: ${i.expected}.`,
  operator_not_allowed: (i) => `This operator cannot be used on ${name(i.field)}, which is ${i.expected}.`,
  literal_type_mismatch: (i) => `${name(i.field)} is compared with the wrong type of value; expected ${i.expected}.`,
  invalid_timestamp: (i) =>
    `Invalid timestamp for ${name(i.field)}: write a prefix of YYYY-MM-DDTHH:MM:SS that ends at a part boundary, such as '2024-05' or '2024-05-01T10:30'.`,
  index_not_allowed: (i) => `${name(i.field)} is not an array; it takes no index.`,
  index_required: (i) => `${name(i.field)} is an array; address one element as ${name(i.field)}[n].`,
  index_out_of_range: (i) => `Index out of range: ${name(i.field)}[n] takes n from 1 to ${i.expected}.`,
};
