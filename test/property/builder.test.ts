import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nodesEqual, parseFilter, type Condition, type FilterNode } from '../../src/index.js';
import { filterFor, type DynamicFilterBuilder, type Filter } from '../../src/builder/index.js';
import { filterAstArbitrary } from '../../src/testing/index.js';
import { RUNS, seeded, TARGETED } from './support.js';

/** Rebuilds an AST through the builder's public methods, choosing among equivalent spellings. */
function rebuild(node: FilterNode, f: DynamicFilterBuilder, style: number): Filter<string> {
  if (node.kind === 'And' || node.kind === 'Or') {
    const parts = node.operands.map((o, i) => rebuild(o, f, style + i));
    if (style % 3 === 0) return node.kind === 'And' ? f.all(parts) : f.any(parts);
    if (style % 3 === 1) return node.kind === 'And' ? f.and(parts[0]!, ...parts.slice(1)) : f.or(parts[0]!, ...parts.slice(1));
    const [first, ...rest] = parts;
    return node.kind === 'And' ? first!.and(...rest) : first!.or(...rest);
  }
  return condition(node, f, style);
}

function condition(node: Condition, f: DynamicFilterBuilder, style: number): Filter<string> {
  const name = node.field.index === null ? node.field.name : `${node.field.name}[${node.field.index}]`;
  if (node.kind === 'Like') {
    if (style % 2 === 0) return node.negated ? f.notLike(name, node.pattern.value) : f.like(name, node.pattern.value);
    return f.where(name, node.negated ? 'NOT LIKE' : 'LIKE', node.pattern.value);
  }
  const operator = node.operator === '!=' && style % 2 === 0 ? '<>' : node.operator;
  return f.where(name, operator, node.value.value);
}

describe.each(TARGETED)('builder for $operation with $targets targets', ({ operation, targets }) => {
  const f = filterFor(operation as string, { targets });

  it('builds the same AST, which parses back from its text', () => {
    fc.assert(
      fc.property(filterAstArbitrary(operation, { targets }), fc.nat(), (tree, style) => {
        const built = rebuild(tree, f, style);
        const node = built.toAst();
        expect(nodesEqual(node, tree)).toBe(true);
        expect(Object.isFrozen(node)).toBe(true);
        // The text itself is checked against hand-written canonical text in
        // test/unit/builder/filter-builder.test.ts; here it must parse back to the same tree.
        expect(nodesEqual(parseFilter(built.toString(), { operation, targets }), node)).toBe(true);
      }),
      seeded(RUNS), // 1,000 by default
    );
  });
});

/** Any UTF-16 units, lone surrogates included. */
const utf16 = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)) });

describe('builder strings', () => {
  it('round-trips any string value, quotes and backslashes included', () => {
    const f = filterFor('links');
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("'", '"', '\\', '%', 'a', ' ', '\n', '😀') }), fc.string({ unit: 'binary' }), utf16, (tricky, any, units) => {
        for (const value of [tricky, any, units]) {
          const text = f.where('anchor', '=', value).or(f.like('source_url', value)).toString();
          const parsed = parseFilter(text, { operation: 'links' });
          expect(nodesEqual(parsed, f.where('anchor', '=', value).or(f.like('source_url', value)).toAst())).toBe(true);
        }
      }),
      seeded(RUNS), // 1,000 by default
    );
  });
});
