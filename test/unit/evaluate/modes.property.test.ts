import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { and, booleanLiteral, comparison, field, like, numberLiteral, or, stringLiteral } from '../../../src/ast/factories.js';
import { COMPARISON_OPERATORS, type FilterNode } from '../../../src/ast/nodes.js';
import { compilePredicate, type Row } from '../../../src/evaluate/index.js';
import { seeded } from '../../property/support.js';

const text = fc
  .array(fc.constantFrom('a', 'A', 'b', ' ', '_', '%', "'", '\\', 'é', '\uE000', '\uFFFF', '😀', '\u{10FFFF}'), { maxLength: 5 })
  .map((parts) => parts.join(''));
const value = text.map((t) => t.replaceAll('%', ''));
const number = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom(2.5, -0.5, 9007199254740991, -9007199254740991));
const operator = fc.constantFrom(...COMPARISON_OPERATORS);

const condition: fc.Arbitrary<FilterNode> = fc.oneof(
  fc.tuple(fc.constantFrom('s', 't'), operator, value).map(([f, op, v]) => comparison(field(f), op, stringLiteral(v))),
  fc.tuple(fc.constantFrom('s', 't'), text, fc.boolean()).map(([f, p, negated]) => like(field(f), stringLiteral(p), negated)),
  fc.tuple(operator, number).map(([op, v]) => comparison(field('n'), op, numberLiteral(v))),
  fc.tuple(fc.integer({ min: 1, max: 3 }), operator, number).map(([i, op, v]) => comparison(field('counts', i), op, numberLiteral(v))),
  fc.tuple(fc.constantFrom('=', '!=' as const), fc.boolean()).map(([op, v]) => comparison(field('b'), op, booleanLiteral(v))),
);
const filter = fc.letrec<{ node: FilterNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    condition,
    fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((operands) => and(operands)),
    fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((operands) => or(operands)),
  ),
})).node;
const row: fc.Arbitrary<Row> = fc.record({
  s: value,
  t: value,
  n: number,
  b: fc.boolean(),
  counts: fc.array(number, { minLength: 3, maxLength: 3 }),
});

/** A deliberately naive interpreter, written from the spec's "Meaning" and nothing else. */
function reference(node: FilterNode, r: Row): boolean {
  if (node.kind === 'And') return node.operands.every((o) => reference(o, r));
  if (node.kind === 'Or') return node.operands.some((o) => reference(o, r));
  const raw = r[node.field.name];
  const actual = node.field.index === null ? raw : (raw as unknown[])[node.field.index - 1];
  if (node.kind === 'Like') {
    const source = Array.from(node.pattern.value, (c) => (c === '%' ? '.*' : `\\u{${c.codePointAt(0)!.toString(16)}}`)).join('');
    return new RegExp(`^${source}$`, 'su').test(actual as string) !== node.negated;
  }
  const expected = node.value.value;
  const codePoints = (t: string): number[] => Array.from(t, (c) => c.codePointAt(0)!);
  const order =
    typeof expected === 'string'
      ? Math.sign(compareArrays(codePoints(actual as string), codePoints(expected)))
      : actual === expected
        ? 0
        : (actual as number) < (expected as number)
          ? -1
          : 1;
  return { '=': order === 0, '!=': order !== 0, '<': order < 0, '<=': order <= 0, '>': order > 0, '>=': order >= 0 }[node.operator];
}

function compareArrays(x: number[], y: number[]): number {
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

describe('evaluator modes', () => {
  it('code and closure modes agree with each other and with a naive reference (1,000 seeded filters, up to 8 rows each)', () => {
    fc.assert(
      fc.property(filter, fc.array(row, { minLength: 1, maxLength: 8 }), (f, rows) => {
        const code = compilePredicate(f, { mode: 'code' });
        const closure = compilePredicate(f, { mode: 'closure' });
        for (const r of rows) {
          const expected = reference(f, r);
          expect(code(r)).toBe(expected);
          expect(closure(r)).toBe(expected);
        }
      }),
      seeded(1000),
    );
  });
});
