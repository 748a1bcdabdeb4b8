/**
 * Completion at hand-picked places. Every expected list is written by hand from the interface's
 * record tables (service-interface.md, "Resources and their fields") and the language page's
 * types table (filter-language.md, "Types and what each allows").
 */
import { describe, expect, it } from 'vitest';
import { complete, isParameterError, type Completion } from '../../../src/index.js';

/** Completes at the end of `text` (or at the `|` in it) and returns the inserted texts. */
function inserts(text: string, operation: string, targets?: number): string[] {
  return at(text, operation, targets).map((c) => c.insert);
}

function at(text: string, operation: string, targets?: number): Completion[] {
  const offset = text.includes('|') ? text.indexOf('|') : text.length;
  return complete(text.replace('|', ''), offset, { operation, ...(targets !== undefined && { targets }) });
}

describe('complete', () => {
  it('offers every field of the operation at the start, in the record order, and a group', () => {
    // The referring-IP record: ip_address, country, backlinks_count, domains_count, first_seen_at, last_seen_at.
    expect(inserts('', 'ref-ips')).toEqual(['ip_address', 'country', 'backlinks_count', 'domains_count', 'first_seen_at', 'last_seen_at', '(']);
  });

  it('gives each field its type and its meaning from the record table', () => {
    const field = at('', 'links').find((c) => c.label === 'domain_score');
    expect(field).toEqual({ label: 'domain_score', insert: 'domain_score', kind: 'field', detail: 'integer', description: 'Source domain authority score', from: 0, to: 0 });
  });

  it('completes the word being typed, replacing all of it, case aside', () => {
    expect(at('dom', 'links')).toMatchObject([{ insert: 'domain_score', from: 0, to: 3 }]);
    expect(at('Dom', 'links').map((c) => c.insert)).toEqual(['domain_score']);
    // The cursor in the middle of a word: the whole word is replaced.
    expect(at('page_score = 1 AND domain_sc|ore', 'links')).toMatchObject([{ insert: 'domain_score', from: 19, to: 31 }]);
    // A whole name with the cursor inside a longer one: only names, never an operator inside the word.
    expect(at('domain|_score', 'ref-domains').map((c) => [c.insert, c.from, c.to])).toEqual([
      ['domain', 0, 12],
      ['domain_score', 0, 12],
    ]);
    expect(inserts('zz', 'links')).toEqual([]);
  });

  it('offers the operators each type allows', () => {
    expect(inserts('domain_score ', 'links')).toEqual(['=', '!=', '<', '<=', '>', '>=']);
    expect(inserts('is_nofollow ', 'links')).toEqual(['=', '!=']);
    expect(inserts('anchor ', 'links')).toEqual(['=', '!=', '<', '<=', '>', '>=', 'NOT LIKE', 'LIKE']);
    expect(inserts('first_seen_at ', 'links')).toEqual(['=', '!=', '<', '<=', '>', '>=', 'NOT LIKE', 'LIKE']);
    expect(inserts('anchor NOT ', 'links')).toEqual(['LIKE']);
    // Right after the field, with the space the canonical text has.
    expect(inserts('is_new', 'links')).toEqual(['is_new', ' =', ' !=']);
  });

  it('completes an operator begun, and offers the value after it', () => {
    expect(at('domain_score !', 'links')).toMatchObject([{ insert: '!=', from: 13, to: 14 }]);
    expect(inserts('domain_score <', 'links')).toEqual(['<', '<=', '<>', ' 0']);
    expect(inserts('domain_score >', 'links')).toEqual(['>', '>=', ' 0']);
    // The cursor inside `<=`: the operator is replaced whole, and no value is offered inside it.
    expect(at('domain_score <|=', 'links').map((c) => [c.insert, c.from, c.to])).toEqual([
      ['<', 13, 15],
      ['<=', 13, 15],
      ['<>', 13, 15],
    ]);
    // `<` is no operator of a boolean, but `<>` is: no value follows a `<` there.
    expect(inserts('is_new <', 'links')).toEqual(['<>']);
  });

  it('offers values that fit the field', () => {
    expect(inserts('is_lost = ', 'links')).toEqual(['true', 'false']);
    expect(inserts('is_lost = f', 'links')).toEqual(['false']);
    expect(inserts('page_score >= ', 'links')).toEqual(['0']);
    const text = at('anchor = ', 'links');
    expect(text).toMatchObject([{ insert: "''", kind: 'literal', cursor: 1 }]);
    const patterns = at('anchor LIKE ', 'links');
    expect(patterns).toMatchObject([{ insert: "'%%'", cursor: 2 }, { insert: "'%'", cursor: 1 }]);
    const dates = inserts('last_seen_at > ', 'links');
    expect(dates).toHaveLength(2);
    expect(dates[0]).toMatch(/^'\d{4}-\d{2}-\d{2}'$/);
    expect(dates[1]).toMatch(/^'\d{4}-\d{2}-\d{2}T00:00:00'$/);
  });

  it('offers AND, OR and ) after a condition, with a space where one is needed', () => {
    expect(inserts('domain_score > 5', 'links')).toEqual([' AND', ' OR']);
    expect(inserts('domain_score > 5 ', 'links')).toEqual(['AND', 'OR']);
    expect(inserts('(domain_score > 5', 'links')).toEqual([')', ' AND', ' OR']);
    expect(at('domain_score > 5 an', 'links')).toMatchObject([{ insert: 'AND', kind: 'keyword', from: 17, to: 19 }]);
    expect(inserts("anchor = 'a'", 'links')).toEqual([' AND', ' OR']);
  });

  it('knows which groups are still open, however long the filter before', () => {
    const before = Array.from({ length: 40 }, (_, i) => `(page_score > ${i} OR (is_new = true))`).join(' AND ');
    expect(inserts(`${before} AND (domain_score = 1 OR (is_lost = false) AND page_score > 2`, 'links')).toEqual([')', ' AND', ' OR']);
    expect(inserts(`${before} AND (domain_score = 1 OR (is_lost = false)) AND page_score > 2`, 'links')).toEqual([' AND', ' OR']);
    expect(inserts(`((${before}) AND (anchor `, 'links')).toContain('NOT LIKE');
  });

  it('offers backlinks_counts[n] for each allowed n on matrix', () => {
    expect(inserts('b', 'matrix', 3)).toEqual(['backlinks_counts[1]', 'backlinks_counts[2]', 'backlinks_counts[3]']);
    expect(inserts('b', 'matrix')).toHaveLength(6);
    expect(inserts('backlinks_counts', 'matrix', 2)).toEqual(['backlinks_counts[1]', 'backlinks_counts[2]', '[1]', '[2]']);
    expect(inserts('backlinks_counts[', 'matrix', 2)).toEqual(['1', '2']);
    expect(inserts('backlinks_counts[2', 'matrix', 2)).toEqual([']']);
    expect(inserts('backlinks_counts[3', 'matrix', 2)).toEqual([]);
    expect(inserts('backlinks_counts[1] ', 'matrix', 2)).toEqual(['=', '!=', '<', '<=', '>', '>=']);
    // Without an index, backlinks_counts takes no operator.
    expect(inserts('backlinks_counts ', 'matrix', 2)).toEqual(['[1]', '[2]']);
  });

  it('offers nothing where nothing can follow', () => {
    expect(inserts('nope ', 'links')).toEqual([]); // an unknown field
    expect(inserts("anchor = 'open", 'links')).toEqual([]); // inside a string
    expect(inserts('domain_score = = ', 'links')).toEqual([]); // a syntax error before the cursor
    expect(inserts('domain_score ; ', 'links')).toEqual([]); // a character the language lacks
    expect(inserts('', 'overview')).toEqual([]); // an operation with no filter
    expect(inserts('domain_score > 1|2', 'links')).toEqual([]); // inside a number
    expect(inserts('domain_score > 5|.5', 'links')).toEqual([]);
    expect(inserts('backlinks_counts[1|2', 'matrix')).toEqual([]);
  });

  it('offers nothing after a mistake, however far before the cursor', () => {
    expect(inserts('domain_score = = AND ', 'links')).toEqual([]); // a syntax error
    expect(inserts('domain_score = 1) AND ', 'links')).toEqual([]); // a ) with no (
    expect(inserts('nope = 1 AND ', 'links')).toEqual([]); // an unknown field
    expect(inserts('is_new > true OR (', 'links')).toEqual([]); // an operator its type does not allow
    expect(inserts("anchor = 'a\\\\' AND ", 'links')).toEqual(['source_url', 'target_url', 'anchor', 'redirect_url', 'source_title', 'target_title', 'image_url', 'image_alt', 'ip_address', 'lang', 'source_size', 'external_links_count', 'internal_links_count', 'response_code', 'page_score', 'domain_score', 'first_seen_at', 'last_seen_at', 'source_domain', 'is_nofollow', 'is_ugc', 'is_sponsored', 'is_form', 'is_frame', 'is_image', 'is_sitewide_main', 'is_new', 'is_lost', '(']); // an escaped backslash is fine
    expect(inserts("anchor = 'a\\q' AND ", 'links')).toEqual([]); // a backslash the language does not allow
  });

  it('offers no index, and nothing after one, on a field that is not an array', () => {
    expect(inserts('domain[', 'ref-domains')).toEqual([]);
    expect(inserts('domain[1', 'ref-domains')).toEqual([]);
    expect(inserts('domain[1] ', 'ref-domains')).toEqual([]);
  });

  it('offers no AND or OR past 100 conditions', () => {
    const conditions = (n: number) => Array.from({ length: n }, (_, i) => `page_score = ${i}`).join(' AND ');
    expect(inserts(conditions(99), 'links')).toEqual([' AND', ' OR']);
    expect(inserts(conditions(100), 'links')).toEqual([]);
  });

  it('offers no ( past the nesting limit of 32', () => {
    expect(inserts('('.repeat(31), 'links')).toContain('(');
    expect(inserts('('.repeat(32), 'links')).not.toContain('(');
  });

  it('refuses a bad operation, target count or offset as a parameter error', () => {
    const parameterOf = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return isParameterError(error) ? error.parameter : String(error);
      }
      return 'no error';
    };
    expect(parameterOf(() => complete('', 0, { operation: 'link' }))).toBe('operation');
    expect(parameterOf(() => complete('', 0, { operation: 'matrix', targets: 7 }))).toBe('targets');
    expect(parameterOf(() => complete('abc', 4, { operation: 'links' }))).toBe('offset');
    expect(parameterOf(() => complete('abc', -1, { operation: 'links' }))).toBe('offset');
    expect(parameterOf(() => complete('abc', 1.5, { operation: 'links' }))).toBe('offset');
  });
});
