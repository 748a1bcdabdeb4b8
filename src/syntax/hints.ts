/**
 * What the parser adds to its own messages where a filter is written in another language's
 * spelling (`&&`, `==`, `NOT` before a field, `null`): the end of the message of an
 * `unexpected_character` or `unexpected_token` issue. They live with the parser, not in
 * `errors/messages.ts`, so that the client's first chunk (which formats issues) does not carry
 * them: only a text that was parsed can need them.
 *
 * @module
 * @internal
 */
import { MESSAGES } from '../errors/messages.js';
import type { IssueDraft } from '../errors/issue.js';
import { didYouMean } from '../shared/did-you-mean.js';

/**
 * What to write instead of an operator of other languages, by the characters the lexer refused:
 * `&&` and `||` (C, JavaScript), and `!`, which the language has only inside `!=`. `undefined`:
 * no hint (the message ends with its period).
 */
function characterHint(chars: string): string | undefined {
  if (/^&+$/.test(chars)) return didYouMean('AND');
  if (/^\|+$/.test(chars)) return didYouMean('OR');
  if (chars === '!') return '. There is no ! on its own: write != for "not equal", NOT LIKE for "does not match".';
  return undefined;
}

/**
 * A hint for a token the parser did not expect at `offset` (`length` units), where it is another
 * language's spelling: `==` and `!==` (the second `=` is the unexpected token), `NOT` before a
 * field (there is no unary NOT), `null` (records have no null).
 */
function tokenHint(text: string, offset: number, length: number): string | undefined {
  const token = text.slice(offset, offset + length);
  if (token === '=' && text.slice(offset - 2, offset) === '!=') return ' (not equal is written !=, not !==)';
  if (token === '=' && text.charAt(offset - 1) === '=' && !/[<>]/.test(text.charAt(offset - 2))) return ' (equality is a single =, not ==)';
  if (/^not$/i.test(token)) return " (NOT only comes before LIKE, as in anchor NOT LIKE '%x%'; for \"not equal\" write !=)";
  if (/^null$/i.test(token)) return " (there is no NULL: every record has every field, and empty text is '')";
  return undefined;
}

/**
 * The issue with its message written out, the hint in place of the message's last `.`, where the
 * text is another language's spelling; else the issue as it is (its message is written later).
 */
export function hinted(issue: IssueDraft, text: string): IssueDraft {
  const hint = issue.code === 'unexpected_character' ? characterHint(text.slice(issue.offset, issue.offset + issue.length)) : tokenHint(text, issue.offset, issue.length);
  if (hint === undefined) return issue;
  const message = MESSAGES[issue.code](issue, text);
  return { ...issue, message: issue.code === 'unexpected_character' ? `${message.slice(0, -1)}${hint}` : `${message.slice(0, -1)}${hint}.` };
}
