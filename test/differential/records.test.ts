/**
 * The record arbitraries keep the promises the differential suite relies on: rows in the
 * catalogue's key order with every field of its type, matrix counts of the requested length with
 * a consistent matches_count, valid timestamps, NUL-free well-formed text, integers in range, and
 * datasets whose rows share values.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { operations } from '../../src/catalogue/operations.js';
import type { FieldType } from '../../src/catalogue/records.js';
import { datasetArbitrary, recordArbitrary, valuePools } from '../../src/testing/records.js';
import { FILTERABLE } from './define-suite.js';

const TIMESTAMP = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;

function checkValue(type: FieldType, value: unknown): void {
  if (type === 'string' || type === 'timestamp') {
    expect(typeof value).toBe('string');
    expect(value as string).not.toMatch(/\u0000|\p{Cs}/u);
    if (type === 'timestamp') expect(value).toMatch(TIMESTAMP);
  } else if (type === 'integer') {
    expect(Number.isSafeInteger(value) && (value as number) >= 0).toBe(true);
  } else if (type === 'number') {
    expect(Number.isFinite(value)).toBe(true);
  } else if (type === 'boolean') {
    expect(typeof value).toBe('boolean');
  }
}

describe.each(FILTERABLE.map((op) => [op] as const))('recordArbitrary(%s)', (operation) => {
  const record = operations[operation].record as Readonly<Record<string, { readonly type: FieldType }>>;

  it('fills every field with a value of its type, in key order', () => {
    fc.assert(
      fc.property(recordArbitrary(operation, { targets: 4 }), (row) => {
        expect(Object.keys(row)).toEqual(Object.keys(record));
        for (const [name, { type }] of Object.entries(record)) if (type !== 'integer[]') checkValue(type, row[name as keyof typeof row]);
      }),
      { numRuns: 200 },
    );
  });
});

describe('matrix rows', () => {
  it.each([1, 2, 3, 4, 5, 6])('carry %i counts and matches_count = the number of non-zero counts', (targets) => {
    fc.assert(
      fc.property(recordArbitrary('matrix', { targets }), (row) => {
        expect(row.backlinks_counts).toHaveLength(targets);
        for (const n of row.backlinks_counts) expect(Number.isSafeInteger(n) && n >= 0).toBe(true);
        expect(row.matches_count).toBe(row.backlinks_counts.filter((n) => n > 0).length);
      }),
      { numRuns: 100 },
    );
  });

  it('refuses a number of targets outside 1-6', () => {
    expect(() => recordArbitrary('matrix', { targets: 7 })).toThrow(RangeError);
    expect(() => datasetArbitrary('matrix', { targets: 0 })).toThrow(RangeError);
  });

  it('share one number of targets within a dataset', () => {
    fc.assert(
      fc.property(datasetArbitrary('matrix', { minRows: 2, maxRows: 10 }), (rows) => {
        expect(new Set(rows.map((row) => row.backlinks_counts.length)).size).toBe(1);
      }),
    );
  });
});

describe('datasetArbitrary', () => {
  it('respects minRows and maxRows', () => {
    fc.assert(
      fc.property(datasetArbitrary('anchors', { minRows: 3, maxRows: 7 }), (rows) => {
        expect(rows.length).toBeGreaterThanOrEqual(3);
        expect(rows.length).toBeLessThanOrEqual(7);
      }),
    );
  });

  it('gives rows that share text, so filters meet equal values and near misses', () => {
    const shared = fc.sample(datasetArbitrary('ref-domains', { minRows: 20, maxRows: 20 }), { numRuns: 50, seed: 1 }).filter((rows) => {
      const pools = valuePools(rows);
      const texts = rows.flatMap((row) => [row.domain, row.ip_address, row.country]);
      return new Set(texts).size < texts.length && pools.strings.length > 1;
    });
    expect(shared.length).toBeGreaterThan(40);
  });
});

describe('valuePools', () => {
  it('lists distinct values per field, array elements included', () => {
    const pools = valuePools([
      { domain: 'a', domain_score: 5, backlinks_counts: [0, 7], is_new: true },
      { domain: 'a', domain_score: 6, backlinks_counts: [7, 1], is_new: false },
    ]);
    expect(pools.fields).toEqual({ domain: ['a'], domain_score: [5, 6], backlinks_counts: [0, 7, 1], is_new: [true, false] });
    expect(pools.strings).toEqual(['a']);
    expect(pools.numbers).toEqual([5, 0, 7, 6, 1]);
  });
});
