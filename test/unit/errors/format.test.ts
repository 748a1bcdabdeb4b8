/**
 * Places and printing of issues: line and column (CR, LF, CR LF), the caret formatter, and the
 * error classes.
 */
import { describe, expect, it } from 'vitest';
import { FilterError, formatIssues, isFilterError, isParameterError, ISSUE_CODES, ParameterError, parseFilter, safeParseFilter } from '../../../src/index.js';
import { finishIssues, lineStarts, locate } from '../../../src/errors/format.js';
import { MESSAGES } from '../../../src/errors/messages.js';

const issuesOf = (text: string, operation?: string) => {
  const result = safeParseFilter(text, operation === undefined ? {} : { operation });
  if (result.ok) throw new Error(`expected issues for ${JSON.stringify(text)}`);
  return result.issues;
};

describe('lineStarts and locate', () => {
  it.each([
    ['abc', [0]],
    ['a\nb', [0, 2]],
    ['a\r\nb', [0, 3]],
    ['a\rb', [0, 2]],
    ['\r\n\r\n', [0, 2, 4]],
    ['\n\r', [0, 1, 2]],
    ['a\r\r\nb', [0, 2, 4]],
  ])('%j starts lines at %j', (text, starts) => {
    expect(lineStarts(text)).toEqual(starts);
  });

  it('gives 1-based line and column, counting CR LF as one break', () => {
    const starts = lineStarts('ab\r\ncd\ref\ngh');
    expect([0, 1, 2, 3, 4, 5, 7, 10, 11].map((o) => Object.values(locate(starts, o)).join(':'))).toEqual([
      '1:1', '1:2', '1:3', '1:4', '2:1', '2:2', '3:1', '4:1', '4:2',
    ]);
  });
});

describe('issue places in parsed text', () => {
  it('counts lines over CR LF, CR and LF, and columns in UTF-16 units', () => {
    const text = "anchor = 'x' AND\r\n  domain_scor > 1 AND\r  😀 = 1 OR\n\tancor = 'y'";
    const issues = issuesOf(text, 'links');
    expect(issues.map((i) => [i.code, i.line, i.column])).toEqual([
      ['unknown_field', 2, 3],
      ['unexpected_character', 3, 3],
      ['unknown_field', 4, 2],
    ]);
  });

  it('places unexpected_end right after the last token, even across lines', () => {
    const [issue] = issuesOf('a = 1 AND\r\n\r\n   ');
    expect(issue).toMatchObject({ code: 'unexpected_end', offset: 9, length: 0, line: 1, column: 10 });
  });
});

describe('formatIssues', () => {
  it('prints each issue with its line and a caret under it', () => {
    const text = "domain_score > 5 AND\r\n  ancor = 'x' AND\r\n  is_new > true";
    expect(formatIssues(issuesOf(text, 'links'), text)).toBe(
      [
        '2:3 unknown_field: Unknown field ancor; did you mean anchor?',
        "    ancor = 'x' AND",
        '    ^^^^^',
        '3:10 operator_not_allowed: This operator cannot be used on is_new, which is a boolean.',
        '    is_new > true',
        '           ^',
      ].join('\n'),
    );
  });

  it('shows one caret at the end for unexpected_end, and tabs as spaces so carets line up', () => {
    const text = 'a\t=\t1 AND';
    expect(formatIssues(issuesOf(text), text).split('\n').slice(1)).toEqual(['  a = 1 AND', '           ^']);
  });

  it('cuts the caret of an issue running over several lines at the end of its first line', () => {
    const text = "a = 'open\nstill open";
    expect(formatIssues(issuesOf(text), text).split('\n').slice(1)).toEqual(["  a = 'open", '      ^']);
    const long = [{ code: 'too_long', offset: 4, length: 20, line: 1, column: 5, message: 'm' }] as const;
    expect(formatIssues(long, 'abc = 123\nxyz').split('\n')[2]).toBe('      ^^^^^');
  });

  it('prints nothing for no issues', () => {
    expect(formatIssues([], 'a = 1')).toBe('');
  });
});

describe('messages', () => {
  it('has a message for every code, never empty', () => {
    const draft = { offset: 0, length: 1, field: 'f', expected: 'x', suggestion: 's' };
    for (const code of ISSUE_CODES) expect(MESSAGES[code]({ code, ...draft }, 'abc').length, code).toBeGreaterThan(10);
  });

  it('sorts issues by offset, then length, and keeps a given message', () => {
    const issues = finishIssues(
      [
        { code: 'unexpected_end', offset: 5, length: 0, expected: 'x' },
        { code: 'unexpected_character', offset: 1, length: 2, message: 'given' },
        { code: 'unexpected_character', offset: 1, length: 1 },
      ],
      'a;; b',
    );
    expect(issues.map((i) => [i.offset, i.length])).toEqual([[1, 1], [1, 2], [5, 0]]);
    expect(issues[1]!.message).toBe('given');
    expect(Object.isFrozen(issues[0])).toBe(true);
  });
});

describe('FilterError and ParameterError', () => {
  it('carries the issues and the text, and formats them as its message', () => {
    let error: unknown;
    try {
      parseFilter('ancor = 1', { operation: 'anchors' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FilterError);
    expect(isFilterError(error)).toBe(true);
    const filterError = error as FilterError;
    expect(filterError.name).toBe('FilterError');
    expect(filterError.text).toBe('ancor = 1');
    expect(filterError.issues.map((i) => [i.code, i.offset, i.length])).toEqual([['unknown_field', 0, 5]]);
    expect(filterError.message).toBe(formatIssues(filterError.issues, 'ancor = 1'));
  });

  it('is recognised across copies of the package by its symbol, not its class', () => {
    const foreign = { [Symbol.for('backlink-query.FilterError')]: true };
    expect(isFilterError(foreign)).toBe(true);
    expect(isFilterError(new Error('x'))).toBe(false);
    expect(isFilterError(null)).toBe(false);
    expect(isParameterError(new ParameterError('limit', 'too_small', 'm'))).toBe(true);
    expect(isParameterError({ parameter: 'x' })).toBe(false);
  });
});

describe('formatIssues with astral characters', () => {
  it('puts the caret under the problem after an emoji (column still counts UTF-16 units)', () => {
    const text = "a = '😀' AND 😀 = 1";
    const issues = issuesOf(text);
    expect(issues[0]).toMatchObject({ code: 'unexpected_character', column: 14, length: 2 });
    expect(formatIssues(issues, text).split('\n').slice(1)).toEqual([`  ${text}`, `  ${' '.repeat(12)}^`]);
  });
});
