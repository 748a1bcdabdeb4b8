/**
 * Operators of other languages get the filter language's spelling (filter-language.md: AND, OR,
 * `!=`, NOT only before LIKE, no unary NOT, no NULL), while code, offset and length stay those the
 * conformance corpus pins. Expected texts are written by hand.
 */
import { describe, expect, it } from 'vitest';
import { safeParseFilter } from '../../../src/index.js';
import { filterFor } from '../../../src/builder/index.js';
import { isParameterError } from '../../../src/errors/filter-error.js';

const issuesOf = (text: string) => {
  const result = safeParseFilter(text, { operation: 'links' });
  if (result.ok) throw new Error(`expected issues for ${JSON.stringify(text)}`);
  return result.issues.map((issue) => `${issue.code}@${issue.offset}+${issue.length}: ${issue.message}`);
};

describe('operators of other languages', () => {
  it.each([
    [`anchor == 'seo'`, `unexpected_token@8+1: Unexpected "="; expected a string, a number, true or false (equality is a single =, not ==).`],
    [`anchor === 'seo'`, `unexpected_token@8+1: Unexpected "="; expected a string, a number, true or false (equality is a single =, not ==).`],
    [`anchor !== 'seo'`, `unexpected_token@9+1: Unexpected "="; expected a string, a number, true or false (not equal is written !=, not !==).`],
    [`is_new = true && is_lost = false`, `unexpected_character@14+2: Unexpected characters "&&"; did you mean AND?`],
    [`is_new = true & is_lost = false`, `unexpected_character@14+1: Unexpected character "&"; did you mean AND?`],
    [`is_new = true || is_lost = false`, `unexpected_character@14+2: Unexpected characters "||"; did you mean OR?`],
    [`!is_new = true`, `unexpected_character@0+1: Unexpected character "!". There is no ! on its own: write != for "not equal", NOT LIKE for "does not match".`],
    [
      `is_new = true AND NOT anchor = 'x'`,
      `unexpected_token@18+3: Unexpected "NOT"; expected "(" or a field name (NOT only comes before LIKE, as in anchor NOT LIKE '%x%'; for "not equal" write !=).`,
    ],
    [`anchor = null`, `unexpected_token@9+4: Unexpected "null"; expected a string, a number, true or false (there is no NULL: every record has every field, and empty text is '').`],
  ])('%s', (text, expected) => {
    expect(issuesOf(text)).toEqual([expected]);
  });

  it('leaves other misplaced tokens as they were: a spaced "= =", "<==", a lone ";"', () => {
    expect(issuesOf(`anchor = = 'x'`)).toEqual([`unexpected_token@9+1: Unexpected "="; expected a string, a number, true or false.`]);
    expect(issuesOf(`anchor <== 'x'`)).toEqual([`unexpected_token@9+1: Unexpected "="; expected a string, a number, true or false.`]);
    expect(issuesOf(`anchor = 'x';`)).toEqual([`unexpected_character@12+1: Unexpected character ";".`]);
  });

  it('accepts <>, the language\'s own synonym of !=', () => {
    expect(safeParseFilter(`anchor <> 'x'`, { operation: 'links' }).ok).toBe(true);
  });

  it('the builder names = for == and != for !==', () => {
    const messageOf = (operator: string) => {
      try {
        filterFor('links' as string).where('domain_score', operator as never, 1);
      } catch (error) {
        if (isParameterError(error)) return error.message;
      }
      throw new Error('expected a ParameterError');
    };
    expect(messageOf('==')).toBe('Unknown operator "=="; did you mean =? The operators: = != <> < <= > >= LIKE NOT LIKE.');
    expect(messageOf('!==')).toBe('Unknown operator "!=="; did you mean !=? The operators: = != <> < <= > >= LIKE NOT LIKE.');
    expect(messageOf('~')).toBe('Unknown operator "~"; use one of = != <> < <= > >= LIKE NOT LIKE.');
  });
});
