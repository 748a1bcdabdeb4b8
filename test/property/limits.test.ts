/**
 * Input at the limits ends in a clear issue or a result: never a stack overflow or a hang.
 * Assertions are on the outcome only (no timing).
 */
import { describe, expect, it } from 'vitest';
import * as ast from '../../src/ast/factories.js';
import { DEFAULT_LIMITS, nodesEqual, printFilter, safeParseFilter, validateFilter, type FilterNode } from '../../src/index.js';
import { filterFor } from '../../src/builder/index.js';

const UNLIMITED = { maxLength: Infinity, maxDepth: Infinity, maxConditions: Infinity };
const links = { operation: 'links' } as const;

const codes = (text: string, limits?: Partial<typeof UNLIMITED>) => {
  const result = safeParseFilter(text, { ...links, limits });
  return result.ok ? [] : result.issues.map((i) => i.code);
};

/** A valid filter of exactly `length` characters: one string comparison padded inside the quotes. */
const exactly = (length: number) => {
  const head = "anchor = '";
  return `${head}${'x'.repeat(length - head.length - 1)}'`;
};

describe('length', () => {
  it('accepts 4,096 characters and rejects 4,097 with too_long', () => {
    expect(exactly(4096)).toHaveLength(4096);
    expect(codes(exactly(4096))).toEqual([]);
    expect(codes(exactly(4097))).toEqual(['too_long']);
    expect(codes(' '.repeat(4097))).toEqual(['too_long']);
  });

  it('accepts any length when the limit is raised to Infinity', () => {
    expect(codes(exactly(1_000_000), UNLIMITED)).toEqual([]);
  });
});

describe('10,000 nested parentheses', () => {
  const nested = `${'('.repeat(10_000)}domain_score = 1${')'.repeat(10_000)}`;

  it('is too_deep under the default limits', () => {
    expect(codes(nested, { maxLength: Infinity })).toEqual(['too_deep']);
    expect(codes('('.repeat(10_000), { maxLength: Infinity })).toEqual(['too_deep']);
    // With the default length limit, the length is what the answer names.
    expect(codes(nested)).toEqual(['too_long']);
  });

  // The language page lets the caller raise every limit, but the package's decision 5
  // (docs/filter-language.md, "Decisions", part of the language) caps the parser itself at 256
  // levels whatever maxDepth says: deeper input is too_deep with expected 256, at the first `(`
  // past 256, never a stack overflow.
  it('is too_deep at the 257th parenthesis, expected 256, when every limit is Infinity', () => {
    const result = safeParseFilter(nested, { ...links, limits: UNLIMITED });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues).toMatchObject([{ code: 'too_deep', offset: 256, length: 1, line: 1, column: 257, expected: '256' }]);
  });

  it('parses 256 levels, and only 256, when every limit is Infinity', () => {
    const depth = (n: number) => safeParseFilter(`${'('.repeat(n)}domain_score = 1${')'.repeat(n)}`, { ...links, limits: UNLIMITED });
    const at256 = depth(256);
    expect(at256.ok && nodesEqual(at256.filter, ast.comparison(ast.field('domain_score'), '=', ast.numberLiteral(1)))).toBe(true);
    const at257 = depth(257);
    expect(at257.ok ? [] : at257.issues.map((i) => [i.code, i.offset, i.expected])).toEqual([['too_deep', 256, '256']]);
  });

  it('answers unbalanced deep input with the same too_deep when every limit is Infinity', () => {
    const result = safeParseFilter(`${'('.repeat(10_000)}domain_score = 1`, { ...links, limits: UNLIMITED });
    expect(result.ok ? [] : result.issues.map((i) => [i.code, i.offset, i.expected])).toEqual([['too_deep', 256, '256']]);
  });

  it('validates a deeply nested AST built in code without recursion', () => {
    let node: FilterNode = ast.comparison(ast.field('domain_score'), '=', ast.numberLiteral(1));
    for (let i = 0; i < 10_000; i++) {
      const other = ast.comparison(ast.field('page_score'), '>', ast.numberLiteral(i));
      node = i % 2 === 0 ? ast.or([node, other]) : ast.and([node, other]);
    }
    expect(validateFilter(node, links).map((i) => i.code)).toEqual(['too_deep']);
    expect(validateFilter(node, { ...links, limits: UNLIMITED })).toEqual([]);
  });
});

describe('100,000 conditions', () => {
  const conditions = Array.from({ length: 100_000 }, (_, i) => `domain_score = ${i}`);

  it.each([' AND ', ' OR '])('joined by %s: too_long, then too_many_conditions, then a result', (join) => {
    const text = conditions.join(join);
    expect(codes(text)).toEqual(['too_long']);
    expect(codes(text, { maxLength: Infinity })).toEqual(['too_many_conditions']);
    const result = safeParseFilter(text, { ...links, limits: UNLIMITED });
    expect(result.ok).toBe(true);
    if (result.ok && (result.filter.kind === 'And' || result.filter.kind === 'Or')) {
      expect(result.filter.operands).toHaveLength(100_000);
      expect(printFilter(result.filter)).toBe(text);
    } else {
      expect.unreachable('a flat group of 100,000 conditions');
    }
  });

  it('mixed AND/OR: a result with limits raised, too_many_conditions without', () => {
    const text = conditions.map((c, i) => (i === 0 ? c : `${i % 3 === 0 ? 'OR' : 'AND'} ${c}`)).join(' ');
    expect(codes(text, { maxLength: Infinity })).toEqual(['too_many_conditions']);
    expect(safeParseFilter(text, { ...links, limits: UNLIMITED }).ok).toBe(true);
  });

  it('built with the builder: too_many_conditions at the default limit, a filter with limits raised', () => {
    const strict = filterFor('links');
    const big = strict.all(Array.from({ length: 100_000 }, (_, i) => strict.where('domain_score', '=', i)));
    expect(() => big.toAst()).toThrowError(expect.objectContaining({ issues: [expect.objectContaining({ code: 'too_many_conditions' })] }));
    const relaxed = filterFor('links', { limits: UNLIMITED });
    const any = relaxed.any(Array.from({ length: 100_000 }, (_, i) => relaxed.where('domain_score', '=', i)));
    const text = any.toString();
    expect(text).toBe(conditions.join(' OR '));
    expect(DEFAULT_LIMITS.maxConditions).toBe(100);
  });

  it('built with the builder: a group of 300,000 combined again stays flat', () => {
    const relaxed = filterFor('links', { limits: UNLIMITED });
    const big = relaxed.any(Array.from({ length: 300_000 }, (_, i) => relaxed.where('domain_score', '=', i)));
    const more = big.or(relaxed.where('page_score', '>', 1)).toAst();
    expect(more.kind === 'Or' && more.operands.length).toBe(300_001);
  });
});
