/**
 * The error vocabulary: the service's own rules, beside the parameter rules and the filter's issue
 * codes, are one table of stable codes, the one docs/errors.md lists. The expected codes are
 * written out by hand from docs/errors.md ("The rules of the details").
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ISSUE_CODES, PARAMETER_RULES, SERVICE_RULES, type ErrorRule } from '../../../src/index.js';

/** docs/errors.md's table, by hand. */
const DOCUMENTED = ['more_issues', 'bad_url', 'missing_host', 'unsupported_filter', 'insufficient_units', 'playground_not_built', 'explore_not_built', 'store_unavailable', 'shutting_down'];

describe('the service rules', () => {
  it('are the ones docs/errors.md lists, each with a description', () => {
    expect(Object.keys(SERVICE_RULES).sort()).toEqual([...DOCUMENTED].sort());
    for (const [rule, description] of Object.entries(SERVICE_RULES)) expect(description.length, rule).toBeGreaterThan(20);
  });

  it('each has its row in docs/errors.md', () => {
    const docs = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
    for (const rule of DOCUMENTED) expect(docs, rule).toMatch(new RegExp(`^\\| \`${rule}\` \\| \\d{3} \\|`, 'm'));
  });

  it('share no code with the parameter rules or the filter issue codes', () => {
    for (const rule of Object.keys(SERVICE_RULES)) {
      expect(Object.keys(PARAMETER_RULES), rule).not.toContain(rule);
      expect(ISSUE_CODES as readonly string[], rule).not.toContain(rule);
    }
  });

  it('type a detail: a code of none of the tables does not compile', () => {
    const rules: ErrorRule[] = ['too_large', 'unexpected_token', 'insufficient_units'];
    // @ts-expect-error: not a rule of any table
    const unknown: ErrorRule = 'no_such_rule';
    expect([...rules, unknown]).toHaveLength(4);
  });
});
