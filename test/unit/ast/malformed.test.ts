/**
 * An AST no parser produces raises the same typed error from every consumer of the AST: the
 * printer, the validator, the evaluator and each SQL dialect (the "one error
 * hierarchy"): a ParameterError naming `filter` with the rule `invalid_value`, never a TypeError.
 */
import { describe, expect, it } from 'vitest';
import { booleanLiteral, comparison, field, numberLiteral, stringLiteral } from '../../../src/ast/factories.js';
import type { FilterNode } from '../../../src/ast/nodes.js';
import { ParameterError } from '../../../src/errors/filter-error.js';
import { compilePredicate } from '../../../src/evaluate/compile-predicate.js';
import { printFilter } from '../../../src/print/printer.js';
import { toSql } from '../../../src/sql/to-sql.js';
import { validateFilter } from '../../../src/validate/validate.js';

const DIALECTS = ['sqlite', 'postgres', 'mysql', 'duckdb'] as const;

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

const expectMalformed = (error: unknown, label: string) => {
  expect(error, label).toBeInstanceOf(ParameterError);
  expect((error as ParameterError).parameter, label).toBe('filter');
  expect((error as ParameterError).code, label).toBe('invalid_value');
};

describe('a malformed AST', () => {
  it('an object that is no node: the same error from print, validate, evaluate and every dialect', () => {
    const nope = { kind: 'Nope' } as unknown as FilterNode;
    expectMalformed(thrown(() => printFilter(nope)), 'printFilter');
    expectMalformed(thrown(() => validateFilter(nope, { operation: 'links' })), 'validateFilter');
    expectMalformed(thrown(() => compilePredicate(nope)), 'compilePredicate');
    for (const dialect of DIALECTS) expectMalformed(thrown(() => toSql(nope, { dialect })), `toSql ${dialect}`);
  });

  it.each([
    ['an order comparison on a boolean', comparison(field('is_new'), '<', booleanLiteral(true))],
    ['an index below 1', comparison(field('backlinks_counts', 0), '=', numberLiteral(1))],
    ['a number that is not finite', comparison(field('page_score'), '>', { kind: 'Number', value: Number.NaN, span: { offset: 0, length: 0 } } as never)],
    ['an unknown operator', { ...comparison(field('anchor'), '=', stringLiteral('a')), operator: '~' } as unknown as FilterNode],
  ])('%s: the same error from evaluate and every dialect', (_label, node) => {
    expectMalformed(thrown(() => compilePredicate(node as FilterNode)), 'compilePredicate');
    for (const dialect of DIALECTS) expectMalformed(thrown(() => toSql(node as FilterNode, { dialect })), `toSql ${dialect}`);
  });
});
