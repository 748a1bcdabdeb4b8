import { describe, expect, it } from 'vitest';
import { parseFilter, printFilter, safeParseFilter, stripSpans } from '../../../src/index.js';

describe('parseFilter', () => {
  it('parses the typical filter into an And with an Or group', () => {
    const filter = parseFilter("domain_score > 50 AND (anchor LIKE '%seo%' OR is_nofollow = true)", { operation: 'links' });
    expect(stripSpans(filter)).toEqual({
      kind: 'And',
      operands: [
        { kind: 'Comparison', field: { kind: 'Field', name: 'domain_score', index: null }, operator: '>', value: { kind: 'Number', value: 50 } },
        {
          kind: 'Or',
          operands: [
            { kind: 'Like', field: { kind: 'Field', name: 'anchor', index: null }, negated: false, pattern: { kind: 'String', value: '%seo%' } },
            { kind: 'Comparison', field: { kind: 'Field', name: 'is_nofollow', index: null }, operator: '=', value: { kind: 'Boolean', value: true } },
          ],
        },
      ],
    });
  });

  it('gives every node its span', () => {
    const filter = parseFilter("x = 'a'");
    expect(filter.span).toEqual({ offset: 0, length: 7 });
    if (filter.kind !== 'Comparison') throw new Error('expected a comparison');
    expect(filter.value.span).toEqual({ offset: 4, length: 3 });
  });

  it('reports an unknown field with a suggestion', () => {
    const result = safeParseFilter('domain_scor > 50', { operation: 'links' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toMatchObject([{ code: 'unknown_field', offset: 0, length: 11, suggestion: 'domain_score', line: 1, column: 1 }]);
  });

  it('prints canonical text', () => {
    expect(printFilter(parseFilter('a=1 or (b like "x" and c <> 2)'))).toBe("a = 1 OR b LIKE 'x' AND c != 2");
    expect(printFilter(parseFilter('(a=1 or b=2) and c=3'))).toBe('(a = 1 OR b = 2) AND c = 3');
  });
});
