/**
 * Shared pieces of the property suites: run counts, the operations to cover, and the check that
 * an answer of the front end is well formed.
 */
import { expect, vi } from 'vitest';
import { ISSUE_CODES, OPERATION_NAMES, operations, safeParseFilter, type ParseOptions, type ParseResult } from '../../src/index.js';

/** Runs per property: at least 1,000 in `npm test`; raise with FC_RUNS for a longer fuzz. */
export const RUNS = Math.max(1000, Number(process.env['FC_RUNS'] ?? 0) || 0);

/**
 * The seed every property of `npm test` runs with, so a run checks the same cases each time and a
 * red run is never a matter of luck. `FC_SEED=<seed>` (and `FC_PATH=<path>`, both from fast-check's
 * failure report) replays a failure; `FC_SEED=random` draws a fresh seed for an exploratory run.
 */
export const FIXED_SEED = 20_261_122;

/**
 * fast-check parameters for a property of `npm test`: `numRuns` runs with the fixed seed (or the
 * one `FC_SEED` names), and `FC_PATH` when given, to go straight to a shrunk counterexample.
 *
 * @example
 * fc.assert(fc.property(arb, check), seeded(1000));
 */
export function seeded(numRuns: number, seed: number = FIXED_SEED): { numRuns: number; seed?: number; path?: string } {
  const raw = process.env['FC_SEED'];
  const path = process.env['FC_PATH'];
  let chosen: number | undefined = seed;
  if (raw === 'random') chosen = undefined;
  else if (raw !== undefined && raw !== '') {
    chosen = Number(raw);
    if (!Number.isInteger(chosen)) throw new Error(`FC_SEED must be an integer or "random", got ${raw}`);
  }
  return { numRuns, ...(chosen !== undefined && { seed: chosen }), ...(path ? { path } : {}) };
}

// A longer fuzz (FC_RUNS) needs a longer test timeout, in proportion; the default run keeps vitest's.
if (RUNS > 1000) vi.setConfig({ testTimeout: 60_000 * (RUNS / 1000) });

/** Every operation that takes a filter. */
export const FILTERABLE = OPERATION_NAMES.filter((name) => operations[name].filter);

/** Operation and target count pairs: each filterable operation, and matrix with 1-6 targets and none. */
export const TARGETED: readonly { operation: string; targets: number | undefined }[] = FILTERABLE.flatMap<{ operation: string; targets: number | undefined }>((operation) =>
  operation === 'matrix'
    ? [undefined, 1, 2, 3, 4, 5, 6].map((targets) => ({ operation, targets }))
    : [{ operation, targets: undefined }],
);

const CODES: ReadonlySet<string> = new Set(ISSUE_CODES);

/**
 * Parses `text` and checks that the answer is well formed: never a throw; issues non-empty, with
 * known codes, a message, and a place inside the text.
 */
export function parseWellFormed(text: string, options: ParseOptions): ParseResult {
  const result = safeParseFilter(text, options);
  if (result.ok) return result;
  expect(result.issues.length).toBeGreaterThan(0);
  for (const issue of result.issues) {
    expect(CODES.has(issue.code), issue.code).toBe(true);
    expect(typeof issue.message === 'string' && issue.message.length > 0).toBe(true);
    expect(Number.isInteger(issue.offset) && issue.offset >= 0, `offset ${issue.offset}`).toBe(true);
    expect(Number.isInteger(issue.length) && issue.length >= 0, `length ${issue.length}`).toBe(true);
    expect(issue.offset + issue.length, `${issue.code} ends past the text`).toBeLessThanOrEqual(text.length);
    expect({ line: issue.line, column: issue.column }).toEqual(place(text, issue.offset));
  }
  const offsets = result.issues.map((i) => i.offset);
  expect(offsets, 'issues in order of offset').toEqual([...offsets].sort((a, b) => a - b));
  return result;
}

/** 1-based line and column of an offset, counting `\r\n`, `\n` and a lone `\r` as one line break each. */
function place(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset; i++) {
    const c = text[i];
    if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}
