/**
 * The parse cache (`safeParseFilter(text, { cache: true })`): hits, what a hit depends on, and
 * that what it shares cannot be changed by anyone. Expected ASTs and issues are written out here.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FilterNode } from '../../../src/ast/nodes.js';
import { compilePredicate, evaluateFilter } from '../../../src/evaluate/index.js';
import { isFilterError } from '../../../src/errors/filter-error.js';
import { printFilter } from '../../../src/print/printer.js';
import { toSql } from '../../../src/sql/to-sql.js';
import { clearParseCache, parseFilter, safeParseFilter } from '../../../src/syntax/parse.js';
import { validateFilter } from '../../../src/validate/validate.js';

afterEach(() => clearParseCache());

const links = { operation: 'links', cache: true } as const;

/** Every object reachable from `value`, with its path. */
function objectsIn(value: unknown, path = 'result', out: [string, object][] = []): [string, object][] {
  if (typeof value !== 'object' || value === null) return out;
  out.push([path, value]);
  for (const [key, inner] of Object.entries(value)) objectsIn(inner, `${path}.${key}`, out);
  return out;
}

describe('safeParseFilter with cache: true', () => {
  it('answers a repeated filter with the same result, equal to an uncached parse', () => {
    const first = safeParseFilter('domain_score > 5', links);
    const second = safeParseFilter('domain_score > 5', links);
    expect(second).toBe(first);
    expect(first).toEqual({
      ok: true,
      filter: {
        kind: 'Comparison',
        field: { kind: 'Field', name: 'domain_score', index: null, span: { offset: 0, length: 12 } },
        operator: '>',
        value: { kind: 'Number', value: 5, span: { offset: 15, length: 1 } },
        span: { offset: 0, length: 16 },
      },
    });
    expect(safeParseFilter('domain_score > 5', { operation: 'links' })).toEqual(first);
  });

  it('finds the text the caller passes again, not only the same string object', () => {
    const text = "anchor LIKE '%seo%' AND is_nofollow = false";
    const copy = `${text} `.slice(0, -1);
    expect(safeParseFilter(copy, links)).toBe(safeParseFilter(text, links));
  });

  it('keeps results apart by operation, targets and limits', () => {
    const onLinks = safeParseFilter('anchor = 1', links);
    const onPages = safeParseFilter('anchor = 1', { operation: 'pages', cache: true });
    const syntaxOnly = safeParseFilter('anchor = 1', { cache: true });
    expect(onLinks.ok ? [] : onLinks.issues.map((i) => i.code)).toEqual(['literal_type_mismatch']);
    expect(onPages.ok ? [] : onPages.issues.map((i) => i.code)).toEqual(['unknown_field']);
    expect(syntaxOnly.ok).toBe(true);

    const two = safeParseFilter('backlinks_counts[3] > 0', { operation: 'matrix', targets: 2, cache: true });
    const three = safeParseFilter('backlinks_counts[3] > 0', { operation: 'matrix', targets: 3, cache: true });
    expect(two.ok ? [] : two.issues.map((i) => i.code)).toEqual(['index_out_of_range']);
    expect(three.ok).toBe(true);

    const text = 'a = 1 AND b = 2 AND c = 3';
    expect(safeParseFilter(text, { cache: true }).ok).toBe(true);
    const limited = safeParseFilter(text, { cache: true, limits: { maxConditions: 2 } });
    expect(limited.ok ? [] : limited.issues.map((i) => i.code)).toEqual(['too_many_conditions']);
    // Equal limits given as a new object each time are the same context.
    expect(safeParseFilter(text, { cache: true, limits: { maxConditions: 2 } })).toBe(limited);
  });

  it('caches filters with issues too, with every issue as an uncached parse reports it', () => {
    const first = safeParseFilter('domain_scor > 5', links);
    expect(safeParseFilter('domain_scor > 5', links)).toBe(first);
    expect(first.ok).toBe(false);
    if (first.ok) return;
    expect(first.issues).toHaveLength(1);
    expect(first.issues[0]).toMatchObject({ code: 'unknown_field', offset: 0, length: 11, line: 1, column: 1, field: 'domain_scor', suggestion: 'domain_score' });
    expect(first.issues[0]!.message).toContain('domain_score');
    expect(safeParseFilter('domain_scor > 5', { operation: 'links' })).toEqual(first);
  });

  it('parseFilter throws a FilterError for a cached failure every time', () => {
    for (let i = 0; i < 2; i++) {
      let thrown: unknown;
      try {
        parseFilter('is_nofollow > true', links);
      } catch (error) {
        thrown = error;
      }
      expect(isFilterError(thrown)).toBe(true);
      if (isFilterError(thrown)) expect(thrown.issues.map((issue) => issue.code)).toEqual(['operator_not_allowed']);
    }
  });

  it('still checks the options first: an unknown operation throws, cached or not', () => {
    expect(() => safeParseFilter('a = 1', { operation: 'linkz', cache: true })).toThrow(/did you mean links/);
    // The interface's matrix takes up to 6 targets.
    expect(() => safeParseFilter('a = 1', { operation: 'matrix', targets: 9, cache: true })).toThrow(
      expect.objectContaining({ name: 'ParameterError', message: 'The number of targets must be an integer from 1 to 6.' }),
    );
  });

  it('does not keep texts over 4,096 characters', () => {
    const long = Array.from({ length: 200 }, (_, i) => `domain_score > ${i}`).join(' OR ');
    expect(long.length).toBeGreaterThan(4096);
    const options = { operation: 'links', cache: true, limits: { maxLength: 10_000, maxConditions: 500 } };
    const first = safeParseFilter(long, options);
    expect(first.ok).toBe(true);
    expect(safeParseFilter(long, options)).not.toBe(first);
  });

  it('without cache: true every parse builds a new result', () => {
    expect(safeParseFilter('domain_score > 5', { operation: 'links' })).not.toBe(safeParseFilter('domain_score > 5', { operation: 'links' }));
    expect(safeParseFilter('domain_score > 5', { operation: 'links', cache: false })).not.toBe(safeParseFilter('domain_score > 5', links));
  });

  /** A filter of exactly `length` characters, its own for each `i`: a comparison and a long anchor. */
  const filterOf = (i: number, length: number) => {
    const head = `domain_score > ${i} AND anchor = '`;
    return `${head}${'x'.repeat(length - head.length - 1)}'`;
  };

  it('has room for 256 results of 4,096 characters: one more drops the least recently used', () => {
    // Each result counts 1,024 bytes and two a character of its text (9,216 here); the bound is 256 of them.
    const first = Array.from({ length: 256 }, (_, i) => safeParseFilter(filterOf(i, 4096), links));
    expect(filterOf(0, 4096)).toHaveLength(4096);
    expect(first.every((result) => result.ok)).toBe(true);
    // Exactly at the bound: every one kept. Asking for 0 makes it the most recently used; 1 is now the least.
    for (let i = 0; i < 256; i++) expect(safeParseFilter(filterOf(i, 4096), links)).toBe(first[i]);
    expect(safeParseFilter(filterOf(0, 4096), links)).toBe(first[0]);
    const next = safeParseFilter(filterOf(256, 4096), links); // one past the bound: 1 goes
    expect(safeParseFilter(filterOf(256, 4096), links)).toBe(next);
    expect(safeParseFilter(filterOf(0, 4096), links)).toBe(first[0]);
    expect(safeParseFilter(filterOf(2, 4096), links)).toBe(first[2]);
    expect(safeParseFilter(filterOf(1, 4096), links)).not.toBe(first[1]);
  });

  it('keeps many more short filters than long ones: 2,000 of 20 characters', () => {
    // 2,000 results of 1,064 bytes: 2,128,000, within the bound of 256 x 9,216 = 2,359,296.
    const texts = Array.from({ length: 2_000 }, (_, i) => `domain_score > ${i}`.padEnd(20));
    expect(texts[1_999]).toHaveLength(20);
    const first = texts.map((text) => safeParseFilter(text, links));
    for (let i = 0; i < texts.length; i++) expect(safeParseFilter(texts[i]!, links)).toBe(first[i]);
  });

  it('counts a result per context a text is parsed for', () => {
    // 128 texts of 4,096 characters, each for two operations: 256 results, exactly the bound.
    const pages = { operation: 'pages', cache: true } as const;
    const results = Array.from({ length: 128 }, (_, i) => [safeParseFilter(filterOf(i, 4096), links), safeParseFilter(filterOf(i, 4096), pages)]);
    for (let i = 0; i < 128; i++) expect(safeParseFilter(filterOf(i, 4096), pages)).toBe(results[i]![1]);
    safeParseFilter(filterOf(128, 4096), links); // one past it: text 0, the least recently used, goes with both its results
    expect(safeParseFilter(filterOf(1, 4096), links)).toBe(results[1]![0]);
    expect(safeParseFilter(filterOf(0, 4096), pages)).not.toBe(results[0]![1]);
  });
});

