/**
 * Words the sample generator builds names, titles, anchors and keywords from.
 *
 * @module
 * @internal
 */

/** @internal */
export const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'ten', 'vo', 'zu', 'bri', 'sta', 'fen', 'qua', 'dor', 'lin', 'mar', 'nex', 'pol', 'sun', 'tri', 'vel', 'wix', 'yor', 'zen', 'cal', 'dex'];

/** Top-level suffixes, weighted (multi-label public suffixes included on purpose). @internal */
export const TLDS = { com: 50, net: 8, org: 8, io: 6, de: 7, 'co.uk': 6, fr: 4, 'com.au': 3, es: 2, it: 2, nl: 2, 'co.jp': 1, ca: 1 } as const;

/** Countries of referring domains, weighted, with the language their pages are in. @internal */
export const COUNTRY_WEIGHTS = { US: 32, DE: 9, UK: 8, FR: 6, IN: 6, CA: 4, NL: 4, ES: 4, IT: 4, BR: 4, JP: 3, AU: 3, PL: 3, RU: 3, SE: 2, CH: 2, MX: 2, UA: 1 } as const;
/** @internal */
export const LANGUAGES: Readonly<Record<keyof typeof COUNTRY_WEIGHTS, string>> = {
  US: 'en', DE: 'de', UK: 'en', FR: 'fr', IN: 'en', CA: 'en', NL: 'nl', ES: 'es', IT: 'it', BR: 'pt', JP: 'ja', AU: 'en', PL: 'pl', RU: 'ru',
  SE: 'sv', CH: 'de', MX: 'es', UA: 'uk',
};

/** @internal */
export const GENERIC_ANCHORS = ['click here', 'read more', 'here', 'website', 'this site', 'learn more', 'source', 'link', 'this article', 'official site', 'more info'];

/** @internal */
export const KEYWORD_HEADS = ['seo', 'backlink', 'keyword', 'link building', 'content', 'marketing', 'analytics', 'rank', 'domain', 'traffic', 'serp', 'audit'];
/** @internal */
export const KEYWORD_TAILS = ['tools', 'checker', 'strategy', 'guide', 'software', 'tips', 'examples', 'for beginners', 'pricing', 'report', 'free', 'api', 'best practices'];

/** @internal */
export const TITLE_WORDS = ['Guide', 'Review', 'News', 'Best', 'Top', 'How to', 'Ultimate', 'Resources', 'Blog', 'Weekly', 'Notes', 'Insights', 'Tools', 'List'];

/** @internal */
export const PAGE_SECTIONS = ['blog', 'products', 'docs', 'news', 'guides', 'about', 'pricing', 'features'];

/** Countries keyword metrics are generated for. @internal */
export const KEYWORD_COUNTRIES = ['US', 'UK', 'DE', 'FR', 'ES', 'IT', 'CA', 'AU', 'IN', 'BR'] as const;

/** @internal */
export const INTENTS = ['COMMERCIAL', 'INFORMATIONAL', 'NAVIGATIONAL', 'TRANSACTIONAL'];
/** @internal */
export const SERP_FEATURES = ['SITELINKS', 'PEOPLE_ALSO_ASK', 'AI_OVERVIEW', 'RELATED_SEARCHES', 'VIDEO', 'IMAGE_PACK', 'FEATURED_SNIPPET'];
