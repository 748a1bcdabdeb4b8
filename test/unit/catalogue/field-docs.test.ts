/**
 * The fields' meanings, kept apart from the records the client loads first: every field of every
 * operation's record has one, read by record. Expected sentences are copied by hand from the
 * interface's field tables (the ones the catalogue was written from).
 */
import { describe, expect, it } from 'vitest';
import { fieldDoc, operations, OPERATION_NAMES } from '../../../src/index.js';

describe('fieldDoc', () => {
  it('gives the meaning of a field of an operation', () => {
    expect(fieldDoc(operations.links.record, 'anchor')).toBe('Anchor text');
    expect(fieldDoc(operations.overview.record, 'backlinks_count')).toBe('Number of backlinks');
    expect(fieldDoc(operations.matrix.record, 'country')).toBe('Two-letter country code');
  });

  it('has a sentence (or phrase) for every field of every operation, and nothing for other names', () => {
    for (const operation of OPERATION_NAMES) {
      const { record } = operations[operation];
      for (const field of Object.keys(record)) expect(fieldDoc(record, field), `${operation}.${field}`).toMatch(/^\S.{4,}/);
      expect(fieldDoc(record, 'no_such_field')).toBeUndefined();
      expect(fieldDoc(record, 'toString')).toBeUndefined();
    }
  });
});
