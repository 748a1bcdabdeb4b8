/**
 * What each field of each record means: the `description` of the JSON Schemas and the OpenAPI
 * document, and what completion says of a field. Apart from the records (`records.ts`), which the
 * client loads before its first call, so that a client bundle carries none of this text; the type
 * makes each record's list of fields here exactly the record's own.
 *
 * @module
 */
import {
  overviewRecord,
  historicalRecord,
  backlinkRecord,
  refDomainRecord,
  refIpRecord,
  pageRecord,
  anchorRecord,
  scoreProfileRecord,
  competitorRecord,
  matrixRecord,
  keywordMetricsRecord,
  type RecordSpec,
} from './records.js';

/** Each record's fields, each with a sentence. */
type DocsOf<R extends RecordSpec> = { readonly [F in keyof R]: string };

/**
 * The meaning of every field of every record, by record.
 *
 * @example
 * ```ts
 * FIELD_DOCS.backlink.anchor; // 'Anchor text'
 * ```
 */
export const FIELD_DOCS = {
  overview: {
    backlinks_count: 'Number of backlinks',
    domains_count: 'Number of referring domains',
    urls_count: 'Number of referring pages',
    follows_count: 'Number of dofollow backlinks',
    nofollows_count: 'Number of nofollow backlinks',
    sponsored_count: 'Number of sponsored backlinks',
    ugc_count: 'Number of UGC backlinks',
    frames_count: 'Backlinks placed in iframes',
    forms_count: 'Backlinks placed in forms',
    images_count: 'Image backlinks',
    texts_count: 'Text backlinks',
    ips_count: 'Referring IP addresses',
    ip_class_c_count: 'Referring IP class C subnets',
    new_count: 'New backlinks (first_seen_at within the last 30 days)',
    lost_count: 'Lost backlinks',
    score: 'Page score when scope is PAGE; otherwise domain score (0-100)',
  },
  historical: {
    score: 'Authority score 0-100 (page score for PAGE scope, else domain score)',
    backlinks_count: 'Number of backlinks',
    domains_count: 'Number of referring domains',
    follows_count: 'Number of follow backlinks',
    month_date: 'First day of the month, format YYYY-MM-01',
    url: 'Target exactly as passed in the request',
    scope: 'Scope (named in the default field list of comparison)',
  },
  backlink: {
    source_url: 'URL of the page holding the link',
    target_url: 'Linked target URL; the final URL after redirects when redirect_url is filled',
    anchor: 'Anchor text',
    redirect_url: 'Original URL when the link on the source page redirects; empty string otherwise',
    source_title: 'Title of the source page',
    target_title: 'Value of the title attribute of the anchor element',
    image_url: 'Image src when the link is an image; empty otherwise',
    image_alt: 'Image alt when the link is an image; empty otherwise',
    ip_address: 'IP address of the source page',
    lang: 'Source page language: ISO 639-1 code if one exists, else ISO 639-2',
    source_size: 'Source page content size in bytes',
    external_links_count: 'External links found on the source page',
    internal_links_count: 'Internal links found on the source page',
    response_code: 'HTTP status of the source page',
    page_score: 'Source page authority score',
    domain_score: 'Source domain authority score',
    first_seen_at: 'Timestamp the link was first found',
    last_seen_at: 'Timestamp the link was last seen',
    source_domain: 'Domain of the source page',
    is_nofollow: 'Link carries rel nofollow',
    is_ugc: 'Link carries rel ugc',
    is_sponsored: 'Link carries rel sponsored',
    is_form: 'Link is inside a form element',
    is_frame: 'Link is inside an iframe',
    is_image: 'Link is image-based',
    is_sitewide_main: 'This is the main URL among sitewide backlinks',
    is_new: 'first_seen_at is less than 31 days ago',
    is_lost: 'Link is lost',
  },
  refDomain: {
    domain: 'The referring domain',
    ip_address: 'IP of the server hosting the domain',
    country: 'Two-letter country code',
    backlinks_count: 'Backlinks from this domain to the target',
    domain_score: 'Domain score 0-100',
    first_seen_at: 'Timestamp the domain was first seen',
    last_seen_at: 'Timestamp the domain was last seen',
    is_follow: 'Domain is dofollow',
    is_new: 'first_seen_at within the last 30 days',
    is_lost: 'Domain is lost',
  },
  refIp: {
    ip_address: 'Referring server IP',
    country: 'Two-letter country code',
    backlinks_count: 'Backlinks from this IP',
    domains_count: 'Domains on this IP',
    first_seen_at: 'Timestamp first seen',
    last_seen_at: 'Timestamp last seen',
  },
  page: {
    source_url: 'Page URL',
    source_title: 'Page title',
    response_code: 'HTTP status of the page',
    backlinks_count: 'Backlinks to this page',
    domains_count: 'Referring domains to this page',
    external_links_count: 'External links found on the page',
    internal_links_count: 'Internal links found on the page',
    first_seen_at: 'Timestamp first seen',
    last_seen_at: 'Timestamp last seen',
  },
  anchor: {
    anchor: 'Anchor text',
    backlinks_count: 'Backlinks with this anchor text',
    domains_count: 'Domains with this anchor text',
    first_seen_at: 'Timestamp first seen',
    last_seen_at: 'Timestamp last seen',
  },
  scoreProfile: {
    domain_score: 'Authority score value 0-100',
    domains_count: 'Referring domains with that score',
  },
  competitor: {
    domain: 'Competitor domain',
    similarity: '0 to 1 (0.5 means 50%)',
    common_refdomains: 'Referring domains shared with the target domain',
  },
  matrix: {
    domain: 'Domain name',
    domain_score: 'Domain score 0-100',
    ip_address: 'Domain IP address',
    country: 'Two-letter country code',
    matches_count: 'Number of requested targets this domain refers to',
    backlinks_counts: 'Backlinks from the domain to each requested target, in the order of the request urls',
  },
  keywordMetrics: {
    competitive_density: 'Competitive density',
    cpc: 'Cost per click (numeric text)',
    intents: 'Search intents, e.g. COMMERCIAL, INFORMATIONAL',
    keyword_difficulty: 'Keyword difficulty',
    number_of_results: 'Number of results (numeric text)',
    search_volume: 'Search volume (numeric text)',
    serp_features: 'SERP features, e.g. SITELINKS, PEOPLE_ALSO_ASK',
    trends: 'Series of trend values (twelve elements)',
  },
} as const satisfies {
  readonly overview: DocsOf<typeof overviewRecord>;
  readonly historical: DocsOf<typeof historicalRecord>;
  readonly backlink: DocsOf<typeof backlinkRecord>;
  readonly refDomain: DocsOf<typeof refDomainRecord>;
  readonly refIp: DocsOf<typeof refIpRecord>;
  readonly page: DocsOf<typeof pageRecord>;
  readonly anchor: DocsOf<typeof anchorRecord>;
  readonly scoreProfile: DocsOf<typeof scoreProfileRecord>;
  readonly competitor: DocsOf<typeof competitorRecord>;
  readonly matrix: DocsOf<typeof matrixRecord>;
  readonly keywordMetrics: DocsOf<typeof keywordMetricsRecord>;
};

