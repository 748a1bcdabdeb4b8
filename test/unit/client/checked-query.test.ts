/**
 * The client keeps the parameters of each call it checked (local validation), and the filter sent
 * last with them, so that the same call again is looked up rather than checked again. What is kept
 * must never answer a call the rules would answer otherwise: each test below makes a call that
 * passes, then one that differs in a way a careless key would miss, and expects the rules' own
 * answer. The filter encoder is a spy: a filter looked up does not reach it.
 */
import { describe, expect, it } from 'vitest';
import { operations, type OperationName } from '../../../src/catalogue/operations.js';
import type { FilterEncoder } from '../../../src/client/filter-param.js';
import { checkedQuery } from '../../../src/client/params.js';
import { isParameterError } from '../../../src/errors/filter-error.js';

// A fixed clock: the current month is 2026-11.
const NOW = Date.UTC(2026, 10, 22, 12);
const DECEMBER = Date.UTC(2026, 11, 2);

/** An encoder that sends filter text as written and counts the filters it was asked for. */
function spy(): FilterEncoder & { calls: number } {
  const encode = Object.assign(
    (_operation: OperationName, value: unknown) => {
      encode.calls++;
      return value as string;
    },
    { calls: 0 },
  );
  return encode;
}

/** The rule a call breaks, or its query text. */
function answer(operation: OperationName, params: Record<string, unknown>, encode: FilterEncoder = spy(), now = NOW): string {
  try {
    return checkedQuery(operation, params, now, encode);
  } catch (error) {
    if (!isParameterError(error)) throw error;
    return `${error.parameter}: ${error.code}`;
  }
}

// Each test has its own target, so that no test finds what another one kept.
let sites = 0;
const site = () => ({ url: `site${++sites}.example.com`, scope: 'ROOT_DOMAIN' });

describe('checkedQuery', () => {
  it('answers the same call again without checking it again', () => {
    const encode = spy();
    const params = { ...site(), fields: ['anchor', 'domain_score'], filter: 'domain_score > 5', limit: 10 };
    const first = answer('links', params, encode);
    expect(first).toBe(`url=${params.url}&scope=ROOT_DOMAIN&fields=anchor%2Cdomain_score&limit=10&filter=domain_score+%3E+5`);
    expect(answer('links', { ...params, fields: [...params.fields] }, encode)).toBe(first);
    expect(encode.calls).toBe(1);
  });

  it('checks a new filter alone, and sends it in its place among the parameters', () => {
    const encode = spy();
    const params = { ...site(), limit: 10 };
    expect(answer('links', { ...params, filter: 'a' }, encode)).toMatch(/&limit=10&filter=a$/);
    expect(answer('links', { ...params, filter: 'b' }, encode)).toMatch(/&limit=10&filter=b$/);
    expect(answer('links', { ...params, filter: 'b' }, encode)).toMatch(/&limit=10&filter=b$/);
    expect(encode.calls).toBe(2);
    // Left out, null, empty: no filter, as the rules read it.
    for (const filter of [undefined, null, '']) expect(answer('links', { ...params, filter }, encode)).toMatch(/&limit=10$/);
    // matrix takes its filter before its format.
    const matrix = { urls: ['a.com', 'b.com'], scope: 'PAGE', format: 'json' };
    expect(answer('matrix', { ...matrix, filter: 'x' })).toBe('urls=a.com%2Cb.com&scope=PAGE&filter=x&format=json');
  });

  it('refuses a filter where the operation takes none, however often its other parameters passed', () => {
    const keyword = { keyword: `shoes ${++sites}`, country: 'US' };
    expect(answer('metrics', keyword)).toContain('keyword=');
    expect(answer('metrics', { ...keyword, filter: 'x' })).toBe('filter: unknown_parameter');
  });

  it('tells a number from the same digits in text', () => {
    const params = site();
    expect(answer('links', { ...params, limit: 10 })).toContain('limit=10');
    expect(answer('links', { ...params, limit: '10' })).toBe('limit: invalid_type');
  });

  it('tells list items apart however they would run together', () => {
    const params = site();
    expect(answer('links', { ...params, fields: ['anchor', 'domain_score'] })).toContain('fields=anchor%2Cdomain_score');
    expect(answer('links', { ...params, fields: ['anchor,domain_score'] })).toBe('fields: invalid_value');
    expect(answer('links', { ...params, fields: ['anchor', 'domain_score', ''] })).toBe('fields: empty_item');
    expect(answer('links', { ...params, fields: 'anchor,domain_score' })).toBe('fields: invalid_type');
  });

  it('tells absent values apart where the rules do', () => {
    const params = site();
    const plain = answer('links', params);
    for (const fields of [undefined, null, '', []]) expect(answer('links', { ...params, fields })).toBe(plain);
    expect(answer('links', { ...params, extra: undefined })).toBe(plain);
    expect(answer('links', { ...params, extra: null })).toBe('extra: unknown_parameter');
    expect(answer('links', { ...params, extra: '' })).toBe('extra: unknown_parameter');
  });

  it('relies on parameter names without `;` or `=` (the keys of calls kept run them together)', () => {
    const names = Object.values(operations).flatMap((spec) => Object.keys(spec.params));
    for (const name of names) expect(name).toMatch(/^[a-z_]+$/);
  });

  it('sees a list changed in place between calls', () => {
    const fields = ['anchor'];
    const params = { ...site(), fields };
    expect(answer('links', params)).toContain('fields=anchor');
    fields.push('nope');
    expect(answer('links', params)).toBe('fields: unknown_field');
  });

  it('keeps no mistake: it is found again every time', () => {
    const params = { ...site(), limit: 0 };
    expect(answer('links', params)).toBe('limit: too_small');
    expect(answer('links', params)).toBe('limit: too_small');
  });

  it('reads a value inherited from a prototype as the rules do', () => {
    const params = site();
    expect(answer('links', params)).not.toContain('limit');
    expect(answer('links', Object.assign(Object.create({ limit: 0 }) as object, params))).toBe('limit: too_small');
  });

  it('checks a filter that is not text (an AST, a builder result) every time', () => {
    const encode = spy();
    const params = { ...site(), filter: { toAst: () => ({ kind: 'Comparison' }) } };
    answer('links', params, encode);
    answer('links', params, encode);
    expect(encode.calls).toBe(2);
  });

  it('follows the month: a month that was current is too late when the clock goes back', () => {
    const keyword = { keyword: `shoes ${++sites}`, country: 'US' };
    expect(answer('metrics', { ...keyword, month: '2026-12' }, spy(), DECEMBER)).toContain('month=2026-12');
    expect(answer('metrics', { ...keyword, month: '2026-12' }, spy(), NOW)).toBe('month: too_late');
    expect(answer('metrics', { ...keyword, month: '2026-12' }, spy(), DECEMBER)).toContain('month=2026-12');
  });
});
