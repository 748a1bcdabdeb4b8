import { ParameterError } from '../../../src/errors/filter-error.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { booleanLiteral, comparison, field, like, numberLiteral, stringLiteral } from '../../../src/ast/factories.js';
import type { FilterNode } from '../../../src/ast/nodes.js';
import { compilePredicate, evaluateFilter, type Row } from '../../../src/evaluate/index.js';
import { generatePredicateSource } from '../../../src/evaluate/code-mode.js';
import { parseFilter } from '../../../src/syntax/parse.js';

const links = (text: string): FilterNode => parseFilter(text, { operation: 'links' });
const matrix = (text: string): FilterNode => parseFilter(text, { operation: 'matrix', targets: 3 });
const MODES = ['code', 'closure'] as const;

const link: Row = {
  anchor: 'Best SEO tips',
  domain_score: 62,
  response_code: 200,
  is_nofollow: false,
  first_seen_at: '2024-05-01T10:30:00',
  source_url: 'https://example.com/a_b',
  lang: '😀',
};

describe.each(MODES)('compilePredicate, %s mode', (mode) => {
  const run = (filter: FilterNode, row: Row): boolean => compilePredicate(filter, { mode })(row);

  it.each([
    ['domain_score = 62', true],
    ['domain_score != 62', false],
    ['domain_score <> 61', true],
    ['domain_score < 62', false],
    ['domain_score <= 62', true],
    ['domain_score > 61.5', true],
    ['domain_score >= 62.5', false],
    ['domain_score = 62.0', true],
    ['response_code < 300 AND response_code >= 200', true],
    ["anchor = 'Best SEO tips'", true],
    ["anchor = 'best seo tips'", false],
    ["anchor != 'best seo tips'", true],
    ["anchor < 'a'", true], // 'B' < 'a' by code point
    ["anchor > 'Best SEO tips '", false],
    ["anchor >= 'Best'", true],
    ["lang > '\uFFFF'", true], // astral after U+FFFF, unlike JavaScript's `<`
    ["lang < '\uFFFF'", false],
    ["lang <= '\uE000'", false],
    ["anchor LIKE '%SEO%'", true],
    ["anchor LIKE '%seo%'", false],
    ["anchor NOT LIKE '%seo%'", true],
    ["anchor LIKE 'Best%'", true],
    ["anchor LIKE '%tips'", true],
    ["anchor LIKE 'B%S%s'", true],
    ["anchor LIKE 'Best_SEO%'", false],
    ["source_url LIKE '%a_b'", true],
    ["anchor LIKE ''", false],
    ["anchor LIKE '%%'", true],
    ["anchor NOT LIKE '%'", false],
    ['is_nofollow = false', true],
    ['is_nofollow = true', false],
    ['is_nofollow != true', true],
    ["first_seen_at > '2024-05-01'", true], // a longer text with the same start sorts after it
    ["first_seen_at >= '2024-05-01T10:30:00'", true],
    ["first_seen_at < '2024-05-01T10:30'", false],
    ["first_seen_at LIKE '2024-05%'", true],
    ["domain_score > 90 OR anchor LIKE '%tips'", true],
    ["domain_score > 90 OR anchor LIKE '%trips' OR is_nofollow = true", false],
    ["domain_score > 50 AND (anchor LIKE '%x%' OR lang = '😀')", true],
  ])('%s -> %s', (text, expected) => {
    expect(run(links(text), link)).toBe(expected);
  });

  it.each([
    ['backlinks_counts[1] = 5', true],
    ['backlinks_counts[2] > 0', false],
    ['backlinks_counts[3] >= 7.5', true],
    ['backlinks_counts[1] > 4 AND backlinks_counts[3] < 9', true],
  ])('matrix %s -> %s', (text, expected) => {
    expect(run(matrix(text), { domain: 'example.com', backlinks_counts: [5, 0, 8] })).toBe(expected);
  });

  it('reads fields whose names are not identifiers without splicing them', () => {
    const filter = comparison(field("x'] || true || r['"), '=', stringLiteral('v'));
    expect(run(filter, { "x'] || true || r['": 'v' })).toBe(true);
    expect(run(filter, { "x'] || true || r['": 'w' })).toBe(false);
  });

  it.each(['__proto__', 'constructor', '123', '', 'toString'])('compares the literal %j exactly (literals are internalized)', (text) => {
    expect(run(comparison(field('anchor'), '=', stringLiteral(text)), { anchor: text })).toBe(true);
    expect(run(comparison(field('anchor'), '<', stringLiteral(text)), { anchor: `${text}x` })).toBe(false);
    expect(run(like(field('anchor'), stringLiteral(`%${text}%`)), { anchor: `a${text}b` })).toBe(true);
  });

  it('rejects a node no parser produces', () => {
    expect(() => compilePredicate(comparison(field('a'), '<', booleanLiteral(true)), { mode })).toThrow(ParameterError);
    expect(() => compilePredicate(comparison(field('a', 0), '=', numberLiteral(1)), { mode })).toThrow(ParameterError);
    expect(() => compilePredicate({ kind: 'Nope' } as unknown as FilterNode, { mode })).toThrow(ParameterError);
  });
});

