/**
 * The generated-filter workload of `npm run bench:server` (bench/server/generated.ts, issue 51
 * item 4): the same seed gives the same requests; the requests cover every text field of each
 * operation, every scope and every kind of text condition, with 1-4 conditions; words come from
 * the field's own values. Text fields, scopes, words and targets below are written by hand from the
 * catalogue (docs/operations.md) and the pools given, not read from the generator.
 */
import { describe, expect, it } from 'vitest';
import type { FilterNode } from '../../../src/ast/nodes.js';
import { parseFilter } from '../../../src/syntax/parse.js';
import { generateRequests, generatorSettings, scopeTargets, wordsOf, type GeneratedRequest, type Slot } from '../../../bench/server/generated.js';

/** The text (type string) fields a filter of each operation names, from the catalogue's records. */
const TEXT_FIELDS = {
  links: ['source_url', 'target_url', 'anchor', 'redirect_url', 'source_title', 'target_title', 'image_url', 'image_alt', 'ip_address', 'lang', 'source_domain'],
  'ref-domains': ['domain', 'ip_address', 'country'],
  anchors: ['anchor'],
} as const;

const SCOPES = ['ROOT_DOMAIN', 'SUBDOMAIN', 'SUBFOLDER', 'PAGE'] as const;

const URLS = ['https://www.example.com/blog/seo/tools?ref=1', 'https://shop.example.com/cart', 'https://www.example.com/blog/'];
/** By hand from URLS: per URL, its host, the folders below the host that hold it, the page. */
const NARROW = {
  SUBDOMAIN: ['www.example.com', 'shop.example.com', 'www.example.com'],
  SUBFOLDER: ['www.example.com/blog', 'www.example.com/blog/seo', 'www.example.com/blog'],
  PAGE: URLS,
};

/** Values per field; each text field has values whose words are listed in WORDS by hand. */
const POOLS = {
  fields: {
    source_url: ['https://news.site.org/story-one', 'https://blog.other.net/post'],
    target_url: URLS,
    anchor: ['best seo tools', 'click here'],
    redirect_url: ['', 'https://go.example.com/r'],
    source_title: ['Weekly News', 'Other Post'],
    target_title: ['SEO Tools'],
    image_url: ['', 'https://img.site.org/a.png'],
    image_alt: ['', 'logo'],
    ip_address: ['10.0.0.1', '192.168.100.200'],
    lang: ['en', 'de'],
    source_domain: ['site.org', 'other.net'],
    domain: ['site.org', 'other.net'],
    country: ['US', 'DE'],
    domain_score: [10, 50],
    page_score: [3, 70],
    backlinks_count: [1, 12],
    domains_count: [1, 4],
    first_seen_at: ['2024-01-02T03:04:05'],
    last_seen_at: ['2026-05-06T07:08:09'],
  },
};

/** Words (runs of letters and digits, 3 or more) of each field's values in POOLS, by hand. */
const WORDS: Record<string, readonly string[]> = {
  source_url: ['https', 'news', 'site', 'org', 'story', 'one', 'blog', 'other', 'net', 'post'],
  target_url: ['https', 'www', 'example', 'com', 'blog', 'seo', 'tools', 'ref', 'shop', 'cart'],
  anchor: ['best', 'seo', 'tools', 'click', 'here'],
  redirect_url: ['https', 'example', 'com'],
  source_title: ['Weekly', 'News', 'Other', 'Post'],
  target_title: ['SEO', 'Tools'],
  image_url: ['https', 'img', 'site', 'org', 'png'],
  image_alt: ['logo'],
  ip_address: ['192', '168', '100', '200'],
  source_domain: ['site', 'org', 'other', 'net'],
  domain: ['site', 'org', 'other', 'net'],
};

const slots: Slot[] = ['example.com', 'other.com'].flatMap((target) =>
  (['links', 'ref-domains', 'anchors'] as const).map((operation) => ({ operation, target, pools: POOLS, scopes: NARROW })),
);

/** The conditions of a filter, in order. */
function conditions(node: FilterNode): FilterNode[] {
  return node.kind === 'And' || node.kind === 'Or' ? node.operands.flatMap(conditions) : [node];
}

/** The text conditions of a request: on a string field, a LIKE or a comparison with a string. */
function textConditions(request: GeneratedRequest) {
  const fields = TEXT_FIELDS[request.operation] as readonly string[];
  return conditions(parseFilter(request.filter, { operation: request.operation })).flatMap((c) => {
    if (c.kind === 'Like' && fields.includes(c.field.name)) return [{ field: c.field.name, kind: c.negated ? 'not-like' : 'like', text: c.pattern.value }];
    if (c.kind === 'Comparison' && c.value.kind === 'String' && fields.includes(c.field.name) && (c.operator === '=' || c.operator === '!=')) {
      return [{ field: c.field.name, kind: c.operator, text: c.value.value }];
    }
    return [];
  });
}

