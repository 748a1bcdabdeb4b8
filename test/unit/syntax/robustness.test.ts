/**
 * Nothing but FilterError or ParameterError leaves the front end, whatever the input: non-string
 * text, odd options, recovery paths, garbage, deep nesting. No Chevrotain wording reaches an issue.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isFilterError, isParameterError, nodesEqual, parseFilter, printFilter, safeParseFilter, type FilterIssue } from '../../../src/index.js';
import { filterTextArbitrary } from '../../../src/testing/index.js';
import { seeded } from '../../property/support.js';

const CHEVROTAIN_TEXT = /Expecting|token of type|but found|-->|NoViableAlt|MismatchedToken|EarlyExit|NotAllInputParsed|EOF/;

/** Runs `f`; anything thrown must be one of our two errors. */
function outcome(f: () => unknown): 'ok' | 'filter-error' | 'parameter-error' {
  try {
    f();
    return 'ok';
  } catch (error) {
    if (isFilterError(error)) return 'filter-error';
    if (isParameterError(error)) return 'parameter-error';
    throw error;
  }
}

function expectClean(issues: readonly FilterIssue[]): void {
  for (const issue of issues) {
    expect(issue.message).not.toMatch(CHEVROTAIN_TEXT);
    expect(issue.expected ?? '').not.toMatch(CHEVROTAIN_TEXT);
  }
}

describe('non-string input', () => {
  it.each([undefined, null, 5, true, {}, [], Symbol.iterator, () => 'a = 1'])('%s gives an issue, not a TypeError', (input) => {
    const result = safeParseFilter(input as unknown as string);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((i) => [i.code, i.offset, i.length, i.line, i.column])).toEqual([['unexpected_token', 0, 0, 1, 1]]);
    expect(outcome(() => parseFilter(input as unknown as string))).toBe('filter-error');
  });
});

describe('odd options', () => {
  it('treats null options as none', () => {
    expect(safeParseFilter('a = 1', null as unknown as undefined).ok).toBe(true);
    expect(safeParseFilter('a = 1', { limits: null as unknown as undefined }).ok).toBe(true);
  });

  it.each([
    [{ operation: 5 }, 'operation', 'unknown_operation'],
    [{ operation: null }, 'operation', 'unknown_operation'],
    [{ operation: 'Links' }, 'operation', 'unknown_operation'],
    [{ operation: 'matrix', targets: '2' }, 'targets', 'invalid_type'],
    [{ operation: 'matrix', targets: Number.NaN }, 'targets', 'not_an_integer'],
    [{ limits: { maxLength: -1 } }, 'limits.maxLength', 'invalid_value'],
    [{ limits: { maxDepth: 1.5 } }, 'limits.maxDepth', 'invalid_value'],
    [{ limits: { maxConditions: '9' } }, 'limits.maxConditions', 'invalid_value'],
  ])('%j is a ParameterError', (options, parameter, code) => {
    let thrown: unknown;
    try {
      safeParseFilter('a = 1', options as never);
    } catch (error) {
      thrown = error;
    }
    expect(isParameterError(thrown)).toBe(true);
    expect(thrown).toMatchObject({ parameter, code });
  });
});

describe('recovery', () => {
  it.each([
    ['a = = 1 AND b = ', ['unexpected_token@4', 'unexpected_end@15']],
    ['(a = 1 OR) AND (b LIKE 5) AND (c 1)', ['unexpected_token@9', 'unexpected_token@23', 'unexpected_token@33']],
    ['a = 1 OR OR b = 2 AND AND c', ['unexpected_token@9', 'unexpected_token@22', 'unexpected_end@27']],
  ])('reports several syntax errors in %j', (text, expected) => {
    const result = safeParseFilter(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((i) => `${i.code}@${i.offset}`)).toEqual(expected);
    expectClean(result.issues);
  });

  it('keeps checking the conditions parsed before and after a syntax error', () => {
    const result = safeParseFilter('(domain_scor > 5 OR anchor =) AND is_nofollow = 1 AND (x = 2', { operation: 'links' });
    if (result.ok) throw new Error('expected issues');
    expect(result.issues.map((i) => i.code)).toEqual([
      'unknown_field',
      'unexpected_token',
      'literal_type_mismatch',
      'unknown_field',
      'unexpected_end',
    ]);
  });

  it('gives the same answer for the same text after other parses (the parser is reused)', () => {
    const first = safeParseFilter('a = 1 AND (b = ', { operation: 'links' });
    safeParseFilter('x', {});
    safeParseFilter('((((((', {});
    expect(safeParseFilter('a = 1 AND (b = ', { operation: 'links' })).toEqual(first);
  });
});

