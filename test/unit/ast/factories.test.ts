import { describe, expect, it } from 'vitest';
import { and, comparison, field, isParameterError, numberLiteral, or } from '../../../src/index.js';

const condition = (n: number) => comparison(field('domain_score'), '=', numberLiteral(n));

describe('and / or factories', () => {
  it('flatten nested groups of the same kind', () => {
    const node = and([and([condition(1), condition(2)]), or([condition(3), condition(4)]), condition(5)]);
    expect(node.kind).toBe('And');
    expect(node.kind === 'And' && node.operands.map((o) => o.kind)).toEqual(['Comparison', 'Comparison', 'Or', 'Comparison']);
  });

  it('flatten a nested group of 300,000 operands without overflowing the stack', () => {
    const big = and(Array.from({ length: 300_000 }, (_, i) => condition(i)));
    const node = and([big, condition(-1)]);
    expect(node.kind === 'And' && node.operands.length).toBe(300_001);
  });

  it('return the single operand itself and refuse an empty group with a ParameterError', () => {
    const one = condition(7);
    expect(or([one])).toBe(one);
    let caught: unknown;
    try {
      and([]);
    } catch (error) {
      caught = error;
    }
    expect(isParameterError(caught)).toBe(true);
  });
});
