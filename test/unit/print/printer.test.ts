/**
 * The canonical printer: numbers, strings, and trees built in code.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  and,
  booleanLiteral,
  comparison,
  field,
  isParameterError,
  like,
  nodesEqual,
  numberLiteral,
  or,
  parseFilter,
  printFilter,
  printNumber,
  printString,
  stringLiteral,
  type FilterNode,
} from '../../../src/index.js';

describe('printNumber', () => {
  it.each([
    [0, '0'],
    [-0, '0'],
    [5, '5'],
    [-5, '-5'],
    [0.5, '0.5'],
    [1e-7, '0.0000001'],
    [-1.5e-7, '-0.00000015'],
    [1.23e-20, '0.0000000000000000000123'],
    [1e21, '1000000000000000000000'],
    [1.5e21, '1500000000000000000000'],
    [123e20, '12300000000000000000000'],
    [2 ** 53 - 1, '9007199254740991'],
    [-(2 ** 53 - 1), '-9007199254740991'],
    [0.1 + 0.2, '0.30000000000000004'],
    [123456789.12345679, '123456789.12345679'],
    [Number.EPSILON, '0.0000000000000002220446049250313'],
    [1 / 3, '0.3333333333333333'],
  ])('%d prints as %s', (value, text) => {
    expect(printNumber(value)).toBe(text);
  });

  it('prints the smallest and largest doubles without an exponent', () => {
    const tiny = printNumber(Number.MIN_VALUE);
    expect(tiny).toBe(`0.${'0'.repeat(323)}5`);
    const huge = printNumber(Number.MAX_VALUE);
    expect(huge).toMatch(/^179769313486231570{292}$/);
    expect(Number(tiny)).toBe(Number.MIN_VALUE);
    expect(Number(huge)).toBe(Number.MAX_VALUE);
  });

  it('reads back to the same double, never with an exponent, in the shortest form', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const text = printNumber(value);
        expect(text).toMatch(/^-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/);
        expect(Number(text)).toBe(value === 0 ? 0 : value);
        // As short as JavaScript's own shortest form: same significant digits.
        const digits = (s: string) => s.replace(/^-/, '').replace(/e.*$/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
        expect(digits(text)).toBe(digits(String(Math.abs(value))));
      }),
      { numRuns: 2000, seed: 53 },
    );
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])('refuses %d with a ParameterError', (value) => {
    let thrown: unknown;
    try {
      printNumber(value);
    } catch (error) {
      thrown = error;
    }
    expect(isParameterError(thrown)).toBe(true);
  });
});

describe('printString', () => {
  it.each([
    ['', "''"],
    ['abc', "'abc'"],
    ["it's", "'it\\'s'"],
    ['say "hi"', `'say "hi"'`],
    ['C:\\dir\\', "'C:\\\\dir\\\\'"],
    ["\\'", "'\\\\\\''"],
    ['line\r\nbreak\ttab', "'line\r\nbreak\ttab'"],
    ['😀 é \u0000', "'😀 é \u0000'"],
  ])('%j prints as %s', (value, text) => {
    expect(printString(value)).toBe(text);
    const parsed = parseFilter(`a = ${text}`);
    expect(parsed.kind === 'Comparison' && parsed.value.kind === 'String' && parsed.value.value).toBe(value);
  });
});

describe('printFilter', () => {
  const a = comparison(field('a'), '=', numberLiteral(1));
  const b = like(field('b'), stringLiteral('%x%'), true);
  const c = comparison(field('c', 2), '!=', booleanLiteral(false));

  it.each([
    [and([a, b]), "a = 1 AND b NOT LIKE '%x%'"],
    [or([a, and([b, c])]), "a = 1 OR b NOT LIKE '%x%' AND c[2] != false"],
    [and([or([a, b]), c]), "(a = 1 OR b NOT LIKE '%x%') AND c[2] != false"],
    [and([a, and([b, c])]), "a = 1 AND b NOT LIKE '%x%' AND c[2] != false"],
    [or([or([a, b]), or([c, a])]), "a = 1 OR b NOT LIKE '%x%' OR c[2] != false OR a = 1"],
    [and([a]), 'a = 1'],
    [comparison(field('a'), '<', numberLiteral(-0)), 'a < 0'],
  ])('prints %j', (node, text) => {
    expect(printFilter(node)).toBe(text);
    expect(nodesEqual(parseFilter(text), node)).toBe(true);
  });

  it('needs parentheses only for an OR inside an AND, at every depth', () => {
    const node = and([a, or([b, and([c, or([a, b])])])]);
    expect(printFilter(node)).toBe("a = 1 AND (b NOT LIKE '%x%' OR c[2] != false AND (a = 1 OR b NOT LIKE '%x%'))");
    expect(nodesEqual(parseFilter(printFilter(node)), node)).toBe(true);
  });
});

describe('printFilter robustness', () => {
  it('prints a tree 20,000 groups deep without a stack overflow', () => {
    let node: FilterNode = comparison(field('a'), '=', numberLiteral(0));
    for (let i = 1; i <= 20_000; i++) {
      const next = comparison(field('a'), '=', numberLiteral(i));
      node = i % 2 === 0 ? and([node, next]) : or([node, next]);
    }
    const text = printFilter(node);
    expect(text.startsWith('('.repeat(10_000))).toBe(true);
    expect(text.endsWith('a = 20000')).toBe(true);
  });

  it.each([null, 5, {}, { kind: 'Like', field: field('a'), negated: false, pattern: numberLiteral(1), span: { offset: 0, length: 0 } }])(
    'refuses %j with a ParameterError',
    (node) => {
      let thrown: unknown;
      try {
        printFilter(node as never);
      } catch (error) {
        thrown = error;
      }
      expect(isParameterError(thrown)).toBe(true);
    },
  );
});
