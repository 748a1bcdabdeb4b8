/**
 * One rule set, one set of codes: the same mistake, made in the client's typed values and in the
 * server's query string, is refused with the same parameter, the same rule code and the same
 * message on both sides. Every expectation below is written by hand from the interface (limits,
 * counts, month bounds) and the issue (the codes to agree on).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { OperationName } from '../../../src/catalogue/operations.js';
import { PARAMETER_RULE_CODES, targetHost } from '../../../src/catalogue/rules.js';
import { checkParams } from '../../../src/client/params.js';
import { isParameterError } from '../../../src/errors/filter-error.js';
import { validateRequest } from '../../../src/server/validation/validate-request.js';
import { splitHostPath } from '../../../src/server/target.js';

// The current month is 2026-11 on both sides.
const NOW = Date.UTC(2026, 10, 22, 12);

type Refusal = { parameter: string; rule: string; message: string };

function clientRefusal(operation: OperationName, params: Record<string, unknown>): Refusal | undefined {
  try {
    checkParams(operation, params, NOW);
    return undefined;
  } catch (error) {
    if (!isParameterError(error)) throw error;
    return { parameter: error.parameter, rule: error.code, message: error.message };
  }
}

function serverRefusal(operation: string, query: Record<string, string>): Refusal | undefined {
  const result = validateRequest(operation, query, { now: new Date(NOW) });
  if (result.ok) return undefined;
  const [first] = result.body.error.details;
  return { parameter: first!.parameter!, rule: first!.rule!, message: first!.message };
}

const site = { url: 'example.com', scope: 'ROOT_DOMAIN' };
const keyword = { keyword: 'shoes', country: 'US' };
const hosts = (n: number) => Array.from({ length: n }, (_, i) => `s${i + 1}.com`);

// [mistake, operation, client params, server query, parameter, rule, message]
const MISTAKES: Array<[string, OperationName, Record<string, unknown>, Record<string, string>, string, string, string]> = [
  ['limit 0', 'links', { ...site, limit: 0 }, { ...site, limit: '0' }, 'limit', 'too_small', 'limit must be at least 1, not 0.'],
  ['offset -1', 'pages', { ...site, offset: -1 }, { ...site, offset: '-1' }, 'offset', 'too_small', 'offset must be at least 0, not -1.'],
  ['limit 1.5', 'links', { ...site, limit: 1.5 }, { ...site, limit: '1.5' }, 'limit', 'not_an_integer', 'limit must be a whole number written in digits, not 1.5.'],
  ['7 urls on matrix', 'matrix', { urls: hosts(7), scope: 'PAGE' }, { urls: hosts(7).join(','), scope: 'PAGE' }, 'urls', 'too_many_items', 'urls takes at most 6 items, not 7.'],
  ['11 urls on comparison', 'comparison', { urls: hosts(11), scope: 'PAGE' }, { urls: hosts(11).join(','), scope: 'PAGE' }, 'urls', 'too_many_items', 'urls takes at most 10 items, not 11.'],
  ['date_from after date_to', 'summary', { ...site, date_from: '2024-05', date_to: '2024-01' }, { ...site, date_from: '2024-05', date_to: '2024-01' }, 'date_from', 'invalid_range', 'date_from (2024-05) is after date_to (2024-01).'],
  ['date_from after the current month', 'summary', { ...site, date_from: '2027-01' }, { ...site, date_from: '2027-01' }, 'date_from', 'invalid_range', 'date_from (2027-01) is after date_to (2026-11, the current month).'],
  ['month 2024-5', 'metrics', { ...keyword, month: '2024-5' }, { ...keyword, month: '2024-5' }, 'month', 'invalid_month', 'month must be a month written YYYY-MM, not "2024-5".'],
  ['month before 2012-01', 'metrics', { ...keyword, month: '2011-12' }, { ...keyword, month: '2011-12' }, 'month', 'too_early', 'month must be 2012-01 or later, not 2011-12.'],
  ['month after the current month', 'metrics', { ...keyword, month: '2026-12' }, { ...keyword, month: '2026-12' }, 'month', 'too_late', 'month must be 2026-11 (the current month) or earlier, not 2026-12.'],
  ['url missing', 'links', { scope: 'PAGE' }, { scope: 'PAGE' }, 'url', 'required', 'links needs the parameter url.'],
  ['url empty', 'links', { ...site, url: '' }, { ...site, url: '' }, 'url', 'required', 'links needs the parameter url.'],
  ['url of 2001 characters', 'links', { ...site, url: 'a'.repeat(2001) }, { ...site, url: 'a'.repeat(2001) }, 'url', 'too_long', 'url must have at most 2000 characters, not 2001.'],
  ['url without a host', 'links', { ...site, url: 'https:///path' }, { ...site, url: 'https:///path' }, 'url', 'invalid_url', 'url has no valid host name.'],
  ['an item of urls of 2001 characters', 'matrix', { urls: ['a.com', 'b'.repeat(2001)], scope: 'PAGE' }, { urls: `a.com,${'b'.repeat(2001)}`, scope: 'PAGE' }, 'urls', 'too_long', 'urls item 2 must have at most 2000 characters, not 2001.'],
  ['an empty item of urls', 'comparison', { urls: ['a.com', ''], scope: 'PAGE' }, { urls: 'a.com,', scope: 'PAGE' }, 'urls', 'empty_item', 'urls item 2 is empty.'],
  ['keyword of 256 characters', 'metrics', { ...keyword, keyword: 'k'.repeat(256) }, { ...keyword, keyword: 'k'.repeat(256) }, 'keyword', 'too_long', 'keyword must have at most 255 characters, not 256.'],
  ['scope in lower case', 'links', { ...site, scope: 'root_domain' }, { ...site, scope: 'root_domain' }, 'scope', 'invalid_value', 'scope must be one of ROOT_DOMAIN, SUBDOMAIN, SUBFOLDER, PAGE, not "root_domain"; did you mean ROOT_DOMAIN?'],
  ['SUBFOLDER on summary', 'summary', { ...site, scope: 'SUBFOLDER' }, { ...site, scope: 'SUBFOLDER' }, 'scope', 'invalid_value', 'scope must be one of ROOT_DOMAIN, SUBDOMAIN, PAGE, not "SUBFOLDER".'],
  ['csv on matrix', 'matrix', { urls: ['a.com'], scope: 'PAGE', format: 'csv' }, { urls: 'a.com', scope: 'PAGE', format: 'csv' }, 'format', 'invalid_value', 'format must be json (the only value matrix takes), not "csv".'],
  ['an unknown parameter', 'links', { ...site, limt: 5 }, { ...site, limt: '5' }, 'limt', 'unknown_parameter', 'links takes no parameter limt; did you mean limit?'],
  ['an unknown field', 'links', { ...site, fields: ['anchor', 'domain_scor'] }, { ...site, fields: 'anchor,domain_scor' }, 'fields', 'unknown_field', 'links has no field "domain_scor" (in fields); did you mean domain_score?'],
  ['order_by not returned', 'links', { ...site, fields: ['anchor'], order_by: 'domain_score' }, { ...site, fields: 'anchor', order_by: 'domain_score' }, 'order_by', 'not_returned', 'order_by must be one of the returned fields (anchor), not domain_score.'],
  ['order_by on an array', 'matrix', { urls: ['a.com'], scope: 'PAGE', order_by: 'backlinks_counts' }, { urls: 'a.com', scope: 'PAGE', order_by: 'backlinks_counts' }, 'order_by', 'not_sortable', 'order_by cannot be backlinks_counts: it is an array.'],
];

describe('the same mistake gets the same rule and message from the client and the server', () => {
  it.each(MISTAKES)('%s', (_, operation, params, query, parameter, rule, message) => {
    const expected = { parameter, rule, message };
    expect(clientRefusal(operation, params)).toEqual(expected);
    expect(serverRefusal(operation, query)).toEqual(expected);
  });
});

describe('accepted alike on both sides', () => {
  const CASES: Array<[string, OperationName, Record<string, unknown>, Record<string, string>]> = [
    ['format=json on matrix', 'matrix', { urls: ['a.com', 'b.com'], scope: 'PAGE', format: 'json' }, { urls: 'a.com,b.com', scope: 'PAGE', format: 'json' }],
    ['fields on score-profile', 'score-profile', { ...site, fields: ['domain_score', 'domains_count'] }, { ...site, fields: 'domain_score,domains_count' }],
    ['country in lower case', 'metrics', { keyword: 'shoes', country: 'uk' }, { keyword: 'shoes', country: 'uk' }],
    ['limit 1, offset 0', 'links', { ...site, limit: 1, offset: 0 }, { ...site, limit: '1', offset: '0' }],
    ['6 urls on matrix', 'matrix', { urls: hosts(6), scope: 'PAGE' }, { urls: hosts(6).join(','), scope: 'PAGE' }],
    ['month 2012-01 and the current month', 'summary', { ...site, date_from: '2012-01', date_to: '2026-11' }, { ...site, date_from: '2012-01', date_to: '2026-11' }],
  ];
  it.each(CASES)('%s', (_, operation, params, query) => {
    expect(clientRefusal(operation, params)).toBeUndefined();
    expect(serverRefusal(operation, query)).toBeUndefined();
  });

  it('both take a country in any case as its upper-case code', () => {
    expect(checkParams('metrics', { keyword: 'shoes', country: 'uk' }, NOW).get('country')).toBe('UK');
    const result = validateRequest('metrics', { keyword: 'shoes', country: 'us' }, { now: new Date(NOW) });
    expect(result.ok && result.params.country).toBe('US');
  });
});

describe('the rule codes', () => {
  const CODES = [
    'bad_encoding', 'empty_item', 'invalid_month', 'invalid_range', 'invalid_type', 'invalid_url', 'invalid_value', 'not_an_integer', 'not_returned',
    'not_sortable', 'repeated_parameter', 'required', 'too_early', 'too_few_items', 'too_large', 'too_late', 'too_long', 'too_many_items',
    'too_short', 'too_small', 'unknown_field', 'unknown_operation', 'unknown_parameter',
  ];

  it('are one set', () => {
    expect([...PARAMETER_RULE_CODES].sort()).toEqual([...CODES].sort());
  });

  it('are each a row of the table in docs/server.md', () => {
    const docs = readFileSync(new URL('../../../docs/server.md', import.meta.url), 'utf8');
    const section = docs.slice(docs.indexOf('### Parameter rules'), docs.indexOf('## Limits'));
    const rows = [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]).filter((code) => code !== 'rule'); // the header row
    expect(rows.sort()).toEqual([...CODES].sort());
  });

  it('read a target host (the server splits targets with the same function)', () => {
    const expected: [string, string | undefined][] = [
      ['example.com', 'example.com'], ['https://Blog.Example.com:8080/a?b#c', 'blog.example.com'], ['user@host.io', 'host.io'], ['host.', 'host'],
      ['https:///path', undefined], ['', undefined], ['.a.com', undefined], ['a..com', undefined], ['http://', undefined], ['exa mple.com', undefined],
      ['münchen.de/x', 'münchen.de'],
    ];
    for (const [url, host] of expected) {
      expect(targetHost(url), url).toBe(host);
      expect(splitHostPath(url)?.host, url).toBe(host);
    }
  });
});