describe('generated filters (bench:server)', () => {
  const settings = generatorSettings(60, 7);
  const requests = generateRequests(slots, settings);

  it('finds the hosts, the folders below a host and the pages of target URLs, once per URL', () => {
    const found = scopeTargets(URLS);
    expect([...found.SUBDOMAIN]).toEqual(NARROW.SUBDOMAIN);
    expect([...found.SUBFOLDER]).toEqual(NARROW.SUBFOLDER);
    expect([...found.PAGE]).toEqual(NARROW.PAGE);
    // No URL in a folder: the hosts stand in.
    expect(scopeTargets(['https://a.example.org/x', 'http://b.example.org/'])).toEqual({
      SUBDOMAIN: ['a.example.org', 'b.example.org'],
      SUBFOLDER: ['a.example.org', 'b.example.org'],
      PAGE: ['https://a.example.org/x', 'http://b.example.org/'],
    });
  });

  it('splits values into words of letters and digits, three or more long', () => {
    expect(wordsOf(['best seo tools', 'SEO: a/b 10.0.0.1 déjà-vu'])).toEqual(['best', 'seo', 'tools', 'SEO', 'déjà']);
  });

  it('gives the same requests for the same seed and pools, and others for another seed', () => {
    expect(generateRequests(slots, settings)).toEqual(requests);
    const other = generateRequests(slots, generatorSettings(60, 8));
    expect(other.map((r) => r.filter)).not.toEqual(requests.map((r) => r.filter));
  });

  it('sends each filter text once, never one the server was sent', () => {
    const texts = requests.map((r) => r.filter);
    expect(new Set(texts).size).toBe(texts.length);
    const seen = new Set(texts.slice(0, 20));
    const again = generateRequests(slots, settings, seen);
    expect(again.some((r) => seen.has(r.filter))).toBe(false);
  });

  it('makes 60 cold requests one at a time, 120 ten at a time, 12 warm filters', () => {
    expect(requests.filter((r) => r.phase === 'cold-c1')).toHaveLength(60);
    expect(requests.filter((r) => r.phase === 'cold-c10')).toHaveLength(120);
    expect(requests.filter((r) => r.phase === 'warm')).toHaveLength(12);
  });

  it('has 1 to 4 conditions in each filter, and each count appears', () => {
    const counts = requests.map((r) => conditions(parseFilter(r.filter, { operation: r.operation })).length);
    expect(Math.min(...counts)).toBe(1);
    expect(Math.max(...counts)).toBe(4);
    expect(new Set(counts)).toEqual(new Set([1, 2, 3, 4]));
  });

  it('has a text condition in every filter, on every text field of each operation', () => {
    for (const operation of ['links', 'ref-domains', 'anchors'] as const) {
      const mine = requests.filter((r) => r.operation === operation);
      for (const r of mine) expect(textConditions(r).length, r.filter).toBeGreaterThan(0);
      const named = new Set(mine.flatMap((r) => textConditions(r).map((c) => c.field)));
      expect([...named].sort()).toEqual([...TEXT_FIELDS[operation]].sort());
    }
  });

  it('gives each text field its turn: the fields in turn have a text condition, in equal shares', () => {
    for (const operation of ['links', 'ref-domains', 'anchors'] as const) {
      const mine = requests.filter((r) => r.operation === operation);
      for (const r of mine) expect(textConditions(r).map((c) => c.field), r.filter).toContain(r.textField);
      const turns = new Map<string, number>();
      for (const r of mine) turns.set(r.textField, (turns.get(r.textField) ?? 0) + 1);
      expect([...turns.keys()].sort()).toEqual([...TEXT_FIELDS[operation]].sort());
      expect(Math.max(...turns.values()) - Math.min(...turns.values())).toBeLessThanOrEqual(1);
    }
  });

  it('writes every kind of text condition, LIKE words taken from the field\'s own values', () => {
    const all = requests.flatMap(textConditions);
    const shapes = new Set(
      all.map((c) => {
        if (c.kind === '=' || c.kind === '!=') return c.kind;
        const inner = c.text.startsWith('%') && c.text.endsWith('%') && c.text.length > 1;
        if (c.kind === 'not-like') return inner ? 'not contains' : 'not like';
        return inner ? 'contains' : c.text.endsWith('%') ? 'prefix' : c.text.startsWith('%') ? 'suffix' : 'exact';
      }),
    );
    for (const shape of ['contains', 'not contains', '=', '!=', 'prefix', 'suffix']) expect(shapes, shape).toContain(shape);
    // `LIKE '%word%'`: a word of that field's values (the package's arbitrary may add LIKEs cut anywhere; those are not words).
    const containsWords = all.filter((c) => c.kind === 'like' && /^%[\p{L}\p{N}]{3,}%$/u.test(c.text));
    expect(containsWords.length).toBeGreaterThan(20);
    const fromWords = containsWords.filter((c) => WORDS[c.field]?.includes(c.text.slice(1, -1)));
    // Nearly all come from the word lists; the rest, of the package's arbitrary, cut from a value.
    expect(fromWords.length / containsWords.length).toBeGreaterThan(0.8);
  });

  it('asks every operation in every scope, with targets drawn from the domain, its hosts, folders and pages', () => {
    for (const operation of ['links', 'ref-domains', 'anchors'] as const) {
      for (const scope of SCOPES) {
        const phaseOne = requests.filter((r) => r.phase === 'cold-c1' && r.operation === operation && r.scope === scope);
        expect(phaseOne.length, `${operation} ${scope}`).toBeGreaterThanOrEqual(4);
      }
    }
    for (const r of requests) {
      if (r.scope === 'ROOT_DOMAIN') expect(r.url).toBe(r.target);
      else expect(NARROW[r.scope]).toContain(r.url);
    }
    // Every narrow target gets drawn.
    for (const scope of ['SUBDOMAIN', 'SUBFOLDER', 'PAGE'] as const) {
      expect(new Set(requests.filter((r) => r.scope === scope).map((r) => r.url))).toEqual(new Set(NARROW[scope]));
    }
  });
});
