import type { Arbitrary } from 'fast-check';
import fc from 'fast-check';
import { describe, expectTypeOf, it } from 'vitest';
import type { FilterNode } from '../../src/ast/nodes.js';
import {
  filterAstArbitrary,
  filterCaseArbitrary,
  filterTextArbitrary,
  invalidFilterArbitrary,
  valuePools,
  type FilterCase,
  type InvalidFilterCase,
} from '../../src/testing/index.js';

describe('backlink-query/testing types', () => {
  it('types each arbitrary', () => {
    expectTypeOf(filterAstArbitrary('links')).toEqualTypeOf<Arbitrary<FilterNode>>();
    expectTypeOf(filterTextArbitrary('matrix', { targets: 2, maxLength: 500 })).toEqualTypeOf<Arbitrary<string>>();
    expectTypeOf(filterCaseArbitrary('anchors')).toEqualTypeOf<Arbitrary<FilterCase>>();
    expectTypeOf(invalidFilterArbitrary('overview', { codes: ['filter_not_allowed'] })).toEqualTypeOf<Arbitrary<InvalidFilterCase>>();
  });

  it('takes pools per type or per field (valuePools)', () => {
    filterAstArbitrary('links', { pools: { string: fc.constant('seo'), integer: fc.nat(), timestamp: fc.constant('2024-05-01T00:00:00') } });
    filterAstArbitrary('anchors', { pools: valuePools([{ anchor: 'seo', backlinks_count: 3 }]) });
    // @ts-expect-error a number pool for strings
    filterAstArbitrary('links', { pools: { string: fc.nat() } });
    // @ts-expect-error no such issue code
    invalidFilterArbitrary('links', { codes: ['no_such_code'] });
  });
});
