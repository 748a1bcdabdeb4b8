import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OPERATION_NAMES, type IssueCode } from '../../src/index.js';
import { invalidFilterArbitrary } from '../../src/testing/index.js';
import { parseWellFormed, RUNS, seeded } from './support.js';

const CASES = OPERATION_NAMES.flatMap<{ operation: string; targets: number | undefined }>((operation) =>
  operation === 'matrix' ? [undefined, 1, 3, 6].map((targets) => ({ operation, targets })) : [{ operation, targets: undefined }],
);

describe.each(CASES)('$operation with $targets targets', ({ operation, targets }) => {
  it('raises the code each invalid text is labelled with', () => {
    fc.assert(
      fc.property(invalidFilterArbitrary(operation, { targets }), ({ text, code }) => {
        const result = parseWellFormed(text, { operation, targets });
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.issues.map((i) => i.code)).toContain(code);
      }),
      seeded(RUNS), // 1,000 labelled invalid texts by default
    );
  });
});

describe('invalidFilterArbitrary', () => {
  /** The labels a sample of the operation's cases carries, so a generator cannot silently vanish. */
  const labels = (operation: string, targets?: number) =>
    [...new Set(fc.sample(invalidFilterArbitrary(operation, { targets }), { numRuns: RUNS, seed: 1 }).map((c) => c.code))].sort();

  it('covers every code an operation can raise', () => {
    const syntax: IssueCode[] = ['empty_filter', 'too_long', 'too_deep', 'too_many_conditions', 'unexpected_character', 'unterminated_string', 'invalid_escape', 'invalid_number', 'number_out_of_range', 'unexpected_token', 'unexpected_end'];
    const fields: IssueCode[] = ['unknown_field', 'operator_not_allowed', 'literal_type_mismatch', 'index_not_allowed'];
    expect(labels('links')).toEqual([...syntax, ...fields, 'invalid_timestamp'].sort());
    expect(labels('matrix', 3)).toEqual([...syntax, ...fields, 'index_required', 'index_out_of_range'].sort());
    expect(labels('overview')).toEqual([...syntax, 'filter_not_allowed'].sort());
  });

  it('honours codes and limits', () => {
    fc.assert(
      fc.property(invalidFilterArbitrary('anchors', { codes: ['too_many_conditions', 'too_long'], limits: { maxConditions: 3, maxLength: 200 } }), ({ text, code }) => {
        const result = parseWellFormed(text, { operation: 'anchors', limits: { maxConditions: 3, maxLength: 200 } });
        expect(['too_many_conditions', 'too_long']).toContain(code);
        expect(!result.ok && result.issues.some((i) => i.code === code)).toBe(true);
      }),
      seeded(RUNS), // 1,000 labelled invalid texts by default
    );
    expect(() => invalidFilterArbitrary('links', { codes: ['too_deep'], limits: { maxDepth: Infinity } })).toThrow(RangeError);
  });
});
