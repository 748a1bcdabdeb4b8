import { describe, expectTypeOf, it } from 'vitest';
import type { FilterNode } from '../../src/ast/nodes.js';
import {
  filterFor,
  type DynamicFilterBuilder,
  type Filter,
  type FilterBuilder,
  type FilterFields,
  type IndexUpTo,
  type OperatorFor,
  type TextFieldOf,
  type ValueFor,
} from '../../src/builder/index.js';

const links = filterFor('links');
const matrix = filterFor('matrix');
const matrix3 = filterFor('matrix', { targets: 3 });
const anchors = filterFor('anchors');

describe('correct use compiles and keeps the operation', () => {
  it('types the builder and its filters by operation', () => {
    expectTypeOf(links).toEqualTypeOf<FilterBuilder<'links', FilterFields<'links'>>>();
    expectTypeOf(links.where('domain_score', '>', 50)).toEqualTypeOf<Filter<'links'>>();
    expectTypeOf(links.where('is_nofollow', '=', false)).toEqualTypeOf<Filter<'links'>>();
    expectTypeOf(links.where('is_nofollow', '<>', true)).toEqualTypeOf<Filter<'links'>>();
    expectTypeOf(links.where('anchor', '=', "it's")).toEqualTypeOf<Filter<'links'>>();
    expectTypeOf(links.where('anchor', 'LIKE', '%seo%')).toEqualTypeOf<Filter<'links'>>();
    expectTypeOf(links.where('first_seen_at', 'NOT LIKE', '2024-%')).toEqualTypeOf<Filter<'links'>>();
    expectTypeOf(links.where('first_seen_at', '>=', '2024-05')).toEqualTypeOf<Filter<'links'>>();
    expectTypeOf(links.like('anchor', '%seo%')).toEqualTypeOf<Filter<'links'>>();
    expectTypeOf(links.notLike('last_seen_at', '2023%')).toEqualTypeOf<Filter<'links'>>();
    expectTypeOf(anchors.where('backlinks_count', '<=', 10.5)).toEqualTypeOf<Filter<'anchors'>>();
  });

  it('derives operators, values and text fields from the field type', () => {
    expectTypeOf<OperatorFor<'boolean'>>().toEqualTypeOf<'=' | '!=' | '<>'>();
    expectTypeOf<OperatorFor<'integer'>>().toEqualTypeOf<'=' | '!=' | '<>' | '<' | '<=' | '>' | '>='>();
    expectTypeOf<OperatorFor<'timestamp'>>().toEqualTypeOf<'=' | '!=' | '<>' | '<' | '<=' | '>' | '>=' | 'LIKE' | 'NOT LIKE'>();
    expectTypeOf<ValueFor<'number'>>().toEqualTypeOf<number>();
    expectTypeOf<ValueFor<'boolean'>>().toEqualTypeOf<boolean>();
    expectTypeOf<ValueFor<'timestamp'>>().toEqualTypeOf<string>();
    expectTypeOf<TextFieldOf<FilterFields<'anchors'>>>().toEqualTypeOf<'anchor' | 'first_seen_at' | 'last_seen_at'>();
    expectTypeOf<IndexUpTo<3>>().toEqualTypeOf<1 | 2 | 3>();
    expectTypeOf<IndexUpTo<number>>().toEqualTypeOf<1 | 2 | 3 | 4 | 5 | 6>();
  });

  it('spells matrix indexes as positive integer literals up to the target count', () => {
    expectTypeOf(matrix.where('backlinks_counts[6]', '>', 0)).toEqualTypeOf<Filter<'matrix'>>();
    expectTypeOf(matrix3.where('backlinks_counts[3]', '>=', 1)).toEqualTypeOf<Filter<'matrix'>>();
    expectTypeOf<keyof FilterFields<'matrix', 2>>().toEqualTypeOf<
      'domain' | 'domain_score' | 'ip_address' | 'country' | 'matches_count' | 'backlinks_counts[1]' | 'backlinks_counts[2]'
    >();
    const urls: string[] = ['a.com', 'b.com'];
    const runtimeCount = filterFor('matrix', { targets: urls.length });
    expectTypeOf(runtimeCount.where('backlinks_counts[6]', '>', 0)).toEqualTypeOf<Filter<'matrix'>>();
  });

  it('combines filters of one operation, nested', () => {
    const a = links.where('domain_score', '>', 50);
    const b = links.like('anchor', '%seo%');
    expectTypeOf(a.and(b.or(links.where('is_nofollow', '=', false)))).toEqualTypeOf<Filter<'links'>>();
    expectTypeOf(links.and(a, b)).toEqualTypeOf<Filter<'links'>>();
    expectTypeOf(links.or(a, links.and(a, b))).toEqualTypeOf<Filter<'links'>>();
    expectTypeOf(a.toAst()).toEqualTypeOf<FilterNode>();
    expectTypeOf(a.toString()).toEqualTypeOf<string>();
  });

  it('accepts a run-time operation name and checks it at run time', () => {
    const name: string = 'links';
    const dynamic = filterFor(name);
    expectTypeOf(dynamic).toEqualTypeOf<DynamicFilterBuilder>();
    expectTypeOf(dynamic.where('anything', '>', 1)).toEqualTypeOf<Filter<string>>();
  });

  it('builds a realistic 20-condition filter without deep instantiation', () => {
    const f = filterFor('links');
    const filter = f
      .where('domain_score', '>', 50)
      .and(f.where('page_score', '>=', 10))
      .and(f.where('response_code', '=', 200))
      .and(f.where('is_nofollow', '=', false))
      .and(f.where('is_sponsored', '!=', true))
      .and(f.where('is_ugc', '=', false))
      .and(f.where('is_lost', '=', false))
      .and(f.like('anchor', '%seo%').or(f.like('anchor', '%backlink%')).or(f.where('anchor', '=', "it's")))
      .and(f.notLike('source_url', '%/tag/%'))
      .and(f.where('first_seen_at', '>=', '2024-01'))
      .and(f.where('last_seen_at', '<', '2026-11-01T00:00'))
      .and(f.where('lang', '=', 'en').or(f.where('lang', '=', 'de')))
      .and(f.where('external_links_count', '<', 100))
      .and(f.where('internal_links_count', '<=', 500))
      .and(f.where('source_size', '>', 1024))
      .and(f.where('ip_address', 'NOT LIKE', '10.%'))
      .and(f.where('is_image', '=', false));
    expectTypeOf(filter).toEqualTypeOf<Filter<'links'>>();
  });
});

