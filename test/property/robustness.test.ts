import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nodesEqual, OPERATION_NAMES, parseFilter, printFilter, validateFilter } from '../../src/index.js';
import { filterTextArbitrary } from '../../src/testing/index.js';
import { FILTERABLE, parseWellFormed, RUNS, seeded } from './support.js';

/** An operation (or none) and, for matrix, a target count (or none). */
const target = fc.oneof(
  fc.constant({ operation: undefined, targets: undefined }),
  fc.constantFrom(...OPERATION_NAMES).map((operation) => ({ operation, targets: undefined as number | undefined })),
  fc.integer({ min: 1, max: 6 }).map((targets) => ({ operation: 'matrix', targets })),
);

/** Pieces of the language and its neighbours, to make strings that get past the first token. */
const PIECES = [
  'AND', 'or', 'Not', 'LIKE', 'true', 'FALSE', 'ANDROID', '(', ')', '[', ']', '=', '!=', '<>', '<', '<=', '>', '>=', '!', '-', '.',
  '0', '7', '-3', '1.5', '9007199254740993', "'", '"', '\\', "'a'", '"b"', '%', '_', ' ', '\n', '\r', '\t', 'domain_score', 'anchor',
  'backlinks_counts', 'first_seen_at', 'is_new', 'é', '😀', '\uD800', '\uDC00', '\u0000', '\u00a0', '\u2028', ';',
];

const strings = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  // Any UTF-16 unit, lone surrogates included.
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)), maxLength: 40 }),
  fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }).map((parts) => parts.join('')),
  fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }).map((parts) => parts.join(' ')),
);

/** One edit of a text: insert, delete, replace, or splice in a slice of another valid text. */
const edit = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: 'binary', maxLength: 3 })) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 8 }) }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), text: fc.constantFrom(...PIECES) }),
  fc.record({ kind: fc.constant('splice' as const), at: fc.nat(), from: fc.nat(), length: fc.integer({ min: 1, max: 20 }) }),
);
type Edit = typeof edit extends fc.Arbitrary<infer E> ? E : never;

function apply(text: string, edits: readonly Edit[], donor: string): string {
  let out = text;
  for (const e of edits) {
    const at = out.length === 0 ? 0 : e.at % (out.length + 1);
    if (e.kind === 'insert') out = out.slice(0, at) + e.text + out.slice(at);
    else if (e.kind === 'delete') out = out.slice(0, at) + out.slice(at + e.length);
    else if (e.kind === 'replace') out = out.slice(0, at) + e.text + out.slice(at + 1);
    else {
      // Splice whole tokens of the donor (split on white space), so fragments stay language-like.
      const tokens = donor.split(/\s+/);
      const start = tokens.length === 0 ? 0 : e.from % tokens.length;
      out = `${out.slice(0, at)} ${tokens.slice(start, start + 1 + (e.length % 4)).join(' ')} ${out.slice(at)}`;
    }
  }
  return out;
}

/** A valid result must also print, re-parse and validate consistently. */
function checkValid(text: string, options: { operation: string | undefined; targets: number | undefined }): void {
  const result = parseWellFormed(text, options);
  if (!result.ok) return;
  const canonical = printFilter(result.filter);
  expect(nodesEqual(parseFilter(canonical, options), result.filter)).toBe(true);
  if (options.operation !== undefined) expect(validateFilter(result.filter, { ...options, operation: options.operation })).toEqual([]);
}

describe('safeParseFilter on any input', () => {
  it('answers arbitrary strings (full Unicode, lone surrogates, language pieces) with issues or an AST', () => {
    fc.assert(fc.property(strings, target, (text, options) => checkValid(text, options)), seeded(RUNS * 5)); // 5,000 strings by default
  });

  it.each(FILTERABLE)('answers random mutations of valid %s filters with issues or an AST', (operation) => {
    const valid = filterTextArbitrary(operation, { maxDepth: 3 });
    fc.assert(
      fc.property(valid, valid, fc.array(edit, { minLength: 1, maxLength: 5 }), fc.option(fc.integer({ min: 1, max: 6 })), (text, donor, edits, targets) => {
        checkValid(apply(text, edits, donor), { operation, targets: operation === 'matrix' ? (targets ?? undefined) : undefined });
      }),
      seeded(RUNS), // 1,000 mutated filters per operation by default
    );
  });
});
