/**
 * validateFilter on ASTs built in code (the builder's path), where the text's guarantees do not
 * hold: odd indexes and numbers, foreign objects, deep and wide trees.
 */
import { describe, expect, it } from 'vitest';
import {
  and,
  booleanLiteral,
  checkTargetOptions,
  comparison,
  field,
  isParameterError,
  like,
  numberLiteral,
  or,
  parseFilter,
  stringLiteral,
  validateFilter,
  type FilterNode,
} from '../../../src/index.js';

const codes = (node: FilterNode, operation = 'links', targets?: number) =>
  validateFilter(node, { operation, ...(targets === undefined ? {} : { targets }) }).map((i) => i.code);

const count = (n: number) => comparison(field('backlinks_counts', n), '>', numberLiteral(1));

describe('validateFilter on built ASTs', () => {
  it('accepts what the parser would accept', () => {
    const node = and([comparison(field('domain_score'), '>', numberLiteral(50)), or([like(field('anchor'), stringLiteral('%seo%')), comparison(field('is_nofollow'), '=', booleanLiteral(true))])]);
    expect(codes(node)).toEqual([]);
  });

  it.each([
    [1, 2, []],
    [2, 2, []],
    [3, 2, ['index_out_of_range']],
    [0, undefined, ['index_out_of_range']],
    [6, undefined, []],
    [7, undefined, ['index_out_of_range']],
    [1.5, undefined, ['index_out_of_range']],
    [Number.NaN, undefined, ['index_out_of_range']],
    [Number.POSITIVE_INFINITY, undefined, ['index_out_of_range']],
    [-1, undefined, ['index_out_of_range']],
  ])('backlinks_counts[%d] with targets %s', (index, targets, expected) => {
    expect(codes(count(index), 'matrix', targets)).toEqual(expected);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 2 ** 53, -(2 ** 53), 1e300])(
    'reports the number %d that no text could hold',
    (value) => {
      expect(codes(comparison(field('domain_score'), '=', numberLiteral(value)))).toEqual(['number_out_of_range']);
    },
  );

  it('accepts 2^53 - 1 and tiny decimals', () => {
    expect(codes(comparison(field('domain_score'), '<', numberLiteral(2 ** 53 - 1)))).toEqual([]);
    expect(codes(comparison(field('domain_score'), '>', numberLiteral(5e-324)))).toEqual([]);
  });

  it('reports filter_not_allowed once for an operation without a filter', () => {
    expect(codes(and([count(1), count(2)]), 'overview')).toEqual(['filter_not_allowed']);
  });

  it('reports too_many_conditions and too_deep on built trees', () => {
    const wide = or(Array.from({ length: 101 }, () => comparison(field('domain_score'), '=', numberLiteral(1))));
    expect(codes(wide)).toEqual(['too_many_conditions']);
    let deep: FilterNode = comparison(field('domain_score'), '=', numberLiteral(1));
    for (let i = 0; i < 100; i++) deep = i % 2 === 0 ? or([deep, deep]) : and([deep, comparison(field('anchor'), '=', stringLiteral('x'))]);
    expect(validateFilter(deep, { operation: 'links', limits: { maxConditions: Number.POSITIVE_INFINITY } }).map((i) => i.code)).toEqual(['too_deep']);
  });

  it('gives line and column when the text is passed along', () => {
    const text = 'anchor = 1 AND\r\n  domain_scor > 5';
    const node = parseFilter(text);
    const issues = validateFilter(node, { operation: 'links', text });
    expect(issues.map((i) => [i.code, i.line, i.column])).toEqual([
      ['literal_type_mismatch', 1, 10],
      ['unknown_field', 2, 3],
    ]);
  });

  it.each([
    null,
    undefined,
    42,
    'a = 1',
    {},
    { kind: 'And', operands: [], span: { offset: 0, length: 0 } },
    { kind: 'Not', span: { offset: 0, length: 0 } },
    { kind: 'Comparison', field: { kind: 'Field', name: 'a', index: null, span: { offset: 0, length: 0 } }, operator: '==', value: numberLiteral(1), span: { offset: 0, length: 0 } },
    { kind: 'Like', field: field('anchor'), negated: false, pattern: numberLiteral(1), span: { offset: 0, length: 0 } },
    { kind: 'Comparison', field: 'anchor', operator: '=', value: stringLiteral('x'), span: { offset: 0, length: 0 } },
    and([count(1), { kind: 'Like' } as unknown as FilterNode]),
  ])('refuses %j with a ParameterError, not a TypeError', (node) => {
    let thrown: unknown;
    try {
      validateFilter(node as FilterNode, { operation: 'matrix' });
    } catch (error) {
      thrown = error;
    }
    expect(isParameterError(thrown)).toBe(true);
    expect(thrown).toMatchObject({ parameter: 'filter', code: 'invalid_value' });
  });
});

describe('checkTargetOptions', () => {
  it('returns the operation name', () => {
    expect(checkTargetOptions('matrix', 6)).toBe('matrix');
    expect(checkTargetOptions('links')).toBe('links');
  });

  it.each([
    ['linkz', undefined, 'operation', /did you mean links/],
    ['matrix', 0, 'targets', /1 to 6/],
    ['matrix', 7, 'targets', /1 to 6/],
    ['matrix', 2.5, 'targets', /1 to 6/],
  ])('refuses %s with targets %s', (operation, targets, parameter, message) => {
    expect(() => checkTargetOptions(operation, targets)).toThrow(message);
    try {
      checkTargetOptions(operation, targets);
    } catch (error) {
      expect(error).toMatchObject({ parameter });
    }
  });
});