describe('code generation', () => {
  it('passes every literal and pattern as a constant, never in the source', () => {
    const hostile = "'); globalThis.pwned = 1; ('";
    const filter = links(`anchor = "${hostile.replaceAll('"', '\\"')}" OR anchor LIKE '%${hostile.replaceAll("'", "\\'")}%x%' OR domain_score > 12345`);
    const { source, constants } = generatePredicateSource(filter);
    expect(source).not.toContain('pwned');
    expect(source).not.toContain('12345');
    expect(constants).toContain(hostile);
    expect(constants).toContain(12345);
    expect(compilePredicate(filter)({ anchor: hostile, domain_score: 0 })).toBe(true);
    expect((globalThis as Record<string, unknown>).pwned).toBeUndefined();
  });

  it('compares by code point only when the literal needs it', () => {
    expect(generatePredicateSource(links("anchor < 'abc'")).source).not.toContain('cmp(');
    expect(generatePredicateSource(links("anchor < '\uFFFF'")).source).toContain('cmp(');
  });
});

describe('when new Function is forbidden', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('falls back to the closure tree and gives the same answers', () => {
    // A `function`, not an arrow: the compiler calls it with `new`, as the real Function.
    const forbidden = vi.fn(function forbid() {
      throw new EvalError('Code generation from strings disallowed for this context');
    });
    vi.stubGlobal('Function', forbidden);
    const keep = compilePredicate(links("domain_score > 50 AND anchor LIKE '%SEO%'"));
    expect(forbidden).toHaveBeenCalledTimes(1);
    expect(keep(link)).toBe(true);
    expect(keep({ ...link, domain_score: 10 })).toBe(false);
  });

  it("throws with mode 'code', so a test of the generated function cannot pass on the closure tree", () => {
    vi.stubGlobal(
      'Function',
      vi.fn(function forbidden() {
        throw new EvalError('disallowed');
      }),
    );
    expect(() => compilePredicate(links('domain_score > 50'), { mode: 'code' })).toThrow(EvalError);
    expect(compilePredicate(links('domain_score > 50'), { mode: 'closure' })(link)).toBe(true);
  });

  it("still reports a malformed AST instead of hiding it behind the fallback", () => {
    vi.stubGlobal('Function', () => {
      throw new EvalError('disallowed');
    });
    expect(() => compilePredicate(like(field('a', -1), stringLiteral('%')))).toThrow(/count from 1/);
  });
});

describe('evaluateFilter', () => {
  it('evaluates once without keeping anything compiled', () => {
    expect(evaluateFilter(links('domain_score >= 62'), link)).toBe(true);
    expect(evaluateFilter(links("anchor LIKE 'best%'"), link)).toBe(false);
  });
});
