/**
 * "Did you mean": the closest name, only when close enough.
 */
import { describe, expect, it } from 'vitest';
import { operations } from '../../../src/index.js';
import { didYouMean, suggest } from '../../../src/shared/suggest.js';

const links = Object.keys(operations.links.record);

describe('suggest', () => {
  it.each([
    ['domain_scor', 'domain_score'],
    ['domian_score', 'domain_score'],
    ['Domain_Score', 'domain_score'],
    ['DOMAIN_SCORE', 'domain_score'],
    ['IS_NOFOLLOW', 'is_nofollow'],
    ['ancor', 'anchor'],
    ['anchr', 'anchor'],
    ['is_nofolow', 'is_nofollow'],
    ['lnag', 'lang'],
    ['first_seen', 'first_seen_at'],
  ])('%s -> %s', (name, expected) => {
    expect(suggest(name, links)).toBe(expected);
  });

  it.each(['_x', 'xyzzy', 'score', 'domain', 'a', 'country', 'x'.repeat(65), ''])('has nothing close for %j', (name) => {
    expect(suggest(name, links)).toBeUndefined();
  });

  it('prefers an exact case-insensitive match over a closer edit', () => {
    expect(suggest('AB', ['ab', 'Ax'])).toBe('ab');
  });

  it('finds nothing among no candidates', () => {
    expect(suggest('anchor', [])).toBeUndefined();
  });

  it('takes the same words in another order for that name', () => {
    expect(suggest('url_source', links)).toBe('source_url');
    expect(suggest('score_domain', links)).toBe('domain_score');
    expect(suggest('url_from', links)).toBeUndefined();
  });

  it('prefers, between equally close names, the one with the same first letter', () => {
    // dsc is one edit from ASC and from DESC.
    expect(suggest('dsc', ['ASC', 'DESC'], { anyCase: true })).toBe('DESC');
    expect(suggest('asd', ['ASC', 'DESC'], { anyCase: true })).toBe('ASC');
    // Otherwise the first listed.
    expect(suggest('xb', ['ab', 'cb'])).toBe('ab');
  });

  it('with anyCase, counts no case difference (an upper-case value typed in lower case)', () => {
    expect(suggest('root_domin', ['ROOT_DOMAIN', 'SUBDOMAIN', 'SUBFOLDER', 'PAGE'], { anyCase: true })).toBe('ROOT_DOMAIN');
    expect(suggest('root_domin', ['ROOT_DOMAIN', 'SUBDOMAIN', 'SUBFOLDER', 'PAGE'])).toBeUndefined();
  });
});

describe('didYouMean', () => {
  it('offers the name bare, or ends the sentence', () => {
    expect(didYouMean('links')).toBe('; did you mean links?');
    expect(didYouMean('--limit')).toBe('; did you mean --limit?');
    expect(didYouMean(undefined)).toBe('.');
    expect(didYouMean(undefined, '; the operations are a, b.')).toBe('; the operations are a, b.');
  });
});