describe('a cached result cannot be changed', () => {
  const TEXT = "(domain_score >= 10 OR backlinks_counts[1] > 2) AND anchor NOT LIKE '%seo%' AND is_nofollow = false AND first_seen_at > '2024-01'";

  it('is frozen all the way down: result, AST, operands, fields, literals, spans', () => {
    const options = { operation: 'matrix', targets: 2, cache: true } as const;
    const result = safeParseFilter(TEXT.replace(/ AND anchor.*$/, ''), options);
    expect(result.ok).toBe(true);
    const objects = objectsIn(result);
    // result, And, operands list, Or, its operands list, 2 comparisons (each: field, span, value,
    // span, own span), and the spans of the groups: far more than a dozen objects.
    expect(objects.length).toBeGreaterThan(15);
    for (const [path, object] of objects) expect([path, Object.isFrozen(object)]).toEqual([path, true]);
  });

  it('is frozen for failures too: the issues list and each issue', () => {
    const result = safeParseFilter('domain_scor > 5 AND anchor = 1', links);
    expect(result.ok).toBe(false);
    for (const [path, object] of objectsIn(result)) expect([path, Object.isFrozen(object)]).toEqual([path, true]);
  });

  it('throws on any attempt to change it (modules run in strict mode)', () => {
    const result = safeParseFilter('domain_score > 5 AND is_nofollow = true', links);
    if (!result.ok) throw new Error('expected a valid filter');
    const filter = result.filter as unknown as { kind: string; operands: { span: { offset: number }; field: { name: string } }[] };
    expect(() => {
      filter.kind = 'Or';
    }).toThrow(TypeError);
    expect(() => filter.operands.push(filter.operands[0]!)).toThrow(TypeError);
    expect(() => {
      filter.operands[0]!.span.offset = 3;
    }).toThrow(TypeError);
    expect(() => {
      filter.operands[0]!.field.name = 'anchor';
    }).toThrow(TypeError);
    expect(() => {
      (result as { ok: boolean }).ok = false;
    }).toThrow(TypeError);
    expect(safeParseFilter('domain_score > 5 AND is_nofollow = true', links)).toBe(result);
    expect(printFilter(result.filter)).toBe('domain_score > 5 AND is_nofollow = true');
  });

  it('is used as it is by the printer, the evaluator, the SQL compiler and the validator', () => {
    const result = safeParseFilter(TEXT, { operation: 'links', cache: true });
    expect(result.ok).toBe(false); // backlinks_counts is not a links field
    const valid = safeParseFilter(TEXT.replace('backlinks_counts[1] > 2', 'domain_score < 3'), links);
    if (!valid.ok) throw new Error(valid.issues[0]!.message);
    const filter: FilterNode = valid.filter;
    expect(printFilter(filter)).toBe("(domain_score >= 10 OR domain_score < 3) AND anchor NOT LIKE '%seo%' AND is_nofollow = false AND first_seen_at > '2024-01'");
    const row = { domain_score: 12, anchor: 'news', is_nofollow: false, first_seen_at: '2024-02-01T00:00:00' };
    expect(evaluateFilter(filter, row)).toBe(true);
    expect(compilePredicate(filter)({ ...row, anchor: 'best seo' })).toBe(false);
    expect(toSql(filter, { dialect: 'postgres', operation: 'links' }).sql).toContain('NOT LIKE');
    expect(validateFilter(filter, { operation: 'links' })).toEqual([]);
    // Nothing above changed it: the cache still answers with the same, still frozen, object.
    expect(safeParseFilter(TEXT.replace('backlinks_counts[1] > 2', 'domain_score < 3'), links)).toBe(valid);
    for (const [path, object] of objectsIn(valid)) expect([path, Object.isFrozen(object)]).toEqual([path, true]);
  });
});
