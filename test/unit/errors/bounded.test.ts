/**
 * Error messages stay small whatever the input, and only a FilterError leaves the parser, at any
 * configured maxLength (docs/filter-language.md, Decisions 21 and 22). Expected texts are written
 * from the documented rules: a line longer than 80 characters is cut to 80 around the caret (30
 * before it) with `…` marks, at most 10 issues are printed, quoted text is cut at 40 characters.
 */
import { describe, expect, it } from 'vitest';
import { formatIssues, isFilterError, parseFilter, safeParseFilter, type FilterError, type ParseOptions } from '../../../src/index.js';

/** The error parseFilter throws; fails the test when it returns or throws anything else. */
function thrown(text: string, options: ParseOptions = {}): FilterError {
  try {
    parseFilter(text, options);
  } catch (error) {
    if (isFilterError(error)) return error;
    throw new Error(`expected a FilterError, got ${String(error)}`);
  }
  throw new Error('expected a FilterError, got a filter');
}

/** Ten issues, each at most 1,000 characters of message and two lines of about 85: well under 20,000. */
const MESSAGE_BOUND = 20_000;

describe('a long line is cut around the caret', () => {
  it('shows 80 characters of the line, 30 before the caret, with … where it was cut', () => {
    const text = `${'a = 1 OR '.repeat(10)}a = = 1${' OR a = 1'.repeat(10)}`;
    expect(thrown(text).message).toBe(
      [
        '1:95 unexpected_token: Unexpected "="; expected a string, a number, true or false.',
        '  … = 1 OR a = 1 OR a = 1 OR a = = 1 OR a = 1 OR a = 1 OR a = 1 OR a = 1 OR a = 1 O…',
        '                                 ^',
      ].join('\n'),
    );
  });

  it('fills the window from the end of the line when the caret is near it, with no mark at the end', () => {
    const text = `${'x'.repeat(100)} = 1 OR b = `;
    // The line has 112 characters; the issue is right after the last "=" (offset 111), so the
    // window is 32-112: 79 characters before the caret, after the … mark.
    expect(thrown(text).message.split('\n').slice(1)).toEqual([`  …${'x'.repeat(68)} = 1 OR b = `, `  ${' '.repeat(80)}^`]);
  });

  it('prints a line of at most 80 characters whole, as before', () => {
    const text = `${'a = 1 OR '.repeat(7)}b = = 1`;
    expect(thrown(text).message.split('\n').slice(1)).toEqual([`  ${text}`, `  ${' '.repeat(67)}^`]);
  });

  it('never cuts an emoji in two at the edges of the window', () => {
    // The unexpected "=" is at offset 46, so the window would start at 16, the second half of the
    // emoji at 15-16: it starts at 15 instead, and the caret stands 31 characters in (… included).
    const text = `s = '${'x'.repeat(10)}😀${'y'.repeat(27)}' = 1 ${'c'.repeat(60)}`;
    const [, source, caret] = thrown(text).message.split('\n');
    expect(source).toBe(`  …😀${'y'.repeat(27)}' = 1 ${'c'.repeat(46)}…`);
    expect(caret).toBe(`  ${' '.repeat(31)}^`);
  });
});

describe('at most ten issues are printed', () => {
  it('prints ten, then says how many more there are; the issues array keeps them all', () => {
    const error = thrown('a ;'.repeat(15));
    expect(error.issues).toHaveLength(15);
    const lines = error.message.split('\n');
    expect(lines).toHaveLength(31);
    expect(lines.slice(27)).toEqual([
      '1:30 unexpected_character: Unexpected character ";".',
      '  a ;a ;a ;a ;a ;a ;a ;a ;a ;a ;a ;a ;a ;a ;a ;',
      `  ${' '.repeat(29)}^`,
      '… and 5 more issues.',
    ]);
  });

  it('says "1 more issue" for one, and prints every issue when asked (maxIssues: Infinity)', () => {
    const result = safeParseFilter('a ;'.repeat(11));
    if (result.ok) throw new Error('expected issues');
    expect(formatIssues(result.issues, 'a ;'.repeat(11)).split('\n').at(-1)).toBe('… and 1 more issue.');
    expect(formatIssues(result.issues, 'a ;'.repeat(11), { maxIssues: Infinity }).split('\n')).toHaveLength(33);
  });
});

describe('quoted text in a message is cut at 40 characters', () => {
  it('cuts a run of unexpected characters, a long unknown field and a huge number', () => {
    const run = thrown(';'.repeat(500));
    expect(run.issues[0]!.message).toBe(`Unexpected characters "${';'.repeat(40)}…".`);
    const field = thrown(`${'x'.repeat(300)} = 1`, { operation: 'anchors' });
    expect(field.issues[0]!.message.startsWith(`Unknown field ${'x'.repeat(40)}…; the operation's fields are: `)).toBe(true);
    const number = thrown(`domain_score > ${'9'.repeat(300)}`, { operation: 'links' });
    expect(number.issues[0]!.message).toBe(`The number ${'9'.repeat(40)}… is too large: its magnitude must be at most 2^53 - 1.`);
  });
});

/** Inputs with an error every few characters: unexpected characters, syntax errors with recovery, unknown fields. */
const PATHOLOGICAL: ReadonlyArray<readonly [string, string]> = [
  ['an unexpected character every 3 characters', 'a ;'],
  ['a stray AND every 4 characters (recovery at each)', 'AND '],
  ['a condition and a syntax error every 14 characters', 'a = 1 AND AND '],
  ['a malformed number every 3 characters', '1x '],
  ['an unknown field every 20 characters', 'domain_scor = 1 OR '],
];

const repeatTo = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

describe('pathological input at a raised maxLength ends in a FilterError with a bounded message', () => {
  it('the 4,093-character input with an error every 7 characters (default limits)', () => {
    const error = thrown(repeatTo('a = 1 b ;', 4093), { operation: 'links' });
    expect(error.issues.length).toBeGreaterThan(400);
    expect(error.message.length).toBeLessThan(MESSAGE_BOUND);
  });

  it.each(PATHOLOGICAL)('60,000 characters: %s', (_, unit) => {
    const error = thrown(repeatTo(unit, 60_000), { operation: 'links', limits: { maxLength: 60_000, maxConditions: Number.POSITIVE_INFINITY } });
    expect(error.message.length).toBeLessThan(MESSAGE_BOUND);
  });

  it('60,000 characters: one issue per unexpected character, all kept', () => {
    const error = thrown('a ;'.repeat(20_000), { limits: { maxLength: 60_000 } });
    expect(error.issues).toHaveLength(20_000);
    expect(error.message.split('\n').at(-1)).toBe('… and 19,990 more issues.');
  });

  // Far from the 60-second default: only a guard against a hang (before the fix, 1 MB ran for
  // minutes and then threw a RangeError). No time is asserted.
  it.each(PATHOLOGICAL.slice(0, 3))('1,000,000 characters: %s', { timeout: 600_000 }, (_, unit) => {
    const error = thrown(repeatTo(unit, 1_000_000), { operation: 'links', limits: { maxLength: Number.POSITIVE_INFINITY, maxConditions: Number.POSITIVE_INFINITY } });
    expect(error.message.length).toBeLessThan(MESSAGE_BOUND);
  });
});
