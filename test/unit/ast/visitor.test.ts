import { describe, expect, it } from 'vitest';
import { and, comparison, field, like, numberLiteral, or, stringLiteral } from '../../../src/index.js';
import { fieldNames } from '../../../src/ast/visitor.js';

describe('fieldNames', () => {
  it('a condition: its one field', () => {
    expect(fieldNames(comparison(field('domain_score'), '>', numberLiteral(5)))).toEqual(['domain_score']);
    expect(fieldNames(like(field('anchor'), stringLiteral('%seo%'), true))).toEqual(['anchor']);
  });

  it('groups at any depth: each field once, in the order it first appears; an indexed field by its name', () => {
    const filter = or([
      and([comparison(field('domain_score'), '>', numberLiteral(5)), like(field('anchor'), stringLiteral('a%'))]),
      and([comparison(field('backlinks_counts', 2), '>', numberLiteral(0)), or([comparison(field('domain_score'), '<', numberLiteral(1)), like(field('source_url'), stringLiteral('%x'))])]),
      like(field('anchor'), stringLiteral('%b')),
    ]);
    expect(fieldNames(filter)).toEqual(['domain_score', 'anchor', 'backlinks_counts', 'source_url']);
  });
});