describe('misuse is a compile error', () => {
  it('rejects operations without a filter and unknown operations', () => {
    // @ts-expect-error overview takes no filter
    filterFor('overview');
    // @ts-expect-error competitors takes no filter
    filterFor('competitors');
    // @ts-expect-error a misspelt operation
    filterFor('link');
    // @ts-expect-error targets are a matrix option only
    filterFor('links', { targets: 2 });
  });

  it('rejects fields of other operations and misspelt fields', () => {
    // @ts-expect-error misspelt
    links.where('domain_scor', '>', 50);
    // @ts-expect-error a field of ref-ips, not of anchors
    anchors.where('ip_address', '=', '1.2.3.4');
    // @ts-expect-error names are case-sensitive
    links.where('Domain_Score', '>', 50);
    // @ts-expect-error backlinks_counts is a matrix field
    links.where('backlinks_counts[1]', '>', 1);
  });

  it('rejects LIKE and NOT LIKE on fields that are not text', () => {
    // @ts-expect-error LIKE on an integer
    links.where('domain_score', 'LIKE', '5%');
    // @ts-expect-error NOT LIKE on a boolean
    links.where('is_nofollow', 'NOT LIKE', 'true');
    // @ts-expect-error like() on an integer
    links.like('domain_score', '%5');
    // @ts-expect-error notLike() on a boolean
    links.notLike('is_new', '%');
    // @ts-expect-error like() on a matrix count
    matrix.like('backlinks_counts[1]', '%');
  });

  it('rejects ordering operators on booleans', () => {
    // @ts-expect-error > on a boolean
    links.where('is_nofollow', '>', true);
    // @ts-expect-error <= on a boolean
    links.where('is_lost', '<=', false);
  });

  it('rejects values of the wrong type', () => {
    // @ts-expect-error a string for an integer
    links.where('domain_score', '>', '50');
    // @ts-expect-error a boolean for an integer
    links.where('domain_score', '=', true);
    // @ts-expect-error a string for a boolean
    links.where('is_nofollow', '=', 'false');
    // @ts-expect-error a number for a boolean
    links.where('is_nofollow', '=', 0);
    // @ts-expect-error a number for a string
    links.where('anchor', '=', 5);
    // @ts-expect-error a number for a timestamp
    links.where('first_seen_at', '>', 2024);
    // @ts-expect-error a number as a LIKE pattern
    links.like('anchor', 5);
    // @ts-expect-error an operator that does not exist
    links.where('domain_score', '==', 5);
  });

  it('allows backlinks_counts only with an index in range, and only on matrix', () => {
    // @ts-expect-error no index
    matrix.where('backlinks_counts', '>', 1);
    // @ts-expect-error index 0
    matrix.where('backlinks_counts[0]', '>', 1);
    // @ts-expect-error index 7: matrix takes at most 6 targets
    matrix.where('backlinks_counts[7]', '>', 1);
    // @ts-expect-error index 4 with 3 targets
    matrix3.where('backlinks_counts[4]', '>', 1);
    // @ts-expect-error not a positive integer
    matrix.where('backlinks_counts[1.5]', '>', 1);
    // @ts-expect-error an index on a scalar field
    matrix.where('domain_score[1]', '>', 1);
    // @ts-expect-error a string for a count
    matrix.where('backlinks_counts[1]', '>', '1');
  });

  it('never mixes filters of different operations', () => {
    const a = links.where('domain_score', '>', 50);
    const b = anchors.like('anchor', '%seo%');
    // @ts-expect-error anchors filter inside a links filter
    a.and(b);
    // @ts-expect-error same, through the builder
    links.or(a, b);
    // @ts-expect-error and() needs at least one filter
    links.and();
  });
});
