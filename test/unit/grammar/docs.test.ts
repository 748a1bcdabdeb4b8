/**
 * `docs/filter-language.md` tells the truth: its field tables are the catalogue's, each issue
 * example gives its issue, and each canonical example prints as shown.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOCS_PATH, withFieldTables } from '../../../scripts/generate-diagrams.js';
import { ISSUE_CODES, printFilter, safeParseFilter, type ParseOptions } from '../../../src/index.js';

const doc = readFileSync(DOCS_PATH, 'utf8');

/** The table rows between `<!-- name:start ... -->` and `<!-- name:end -->`, as cells without their code-span backticks. */
function rows(name: string): string[][] {
  const start = doc.indexOf(`<!-- ${name}:start`);
  const end = doc.indexOf(`<!-- ${name}:end -->`);
  expect(start, `${name} markers`).toBeGreaterThan(-1);
  return doc
    .slice(start, end)
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) =>
      line
        .slice(2, -2)
        .split(' | ')
        .map((cell) => cell.replace(/^`(.*)`$/, '$1')),
    );
}

describe('docs/filter-language.md', () => {
  it('has the field tables of the current catalogue (run `npm run grammar` to refresh them)', () => {
    expect(doc).toBe(withFieldTables(doc));
  });

  const issues = rows('issues');

  it('lists every issue code exactly once', () => {
    expect(issues.map((r) => r[0]).sort()).toEqual([...ISSUE_CODES].sort());
  });

  it.each(issues.map((r) => [r[0]!, r[1]!, r[2]!] as const))('shows %s with the example %j', (code, example, options) => {
    const result = safeParseFilter(example, JSON.parse(options) as ParseOptions);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((i) => i.code)).toEqual([code]);
  });

  it.each(rows('canonical').map((r) => [r[0]!, r[1]!] as const))('prints %j as %j', (input, canonical) => {
    const result = safeParseFilter(input);
    if (!result.ok) throw new Error(result.issues.map((i) => i.code).join());
    expect(printFilter(result.filter)).toBe(canonical);
  });
});
