/**
 * The matrix merged from the targets' referring-domain lists (each sorted by domain by code point,
 * as the store reads them): their union, counts per target in
 * request order, matches, the filter (by the evaluator), order and paging, worked out by hand.
 */
import { describe, expect, it } from 'vitest';
import { parseFilter } from '../../../../../src/syntax/parse.js';
import { matrixOfLists, matrixOfUnion, unionOf, type ReferrerList } from '../../../../../src/server/store/memory/matrix-merge.js';
import type { Page } from '../../../../../src/server/store/store.js';

const list = (rows: readonly (readonly [id: number, domain: string, backlinks: number, score: number, ip: string, country: string])[]): ReferrerList => ({
  ids: Int32Array.from(rows.map((r) => r[0])),
  domains: rows.map((r) => r[1]),
  backlinks: Float64Array.from(rows.map((r) => r[2])),
  scores: Float64Array.from(rows.map((r) => r[3])),
  ips: rows.map((r) => r[4]),
  countries: rows.map((r) => r[5]),
});

// First target: a (3 links), b (1), d (2); second: b (5), c (7).
const first = list([[1, 'a.org', 3, 10, '192.0.2.1', 'DE'], [2, 'b.org', 1, 20, '192.0.2.2', 'FR'], [4, 'd.org', 2, 40, '192.0.2.4', 'US']]);
const second = list([[2, 'b.org', 5, 20, '192.0.2.2', 'FR'], [3, 'c.org', 7, 30, '192.0.2.3', 'DE']]);
const page = (orderBy: string, direction: 'ASC' | 'DESC' = 'DESC', limit = 100, offset = 0): Page => ({ orderBy, direction, limit, offset });
const filter = (text: string) => parseFilter(text, { operation: 'matrix', targets: 2 });

describe('matrixOfLists', () => {
  it('is the union of the lists with a count per target, in request order, and the number of targets matched', () => {
    expect(matrixOfLists([first, second], { filter: null, page: page('matches_count') })).toEqual({
      total: 4,
      rows: [
        { domain: 'b.org', domain_score: 20, ip_address: '192.0.2.2', country: 'FR', matches_count: 2, backlinks_counts: [1, 5] },
        { domain: 'a.org', domain_score: 10, ip_address: '192.0.2.1', country: 'DE', matches_count: 1, backlinks_counts: [3, 0] },
        { domain: 'c.org', domain_score: 30, ip_address: '192.0.2.3', country: 'DE', matches_count: 1, backlinks_counts: [0, 7] },
        { domain: 'd.org', domain_score: 40, ip_address: '192.0.2.4', country: 'US', matches_count: 1, backlinks_counts: [2, 0] },
      ],
    });
    // The same lists in the other order: the counts follow the request.
    expect(matrixOfLists([second, first], { filter: null, page: page('domain', 'ASC', 1) }).rows[0]!.backlinks_counts).toEqual([0, 3]);
  });

  it('keeps the rows the filter selects, counts them in the total, and orders and pages them', () => {
    const domains = (text: string, p: Page) => matrixOfLists([first, second], { filter: filter(text), page: p }).rows.map((row) => row.domain);
    expect(domains('backlinks_counts[2] > 0', page('domain', 'ASC'))).toEqual(['b.org', 'c.org']);
    expect(domains('domain_score >= 30', page('domain_score'))).toEqual(['d.org', 'c.org']);
    expect(domains("country = 'DE' OR matches_count = 2", page('country', 'ASC'))).toEqual(['a.org', 'c.org', 'b.org']);
    expect(matrixOfLists([first, second], { filter: filter("domain LIKE '%.org'"), page: page('matches_count', 'DESC', 2, 1) })).toMatchObject({
      total: 4,
      rows: [{ domain: 'a.org' }, { domain: 'c.org' }],
    });
    expect(matrixOfLists([first, second], { filter: filter('backlinks_counts[1] > 100'), page: page('domain') })).toEqual({ total: 0, rows: [] });
  });
});

