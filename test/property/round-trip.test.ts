import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nodesEqual, parseFilter, printFilter, validateFilter } from '../../src/index.js';
import { filterAstArbitrary, filterCaseArbitrary } from '../../src/testing/index.js';
import { RUNS, seeded, TARGETED } from './support.js';

describe.each(TARGETED)('$operation with $targets targets', ({ operation, targets }) => {
  const options = { operation, targets };

  it('gives back the same AST when the printed text is parsed', () => {
    fc.assert(
      fc.property(filterAstArbitrary(operation, { targets }), (tree) => {
        expect(nodesEqual(parseFilter(printFilter(tree), options), tree)).toBe(true);
      }),
      seeded(RUNS), // 1,000 filters by default
    );
  });

  it('prints idempotently: the canonical text of the canonical text is itself', () => {
    fc.assert(
      fc.property(filterAstArbitrary(operation, { targets }), (tree) => {
        const text = printFilter(tree);
        expect(printFilter(parseFilter(text, options))).toBe(text);
      }),
      seeded(RUNS), // 1,000 filters by default
    );
  });

  it('parses texts written in any style to the AST they were written from', () => {
    fc.assert(
      fc.property(filterCaseArbitrary(operation, { targets }), ({ text, ast }) => {
        const parsed = parseFilter(text, options);
        expect(nodesEqual(parsed, ast)).toBe(true);
        expect(printFilter(parsed)).toBe(printFilter(ast));
      }),
      seeded(RUNS), // 1,000 filters by default
    );
  });

  it('generates only ASTs that validate for the operation', () => {
    fc.assert(
      fc.property(filterAstArbitrary(operation, { targets, maxDepth: 6 }), (tree) => {
        expect(validateFilter(tree, options)).toEqual([]);
      }),
      seeded(RUNS), // 1,000 filters by default
    );
  });
});
