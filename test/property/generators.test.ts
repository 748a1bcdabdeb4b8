/** The arbitraries themselves: shrinking stays valid, pools are honoured, bad operations are refused. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isFilterError, validateFilter, visit, type FilterNode, type FilterVisitor, type Literal } from '../../src/index.js';
import { datasetArbitrary, filterAstArbitrary, filterTextArbitrary, valuePools } from '../../src/testing/index.js';
import { RUNS, seeded } from './support.js';

const count: FilterVisitor<number> = {
  Or: (n) => n.operands.reduce((s, o) => s + visit(count, o), 0),
  And: (n) => n.operands.reduce((s, o) => s + visit(count, o), 0),
  Comparison: () => 1,
  Like: () => 1,
};

const literals: FilterVisitor<(Literal | { kind: 'Pattern'; field: string; value: string })[]> = {
  Or: (n) => n.operands.flatMap((o) => visit(literals, o)),
  And: (n) => n.operands.flatMap((o) => visit(literals, o)),
  Comparison: (n) => [n.value],
  Like: (n) => [{ kind: 'Pattern', field: n.field.name, value: n.pattern.value }],
};

describe('filterAstArbitrary', () => {
  it('shrinks only to valid filters', () => {
    let seen = 0;
    let invalid = 0;
    const result = fc.check(
      fc.property(filterAstArbitrary('matrix', { targets: 2, maxDepth: 5 }), (tree: FilterNode) => {
        seen++;
        if (validateFilter(tree, { operation: 'matrix', targets: 2 }).length > 0) invalid++;
        return visit(count, tree) < 4;
      }),
      { numRuns: RUNS, seed: 42 },
    );
    expect(result.failed).toBe(true);
    expect(result.numShrinks).toBeGreaterThan(0);
    expect(seen).toBeGreaterThan(result.numRuns);
    expect(invalid).toBe(0);
    expect(visit(count, result.counterexample![0])).toBe(4);
  });

  it('keeps within maxConditions and maxDepth', () => {
    fc.assert(
      fc.property(filterAstArbitrary('links', { maxConditions: 5, maxDepth: 8 }), (tree) => {
        expect(visit(count, tree)).toBeLessThanOrEqual(5);
        expect(validateFilter(tree, { operation: 'links', limits: { maxConditions: 5, maxDepth: 8 } })).toEqual([]);
      }),
      seeded(RUNS), // 1,000 by default
    );
  });

  it('draws literals from per-type pools', () => {
    const pools = { string: fc.constant('POOL'), timestamp: fc.constant('1999-12-31T23:59:59'), integer: fc.constant(4242) };
    let fromPool = 0;
    let total = 0;
    fc.assert(
      fc.property(filterAstArbitrary('ref-ips', { pools }), (tree) => {
        expect(validateFilter(tree, { operation: 'ref-ips' })).toEqual([]);
        for (const literal of visit(literals, tree)) {
          total++;
          if (literal.value === 'POOL' || literal.value === 4242 || String(literal.value).startsWith('1999')) fromPool++;
        }
      }),
      seeded(RUNS), // 1,000 by default
    );
    expect(fromPool / total).toBeGreaterThan(0.5);
  });

  it('draws each field’s literals from its own values with valuePools(rows)', () => {
    const [rows] = fc.sample(datasetArbitrary('anchors', { minRows: 5, maxRows: 5 }), { numRuns: 1, seed: 7 });
    const pools = valuePools(rows!);
    const anchors = new Set(pools.fields['anchor'] ?? []);
    let hits = 0;
    fc.assert(
      fc.property(filterAstArbitrary('anchors', { pools }), (tree) => {
        expect(validateFilter(tree, { operation: 'anchors' })).toEqual([]);
        if (visit(literals, tree).some((l) => anchors.has(l.value as string))) hits++;
      }),
      seeded(RUNS), // 1,000 by default
    );
    expect(hits).toBeGreaterThan(RUNS / 10);
  });

  it.each(['overview', 'summary', 'score-profile', 'competitors', 'comparison', 'metrics'])('refuses %s, which takes no filter', (operation) => {
    let error: unknown;
    try {
      filterAstArbitrary(operation);
    } catch (e) {
      error = e;
    }
    expect(isFilterError(error) && error.issues[0]?.code).toBe('filter_not_allowed');
    expect(() => filterTextArbitrary(operation)).toThrow(expect.objectContaining({ name: 'FilterError', issues: [expect.objectContaining({ code: 'filter_not_allowed' })] }));
  });

  it('keeps texts within maxLength', () => {
    fc.assert(
      fc.property(filterTextArbitrary('links', { maxLength: 120 }), (text) => {
        expect(text.length).toBeLessThanOrEqual(120);
      }),
      seeded(RUNS), // 1,000 by default
    );
  });
});