describe('matrixOfLists text order', () => {
  it('orders text by code point: an astral character after U+FFFF, as SQL compares UTF-8 bytes', () => {
    // '\u{1F600}' (U+1F600) sorts after '\uFFFF' by code point, before it by UTF-16 units.
    const astral = list([[2, 'a\uFFFF.org', 1, 0, '', ''], [1, 'a\u{1F600}.org', 1, 0, '', ''], [3, 'b.org', 1, 0, '', '']]);
    const domains = (l: ReferrerList) => matrixOfLists([l], { filter: null, page: page('domain', 'ASC') }).rows.map((row) => row.domain);
    expect(domains(astral)).toEqual(['a\uFFFF.org', 'a\u{1F600}.org', 'b.org']);
    // Merged from two lists, each holding one of them: the union is numbered by code point too.
    const one = list([[2, 'a\uFFFF.org', 1, 0, '', '']]);
    const other = list([[1, 'a\u{1F600}.org', 1, 0, '', ''], [3, 'b.org', 1, 0, '', '']]);
    expect(matrixOfLists([other, one], { filter: null, page: page('domain', 'ASC') }).rows.map((row) => [row.domain, row.backlinks_counts])).toEqual([
      ['a\uFFFF.org', [0, 1]],
      ['a\u{1F600}.org', [1, 0]],
      ['b.org', [1, 0]],
    ]);
    // A list that says its texts sort natively is ordered the same way (for ASCII texts).
    expect(domains({ ...first, nativeOrder: true })).toEqual(domains(first));
    expect(matrixOfLists([{ ...first, nativeOrder: true }, second], { filter: null, page: page('country', 'DESC') }).rows.map((row) => row.domain)).toEqual([
      'd.org',
      'b.org',
      'a.org',
      'c.org',
    ]);
  });
});

describe('a kept union, paged deep', () => {
  // 2,500 referring domains over three targets, each target linked from about half of them; the
  // expected pages come from a plain sort of the union built here by domain name.
  const N = 2_500;
  const name = (i: number) => `d${String((i * 7919) % N).padStart(4, '0')}.example`;
  const data = Array.from({ length: N }, (_, i) => ({ domain: name(i), id: i, score: (i * 31) % 101, ip: `10.0.${i % 7}.${i % 251}`, country: ['DE', 'FR', 'US', 'BR'][i % 4]! }));
  const linked = (t: number, i: number) => (i * (t + 3)) % 5 < 3;
  const lists = [0, 1, 2].map((t) =>
    list(
      data
        .filter((d) => linked(t, d.id))
        .sort((a, b) => (a.domain < b.domain ? -1 : 1))
        .map((d) => [d.id, d.domain, 1 + ((d.id + t) % 9), d.score, d.ip, d.country] as const),
    ),
  );
  const expected = data
    .filter((d) => [0, 1, 2].some((t) => linked(t, d.id)))
    .map((d) => {
      const counts = [0, 1, 2].map((t) => (linked(t, d.id) ? 1 + ((d.id + t) % 9) : 0));
      return { domain: d.domain, domain_score: d.score, ip_address: d.ip, country: d.country, matches_count: counts.filter((c) => c > 0).length, backlinks_counts: counts };
    });
  const sorted = (field: 'matches_count' | 'domain_score' | 'country' | 'domain', direction: 'ASC' | 'DESC') =>
    [...expected].sort((a, b) => {
      const x = a[field];
      const y = b[field];
      const by = x === y ? 0 : x < y ? -1 : 1;
      return (direction === 'ASC' ? by : -by) || (a.domain < b.domain ? -1 : 1);
    });

  it('answers every page of an unfiltered order as a full sort would, and the same through a filter that keeps every row', () => {
    const union = unionOf(lists);
    expect(union.rows).toBe(expected.length);
    // Each field in both directions, one after the other on the same union: each order keeps its own rows.
    for (const [field, direction] of [['matches_count', 'DESC'], ['domain_score', 'ASC'], ['domain_score', 'DESC'], ['country', 'DESC'], ['country', 'ASC'], ['domain', 'DESC'], ['domain', 'ASC']] as const) {
      const all = sorted(field, direction);
      // Offsets inside the first kept rows (to their last row, 1,000), one past them, deeper (the kept rows grow), then back.
      for (const offset of [0, 900, 901, 990, 1_500, expected.length - 50, 100]) {
        const p = page(field, direction, 100, offset);
        const want = { total: expected.length, rows: all.slice(offset, offset + 100) };
        expect(matrixOfUnion(union, { filter: null, page: p }), `${field} ${direction} offset ${offset}`).toEqual(want);
        expect(matrixOfUnion(union, { filter: filter('domain_score >= 0'), page: p }), `${field} ${direction} offset ${offset}, filtered`).toEqual(want);
      }
    }
  });
});
