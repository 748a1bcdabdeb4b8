import { describe, expect, it } from 'vitest';
import { FilterError, isFilterError, isParameterError, parseFilter, stripSpans } from '../../../src/index.js';
import { Filter, filterFor } from '../../../src/builder/index.js';

const f = filterFor('links');

/** The issue codes of a FilterError, or the parameter and code of a ParameterError, thrown by `thunk`. */
function failure(thunk: () => unknown): string {
  try {
    thunk();
  } catch (error) {
    if (isFilterError(error)) return error.issues.map((i) => i.code).join(',');
    if (isParameterError(error)) return `${error.parameter}:${error.code}`;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('filterFor', () => {
  it('builds the suggested example, in the parser shape, printed canonically', () => {
    const filter = f.where('domain_score', '>', 50).and(f.like('anchor', '%seo%').or(f.where('is_nofollow', '=', false)));
    const text = "domain_score > 50 AND (anchor LIKE '%seo%' OR is_nofollow = false)";
    expect(filter.toString()).toBe(text);
    expect(String(filter)).toBe(text);
    expect(stripSpans(filter.toAst())).toEqual(stripSpans(parseFilter(text, { operation: 'links' })));
    expect(filter.toAst().span).toEqual({ offset: 0, length: 0 });
  });

  it('flattens nested groups of the same operator and keeps single operands bare', () => {
    const [a, b, c] = [f.where('page_score', '>', 1), f.where('page_score', '>', 2), f.where('page_score', '>', 3)];
    const chained = a.and(b).and(c).toAst();
    expect(chained.kind === 'And' && chained.operands.length).toBe(3);
    expect(f.and(a, f.and(b, c)).toString()).toBe('page_score > 1 AND page_score > 2 AND page_score > 3');
    expect(f.or(a.or(b), c).toString()).toBe('page_score > 1 OR page_score > 2 OR page_score > 3');
    expect(f.and(a.or(b), c).toString()).toBe('(page_score > 1 OR page_score > 2) AND page_score > 3');
    expect(f.or(a.and(b), c).toString()).toBe('page_score > 1 AND page_score > 2 OR page_score > 3');
    expect(f.all([a]).toAst()).toBe(a.toAst());
  });

  it('is immutable: combining returns new filters and leaves the parts as they were', () => {
    const a = f.where('domain_score', '>', 50);
    const before = a.toString();
    const both = a.and(f.where('is_lost', '=', false));
    expect(both).not.toBe(a);
    expect(a.toString()).toBe(before);
    expect(Object.isFrozen(a)).toBe(true);
    expect(Object.isFrozen(f)).toBe(true);
    expect(Object.isFrozen(both.toAst())).toBe(true);
  });

  it.each([
    ["it's", "anchor = 'it\\'s'"],
    ['C:\\dir\\', "anchor = 'C:\\\\dir\\\\'"],
    ['say "hi"', `anchor = 'say "hi"'`],
    ["\\'", "anchor = '\\\\\\''"],
    ['', "anchor = ''"],
    ['line\nbreak', "anchor = 'line\nbreak'"],
  ])('escapes %j correctly', (value, text) => {
    const filter = f.where('anchor', '=', value);
    expect(filter.toString()).toBe(text);
    const parsed = parseFilter(filter.toString(), { operation: 'links' });
    expect(parsed.kind === 'Comparison' && parsed.value.value).toBe(value);
  });

  it('builds <> as != and -0 as 0, and accepts LIKE through where', () => {
    expect(f.where('is_new', '<>', true).toString()).toBe('is_new != true');
    expect(f.where('domain_score', '=', -0).toString()).toBe('domain_score = 0');
    expect(f.where('page_score', '<', 0.0000001).toString()).toBe('page_score < 0.0000001');
    expect(f.where('anchor', 'NOT LIKE', '%a%').toString()).toBe("anchor NOT LIKE '%a%'");
    expect(f.notLike('first_seen_at', '2024-%').toString()).toBe("first_seen_at NOT LIKE '2024-%'");
  });

  it('spells matrix indexes in the field name and checks them against the targets', () => {
    const m = filterFor('matrix', { targets: 2 });
    expect(m.where('backlinks_counts[2]', '>=', 1).and(m.where('domain', '=', 'a.com')).toString()).toBe(
      "backlinks_counts[2] >= 1 AND domain = 'a.com'",
    );
    const six = filterFor('matrix');
    const combined = six.where('backlinks_counts[5]', '>', 0).and(filterFor('matrix', { targets: 2 }).where('domain_score', '>', 1));
    expect(failure(() => combined.toAst())).toBe('index_out_of_range');
  });

  it('parses text and takes ASTs for the same operation, to combine with built conditions', () => {
    const text = f.parse('domain_score>50 or IS_NEW = TRUE'.replace('IS_NEW', 'is_new')).and(f.where('is_lost', '=', false));
    expect(text.toString()).toBe('(domain_score > 50 OR is_new = true) AND is_lost = false');
    expect(f.fromAst(parseFilter('anchor like "x"')).toString()).toBe("anchor LIKE 'x'");
    expect(failure(() => f.parse('domain_scor > 1'))).toBe('unknown_field');
    expect(failure(() => f.fromAst(parseFilter('backlinks_counts[1] > 1')))).toBe('unknown_field');
  });

  it('checks limits when the filter is taken out', () => {
    const one = f.where('domain_score', '>', 1);
    const many = f.all(Array.from({ length: 101 }, () => one));
    expect(failure(() => many.toAst())).toBe('too_many_conditions');
    expect(failure(() => many.toString())).toBe('too_many_conditions');
    const roomy = filterFor('links', { limits: { maxConditions: 200 } });
    expect(roomy.all(Array.from({ length: 101 }, () => roomy.where('domain_score', '>', 1))).toAst().kind).toBe('And');
    let deep = one;
    // Each OR-then-AND pair adds one level of parentheses: 70 steps nest 35 deep.
    for (let i = 0; i < 70; i++) deep = i % 2 === 0 ? deep.or(one) : deep.and(one);
    expect(failure(() => deep.toAst())).toBe('too_deep');
  });

  describe('the text limit: at most 4,096 characters (UTF-16 units) of filter text', () => {
    /** The error thrown by `thunk`. */
    const thrown = (thunk: () => unknown): unknown => {
      try {
        thunk();
      } catch (error) {
        return error;
      }
      throw new Error('expected a failure');
    };

    it('passes a built filter of exactly 4,096 characters', () => {
      // "anchor = ''" is 11 characters; 4,085 more make 4,096.
      const filter = f.where('anchor', '=', 'x'.repeat(4085));
      expect(filter.toString()).toHaveLength(4096);
    });

    it('refuses one of 4,097 with the error the parser gives for that text', () => {
      const filter = f.where('anchor', '=', 'x'.repeat(4086));
      const text = `anchor = '${'x'.repeat(4086)}'`;
      const error = thrown(() => filter.toString());
      expect(error).toBeInstanceOf(FilterError);
      expect((error as FilterError).issues).toEqual([
        { code: 'too_long', offset: 4096, length: 1, line: 1, column: 4097, expected: '4096', message: 'The filter is too long: 4097 characters, at most 4096 allowed.' },
      ]);
      expect((error as FilterError).text).toBe(text);
      const parsed = thrown(() => parseFilter(text, { operation: 'links' }));
      expect(error).toEqual(parsed);
      expect((error as FilterError).message).toBe((parsed as FilterError).message);
      expect(failure(() => filter.toAst())).toBe('too_long');
    });

    it('counts the text that is sent: escapes included', () => {
      // 4,085 characters with one quote, escaped as \' in the canonical text: 4,097 in all.
      const filter = f.where('anchor', '=', `${'x'.repeat(4084)}'`);
      expect(failure(() => filter.toString())).toBe('too_long');
    });

    it('checks the whole of a combined filter, whose conditions are each short', () => {
      // 50 conditions of 91 characters joined by " AND ": 50 × 91 + 49 × 5 = 4,795 characters.
      const parts = Array.from({ length: 50 }, (_, i) => f.where('anchor', '=', String(i).padStart(80, 'x')));
      expect(failure(() => f.all(parts).toString())).toBe('too_long');
      expect(f.all(parts.slice(0, 40)).toString()).toHaveLength(40 * 91 + 39 * 5);
    });

    it('follows a configured limit', () => {
      const small = filterFor('links', { limits: { maxLength: 20 } });
      expect(failure(() => small.where('anchor', '=', '0123456789').toString())).toBe('too_long'); // 21 characters
      expect(small.where('anchor', '=', '012345678').toString()).toBe("anchor = '012345678'"); // 20 characters
    });
  });
});

describe('run-time checks', () => {
  const dynamic = filterFor('links' as string);
  it.each<[string, () => unknown, string]>([
    ['a misspelt field', () => dynamic.where('domain_scor', '>', 1), 'unknown_field'],
    ['a field of another operation', () => dynamic.where('backlinks_counts[1]', '>', 1), 'unknown_field'],
    ['a string for an integer', () => dynamic.where('domain_score', '>', '1'), 'literal_type_mismatch'],
    ['a number for a boolean', () => dynamic.where('is_new', '=', 1), 'literal_type_mismatch'],
    ['LIKE on an integer', () => dynamic.where('domain_score', 'LIKE', '1'), 'operator_not_allowed'],
    ['like() on a boolean', () => dynamic.like('is_new', '%'), 'operator_not_allowed'],
    ['> on a boolean', () => dynamic.where('is_new', '>', true), 'operator_not_allowed'],
    ['an index on a scalar', () => dynamic.where('domain_score[1]', '>', 1), 'index_not_allowed'],
    ['an invalid timestamp', () => f.where('first_seen_at', '>', '2024-02-30'), 'invalid_timestamp'],
    ['an empty timestamp', () => f.where('last_seen_at', '<', ''), 'invalid_timestamp'],
    ['NaN', () => f.where('domain_score', '>', Number.NaN), 'invalid_number'],
    ['Infinity', () => f.where('domain_score', '>', Number.POSITIVE_INFINITY), 'number_out_of_range'],
    ['2^53', () => f.where('domain_score', '>', 2 ** 53), 'number_out_of_range'],
    ['no index on matrix', () => filterFor('matrix' as string).where('backlinks_counts', '>', 1), 'index_required'],
    ['index 0', () => filterFor('matrix' as string).where('backlinks_counts[0]', '>', 1), 'index_out_of_range'],
    ['index past the targets', () => filterFor('matrix' as string, { targets: 2 }).where('backlinks_counts[3]', '>', 1), 'index_out_of_range'],
    ['an operation without filter', () => filterFor('overview' as string), 'filter_not_allowed'],
    ['an unknown operation', () => filterFor('backlinks' as string), 'operation:unknown_operation'],
    ['seven targets', () => filterFor('matrix', { targets: 7 }), 'targets:too_large'],
    ['an unknown operator', () => dynamic.where('domain_score', '==' as never, 1), 'operator:invalid_value'],
    ['null as a value', () => dynamic.where('domain_score', '=', null as unknown as number), 'value:invalid_value'],
    ['a number as a pattern', () => dynamic.like('anchor', 5 as unknown as string), 'pattern:invalid_value'],
    ['an empty list', () => dynamic.all([]), 'filters:required'],
    ['filters of two operations', () => dynamic.where('domain_score', '>', 1).and(filterFor('anchors' as string).like('anchor', '%') as never), 'filters:invalid_value'],
    ['a filter not built here', () => dynamic.and({} as Filter<string>), 'filters:invalid_value'],
  ])('rejects %s', (_, thunk, expected) => {
    expect(failure(thunk)).toBe(expected);
  });

  it('places the issue in the text of the condition', () => {
    try {
      f.where('first_seen_at', '>=', '2024-13');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(FilterError);
      const { issues, text } = error as FilterError;
      expect(text).toBe("first_seen_at >= '2024-13'");
      expect(issues[0]).toMatchObject({ code: 'invalid_timestamp', offset: 17, length: 9 });
    }
  });

  // Canonical text written by hand from the language's "Canonical text" rules: single spaces, upper-case
  // keywords, lower-case booleans, `!=` for `<>`, single quotes with `'` and `\` escaped, shortest
  // numbers without exponent, parentheses only for an OR inside an AND, same-operator groups flattened.
  it.each<[string, () => Filter<string>, string]>([
    ['an OR of two conditions', () => dynamic.where('anchor', '=', 'x').or(dynamic.where('domain_score', '>', 1)), "anchor = 'x' OR domain_score > 1"],
    ['<> as != and booleans in lower case', () => dynamic.where('is_nofollow', '<>', true).and(dynamic.where('is_lost', '=', false)), 'is_nofollow != true AND is_lost = false'],
    ['quotes and backslashes escaped in single quotes', () => dynamic.where('anchor', '=', `it's "C:\\x"`), `anchor = 'it\\'s "C:\\\\x"'`],
    ['LIKE and NOT LIKE in upper case', () => dynamic.like('anchor', '%seo%').and(dynamic.where('source_url', 'NOT LIKE', '%/tag/%')), "anchor LIKE '%seo%' AND source_url NOT LIKE '%/tag/%'"],
    ['numbers in their shortest form, no exponent', () => dynamic.any([dynamic.where('page_score', '<', 0.0000001), dynamic.where('page_score', '>=', 5.0), dynamic.where('domain_score', '=', -0), dynamic.where('source_size', '>', 9007199254740991), dynamic.where('page_score', '<=', -12.25)]), 'page_score < 0.0000001 OR page_score >= 5 OR domain_score = 0 OR source_size > 9007199254740991 OR page_score <= -12.25'],
    ['parentheses for an OR inside an AND only', () => dynamic.all([dynamic.any([dynamic.where('domain_score', '>', 50), dynamic.where('is_new', '=', true)]), dynamic.where('lang', '=', 'en')]), "(domain_score > 50 OR is_new = true) AND lang = 'en'"],
    ['no parentheses for an AND inside an OR', () => dynamic.any([dynamic.all([dynamic.where('domain_score', '>', 50), dynamic.where('is_new', '=', true)]), dynamic.where('lang', '=', 'en')]), "domain_score > 50 AND is_new = true OR lang = 'en'"],
    ['same-operator groups flattened', () => dynamic.and(dynamic.where('page_score', '>', 1), dynamic.and(dynamic.where('page_score', '>', 2), dynamic.where('page_score', '>', 3))), 'page_score > 1 AND page_score > 2 AND page_score > 3'],
    ['timestamps as quoted text', () => dynamic.where('first_seen_at', '>=', '2024-05-01T10:30'), "first_seen_at >= '2024-05-01T10:30'"],
    ['a matrix index in brackets, no spaces inside', () => filterFor('matrix' as string, { targets: 3 }).where('backlinks_counts[3]', '>=', 1), 'backlinks_counts[3] >= 1'],
  ])('prints %s canonically (text written by hand)', (_, build, text) => {
    const filter = build();
    expect(filter.toString()).toBe(text);
    expect(String(filter)).toBe(text);
  });

  it('keeps the operation of a dynamic builder', () => {
    expect(dynamic.where('anchor', '=', 'x').operation).toBe('links');
  });
});
