/**
 * Competitors counted over the in-memory referrer graph: overlaps, the interface's thresholds
 * (at least 5 shared referring domains, similarity at least 0.01), order and paging, on graphs
 * small enough to work out by hand.
 */
import { describe, expect, it } from 'vitest';
import { CompetitorIndex } from '../../../../../src/server/store/memory/competitor-graph.js';
import type { Page } from '../../../../../src/server/store/store.js';

/** A graph from each domain's referrers (referrer ids are small integers). */
function graph(referrers: Record<string, readonly number[]>, keepBytes?: number): CompetitorIndex {
  const names = Object.keys(referrers).sort();
  const targets: number[] = [];
  const sources: number[] = [];
  names.forEach((name, t) => {
    for (const s of referrers[name]!) {
      targets.push(t);
      sources.push(s);
    }
  });
  return new CompetitorIndex(Int32Array.from(targets), Int32Array.from(sources), names, Math.max(...sources) + 1, keepBytes);
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const page = (orderBy: string, direction: 'ASC' | 'DESC' = 'DESC', limit = 100, offset = 0): Page => ({ orderBy, direction, limit, offset });

describe('CompetitorIndex', () => {
  it('lists a domain sharing at least 5 referring domains, with |R(t) ∩ R(c)| / |R(t) ∪ R(c)|', () => {
    // a: 1-6, b: 1-5 and 7-8 (5 shared, 8 in all: 5/8), c: 1 and 9 (1 shared: not listed).
    const index = graph({ 'a.com': range(1, 6), 'b.com': [...range(1, 5), 7, 8], 'c.com': [1, 9] });
    expect(index.competitors('a.com', page('similarity'))).toEqual({ total: 1, rows: [{ domain: 'b.com', similarity: 0.625, common_refdomains: 5 }] });
    expect(index.competitors('b.com', page('similarity'))).toEqual({ total: 1, rows: [{ domain: 'a.com', similarity: 0.625, common_refdomains: 5 }] });
    expect(index.competitors('c.com', page('similarity'))).toEqual({ total: 0, rows: [] });
    expect(index.competitors('unknown.com', page('similarity'))).toEqual({ total: 0, rows: [] });
  });

  it('leaves out 4 shared referring domains, and a similarity under 0.01', () => {
    // d: 1-4 shares 4 with e; big: 1-5 and 1000 more (1,005) shares 5 with e (1-5): 5 / 1,005 < 0.01.
    // small: 1-5 and 101-594 (499 in all) shares 5 with e: 5 / 499 = 0.01002 >= 0.01.
    const index = graph({ 'd.com': range(1, 4), 'e.com': range(1, 5), 'big.com': [...range(1, 5), ...range(2000, 2999)], 'small.com': [...range(1, 5), ...range(101, 594)] });
    const listed = index.competitors('e.com', page('similarity'));
    expect(listed.rows.map((row) => row.domain)).toEqual(['small.com']);
    expect(listed.rows[0]!.similarity).toBe(5 / 499);
  });

  it('lists a similarity of exactly 0.01 and exactly 5 shared referring domains ("at least"), not 5 / 501', () => {
    // t: 1-5; at: 1-5 and 501-995 (500 in all): 5 shared of 500, exactly 0.01; under: 1-5 and 501-996 (501): 5 / 501.
    const index = graph({ 't.com': range(1, 5), 'at.com': [...range(1, 5), ...range(501, 995)], 'under.com': [...range(1, 5), ...range(501, 996)] });
    expect(index.competitors('t.com', page('similarity'))).toEqual({ total: 1, rows: [{ domain: 'at.com', similarity: 0.01, common_refdomains: 5 }] });
  });

  it('orders by the field, then by domain ascending (code points), and pages', () => {
    // x shares 1-5 with each of p, q, r; p and q hold 6 referrers each (5/6), r 10 (5/10).
    const index = graph({ 'x.com': range(1, 5), 'p.com': [...range(1, 5), 6], 'q.com': [...range(1, 5), 7], 'r.com': [...range(1, 5), ...range(8, 12)] });
    const domains = (p: Page) => index.competitors('x.com', p).rows.map((row) => row.domain);
    expect(domains(page('similarity'))).toEqual(['p.com', 'q.com', 'r.com']);
    expect(domains(page('similarity', 'ASC'))).toEqual(['r.com', 'p.com', 'q.com']);
    expect(domains(page('domain', 'DESC'))).toEqual(['r.com', 'q.com', 'p.com']);
    expect(domains(page('common_refdomains', 'DESC'))).toEqual(['p.com', 'q.com', 'r.com']);
    expect(index.competitors('x.com', page('similarity', 'DESC', 1, 1))).toEqual({ total: 3, rows: [{ domain: 'q.com', similarity: 5 / 6, common_refdomains: 5 }] });
    expect(index.competitors('x.com', page('similarity', 'DESC', 10, 3))).toEqual({ total: 3, rows: [] });
  });

  it('answers the same from a kept list, after a caller changed its rows, and after the list was dropped', () => {
    // As in the first case: a and b share 1-5 (5 / 8).
    const referrers = { 'a.com': range(1, 6), 'b.com': [...range(1, 5), 7, 8], 'c.com': [1, 9] };
    const expected = { total: 1, rows: [{ domain: 'b.com', similarity: 0.625, common_refdomains: 5 }] };
    const index = graph(referrers);
    const first = index.competitors('a.com', page('similarity'));
    first.rows[0]!.common_refdomains = 99;
    expect(index.competitors('a.com', page('similarity'))).toEqual(expected);
    // Room for one list of one row (64 bytes for the list, 100 for the row, by the estimate):
    // asking b drops a's list, and a is counted again from the graph.
    const small = graph(referrers, 164);
    for (let i = 0; i < 3; i++) {
      expect(small.competitors('a.com', page('similarity'))).toEqual(expected);
      expect(small.competitors('b.com', page('similarity'))).toEqual({ total: 1, rows: [{ domain: 'a.com', similarity: 0.625, common_refdomains: 5 }] });
    }
  });

  it('keeps lists within its bound of rows: one past it is counted again from the graph', () => {
    const referrers = { 'a.com': range(1, 6), 'b.com': [...range(1, 5), 7, 8], 'c.com': [1, 9] };
    const counts = (keep: number) => {
      const index = graph(referrers, keep);
      let counted = 0;
      const count = index.competitorsOf.bind(index);
      index.competitorsOf = (t, emit) => (counted++, count(t, emit));
      for (const domain of ['a.com', 'b.com', 'a.com', 'b.com']) index.competitors(domain, page('similarity'));
      return counted;
    };
    // a and b hold one row each, 164 bytes each list by the estimate (64 for the list, 100 for the
    // row): a bound of 328 keeps both, one byte less only the last asked.
    expect(counts(328)).toBe(2);
    expect(counts(327)).toBe(4);
  });
});
