/**
 * Runs the whole conformance corpus (`corpus/*.jsonl`, format in `corpus/README.md`): every case
 * either reaches its canonical text, with the canonical text a fixed point that parses back to
 * the same AST, or yields exactly its issues (codes, offsets, lengths, in order), or throws its
 * ParameterError.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  FilterError,
  ISSUE_CODES,
  isParameterError,
  nodesEqual,
  parseFilter,
  printFilter,
  safeParseFilter,
  type FilterIssue,
  type ParseOptions,
} from '../../src/index.js';
import { loadCorpus, type CorpusCase, type ExpectedIssue } from './corpus-format.js';

const cases = loadCorpus(fileURLToPath(new URL('./corpus/', import.meta.url)));

const optionsOf = (c: CorpusCase): ParseOptions => ({
  ...(c.operation !== undefined ? { operation: c.operation } : {}),
  ...(c.targets !== undefined ? { targets: c.targets } : {}),
  ...(c.limits !== undefined ? { limits: c.limits } : {}),
});

const shown = (i: FilterIssue | ExpectedIssue) =>
  `${i.code}@${i.offset}+${i.length}${i.code === 'unknown_field' ? `~${i.suggestion ?? ''}` : ''}`;

/** Words of Chevrotain's own messages, which must never reach an issue. */
const CHEVROTAIN_TEXT = /Expecting|token of type|but found|-->|<\/?[A-Z][A-Za-z]*>|NoViableAlt|MismatchedToken|EarlyExit|NotAllInputParsed|EOF/;

function checkCanonical(c: CorpusCase, canonical: string): void {
  const options = optionsOf(c);
  const result = safeParseFilter(c.input, options);
  if (!result.ok) expect.fail(`expected ${JSON.stringify(canonical)}, got ${result.issues.map(shown).join(', ')}`);
  const printed = printFilter(result.filter);
  expect(printed).toBe(canonical);
  const again = parseFilter(printed, options);
  expect(nodesEqual(again, result.filter), 'the canonical text parses back to the same AST').toBe(true);
  expect(printFilter(again)).toBe(printed);
}

function checkIssues(c: CorpusCase, expected: readonly ExpectedIssue[]): void {
  const options = optionsOf(c);
  const result = safeParseFilter(c.input, options);
  if (result.ok) expect.fail(`expected issues, got ${JSON.stringify(printFilter(result.filter))}`);
  expect(result.issues.map(shown)).toEqual(expected.map(shown));
  for (const issue of result.issues) {
    expect(ISSUE_CODES).toContain(issue.code);
    expect(issue.message.length).toBeGreaterThan(0);
    expect(issue.message).not.toMatch(CHEVROTAIN_TEXT);
    expect(issue.offset + issue.length).toBeLessThanOrEqual(c.input.length);
    expect(issue.line).toBeGreaterThanOrEqual(1);
    expect(issue.column).toBeGreaterThanOrEqual(1);
  }
  const offsets = result.issues.map((i) => i.offset);
  expect(offsets, 'issues are sorted by offset').toEqual([...offsets].sort((a, b) => a - b));
  // The throwing entry reports the very same issues.
  let thrown: unknown;
  try {
    parseFilter(c.input, options);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(FilterError);
  expect((thrown as FilterError).issues).toEqual(result.issues);
}

function checkError(c: CorpusCase, parameter: string, code: string): void {
  let thrown: unknown;
  try {
    safeParseFilter(c.input, optionsOf(c));
  } catch (error) {
    thrown = error;
  }
  expect(isParameterError(thrown), `expected a ParameterError, got ${String(thrown)}`).toBe(true);
  expect(thrown).toMatchObject({ parameter, code });
}

describe('conformance corpus', () => {
  it('has at least 300 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(300);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const e = c.expect;
    if (e.kind === 'canonical') checkCanonical(c, e.canonical);
    else if (e.kind === 'issues') checkIssues(c, e.issues);
    else checkError(c, e.parameter, e.code);
  });
});