const BY_RECORD = new Map<RecordSpec, Readonly<Record<string, string>>>([
  [overviewRecord, FIELD_DOCS.overview],
  [historicalRecord, FIELD_DOCS.historical],
  [backlinkRecord, FIELD_DOCS.backlink],
  [refDomainRecord, FIELD_DOCS.refDomain],
  [refIpRecord, FIELD_DOCS.refIp],
  [pageRecord, FIELD_DOCS.page],
  [anchorRecord, FIELD_DOCS.anchor],
  [scoreProfileRecord, FIELD_DOCS.scoreProfile],
  [competitorRecord, FIELD_DOCS.competitor],
  [matrixRecord, FIELD_DOCS.matrix],
  [keywordMetricsRecord, FIELD_DOCS.keywordMetrics],
]);

/**
 * The meaning of a field of a record (`operations.links.record`, `anchor`); `undefined` for a name
 * that is not one of its fields.
 *
 * @example
 * ```ts
 * fieldDoc(operations.links.record, 'domain_score'); // 'Source domain authority score'
 * ```
 */
export function fieldDoc(record: RecordSpec, field: string): string | undefined {
  const docs = BY_RECORD.get(record);
  return docs !== undefined && Object.hasOwn(docs, field) ? docs[field] : undefined;
}