describe('deep and long input', () => {
  it('ends 10,000 nested parentheses as too_deep even with no depth limit', () => {
    const text = `${'('.repeat(10_000)}a = 1${')'.repeat(10_000)}`;
    const result = safeParseFilter(text, { limits: { maxLength: Number.POSITIVE_INFINITY, maxDepth: Number.POSITIVE_INFINITY } });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues).toMatchObject([{ code: 'too_deep', offset: 256, expected: '256' }]);
  });

  it('parses 256 levels when allowed', () => {
    const text = `${'('.repeat(256)}a = 1${')'.repeat(256)}`;
    expect(safeParseFilter(text, { limits: { maxDepth: 1000 } }).ok).toBe(true);
  });

  it('ends 100,000 conditions with a clear issue', () => {
    const text = Array.from({ length: 100_000 }, (_, i) => `a = ${i}`).join(' OR ');
    const result = safeParseFilter(text, { limits: { maxLength: Number.POSITIVE_INFINITY } });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((i) => i.code)).toEqual(['too_many_conditions']);
  });
});

const ALPHABET = [..."aZ_09 \t\r\n()[]=<>!'\"\\-.%;é😀", 'AND', 'OR', 'NOT', 'LIKE', 'true', 'domain_score', 'anchor', 'backlinks_counts'];
const soup = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 40 }).map((parts) => parts.join(''));
const VALID = [
  "domain_score > 50 AND (anchor LIKE '%seo%' OR is_nofollow = true)",
  "first_seen_at >= '2024-05' AND NOT_x = 1",
  "backlinks_counts[2] > 3 OR domain = 'a\\'b'",
];
const mutation = fc
  .tuple(fc.constantFrom(...VALID), fc.nat(), fc.nat({ max: 5 }), fc.constantFrom(...ALPHABET, ''))
  .map(([text, at, cut, insert]) => {
    const i = at % (text.length + 1);
    return text.slice(0, i) + insert + text.slice(i + cut);
  });

describe('any text', () => {
  // 300 seeded texts per operation: arbitrary graphemes, language soup, and mutations of valid filters.
  it.each(['links', 'matrix', 'overview', undefined])('never throws for operation %s; an AST prints and parses back, issues are well placed', (operation) => {
    const options = operation === undefined ? {} : { operation, targets: operation === 'matrix' ? 2 : undefined };
    // Valid texts of the language (for links, or for matrix with 2 targets), so the valid branch runs often.
    const wellFormed = filterTextArbitrary(operation === 'matrix' ? 'matrix' : 'links', { targets: 2, maxLength: 200 });
    let valid = 0;
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 60 }), soup, mutation, wellFormed), (text) => {
        const result = safeParseFilter(text, options);
        if (result.ok) {
          valid++;
          // Every accepted text: parseFilter agrees, and the canonical text parses back to the same AST.
          expect(outcome(() => parseFilter(text, options))).toBe('ok');
          expect(nodesEqual(parseFilter(text, options), result.filter)).toBe(true);
          const canonical = printFilter(result.filter);
          const again = safeParseFilter(canonical, options);
          expect(again.ok && nodesEqual(again.filter, result.filter), canonical).toBe(true);
          expect(again.ok && printFilter(again.filter)).toBe(canonical);
        } else {
          expect(result.issues.length).toBeGreaterThan(0);
          expectClean(result.issues);
          for (const issue of result.issues) expect(issue.offset + issue.length).toBeLessThanOrEqual(text.length);
          expect(outcome(() => parseFilter(text, options))).toBe('filter-error');
        }
      }),
      seeded(300),
    );
    // Neither branch is vacuous: about a quarter of the texts parse (overview takes no filter: none does).
    if (operation === 'overview') expect(valid).toBe(0);
    else expect(valid).toBeGreaterThan(50);
  });
});
