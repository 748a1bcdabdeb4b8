/**
 * The record shapes the service returns, exactly as the interface's "Resources and their fields"
 * part lists them. Each record is an ordered object: its key order is the operation's CSV column
 * order, so no column list is ever written a second time.
 *
 * @module
 */

/**
 * The type of a response field.
 *
 * - `string`, `timestamp`, `integer`, `number`, `boolean` are the scalar types of the filter language.
 * - `integer[]` and `string[]` are array values (matrix counts, keyword-metrics series).
 */
export type FieldType = 'string' | 'timestamp' | 'integer' | 'number' | 'boolean' | 'integer[]' | 'string[]';

/** One field of a record: its type, its meaning, and whether it is a CSV column. */
export interface FieldSpec {
  readonly type: FieldType;
  readonly doc: string;
  /** `false` for fields that JSON rows carry but the CSV form has no column for. */
  readonly csv?: boolean;
}

/** An ordered map from field name to {@link FieldSpec}; key order is CSV column order. */
export type RecordSpec = Readonly<Record<string, FieldSpec>>;

/** The overview record (operation `overview`; data is one object). */
export const overviewRecord = {
  backlinks_count: { type: 'integer', doc: 'Number of backlinks' },
  domains_count: { type: 'integer', doc: 'Number of referring domains' },
  urls_count: { type: 'integer', doc: 'Number of referring pages' },
  follows_count: { type: 'integer', doc: 'Number of dofollow backlinks' },
  nofollows_count: { type: 'integer', doc: 'Number of nofollow backlinks' },
  sponsored_count: { type: 'integer', doc: 'Number of sponsored backlinks' },
  ugc_count: { type: 'integer', doc: 'Number of UGC backlinks' },
  frames_count: { type: 'integer', doc: 'Backlinks placed in iframes' },
  forms_count: { type: 'integer', doc: 'Backlinks placed in forms' },
  images_count: { type: 'integer', doc: 'Image backlinks' },
  texts_count: { type: 'integer', doc: 'Text backlinks' },
  ips_count: { type: 'integer', doc: 'Referring IP addresses' },
  ip_class_c_count: { type: 'integer', doc: 'Referring IP class C subnets' },
  new_count: { type: 'integer', doc: 'New backlinks (first_seen_at within the last 30 days)' },
  lost_count: { type: 'integer', doc: 'Lost backlinks' },
  score: { type: 'integer', doc: 'Page score when scope is PAGE; otherwise domain score (0-100)' },
} as const satisfies RecordSpec;

/** The historical row (operations `summary` and `comparison`). */
export const historicalRecord = {
  score: { type: 'integer', doc: 'Authority score 0-100 (page score for PAGE scope, else domain score)' },
  backlinks_count: { type: 'integer', doc: 'Number of backlinks' },
  domains_count: { type: 'integer', doc: 'Number of referring domains' },
  follows_count: { type: 'integer', doc: 'Number of follow backlinks' },
  month_date: { type: 'string', doc: 'First day of the month, format YYYY-MM-01' },
  url: { type: 'string', doc: 'Target exactly as passed in the request' },
  scope: { type: 'string', doc: 'Scope (named in the default field list of comparison)', csv: false },
} as const satisfies RecordSpec;

/** The backlink record (operation `links`). */
export const backlinkRecord = {
  source_url: { type: 'string', doc: 'URL of the page holding the link' },
  target_url: { type: 'string', doc: 'Linked target URL; the final URL after redirects when redirect_url is filled' },
  anchor: { type: 'string', doc: 'Anchor text' },
  redirect_url: { type: 'string', doc: 'Original URL when the link on the source page redirects; empty string otherwise' },
  source_title: { type: 'string', doc: 'Title of the source page' },
  target_title: { type: 'string', doc: 'Value of the title attribute of the anchor element' },
  image_url: { type: 'string', doc: 'Image src when the link is an image; empty otherwise' },
  image_alt: { type: 'string', doc: 'Image alt when the link is an image; empty otherwise' },
  ip_address: { type: 'string', doc: 'IP address of the source page' },
  lang: { type: 'string', doc: 'Source page language: ISO 639-1 code if one exists, else ISO 639-2' },
  source_size: { type: 'integer', doc: 'Source page content size in bytes' },
  external_links_count: { type: 'integer', doc: 'External links found on the source page' },
  internal_links_count: { type: 'integer', doc: 'Internal links found on the source page' },
  response_code: { type: 'integer', doc: 'HTTP status of the source page' },
  page_score: { type: 'integer', doc: 'Source page authority score' },
  domain_score: { type: 'integer', doc: 'Source domain authority score' },
  first_seen_at: { type: 'timestamp', doc: 'Timestamp the link was first found' },
  last_seen_at: { type: 'timestamp', doc: 'Timestamp the link was last seen' },
  source_domain: { type: 'string', doc: 'Domain of the source page' },
  is_nofollow: { type: 'boolean', doc: 'Link carries rel nofollow' },
  is_ugc: { type: 'boolean', doc: 'Link carries rel ugc' },
  is_sponsored: { type: 'boolean', doc: 'Link carries rel sponsored' },
  is_form: { type: 'boolean', doc: 'Link is inside a form element' },
  is_frame: { type: 'boolean', doc: 'Link is inside an iframe' },
  is_image: { type: 'boolean', doc: 'Link is image-based' },
  is_sitewide_main: { type: 'boolean', doc: 'This is the main URL among sitewide backlinks' },
  is_new: { type: 'boolean', doc: 'first_seen_at is less than 31 days ago' },
  is_lost: { type: 'boolean', doc: 'Link is lost' },
} as const satisfies RecordSpec;

/** The referring-domain record (operation `ref-domains`). */
export const refDomainRecord = {
  domain: { type: 'string', doc: 'The referring domain' },
  ip_address: { type: 'string', doc: 'IP of the server hosting the domain' },
  country: { type: 'string', doc: 'Two-letter country code' },
  backlinks_count: { type: 'integer', doc: 'Backlinks from this domain to the target' },
  domain_score: { type: 'integer', doc: 'Domain score 0-100' },
  first_seen_at: { type: 'timestamp', doc: 'Timestamp the domain was first seen' },
  last_seen_at: { type: 'timestamp', doc: 'Timestamp the domain was last seen' },
  is_follow: { type: 'boolean', doc: 'Domain is dofollow' },
  is_new: { type: 'boolean', doc: 'first_seen_at within the last 30 days' },
  is_lost: { type: 'boolean', doc: 'Domain is lost' },
} as const satisfies RecordSpec;

/** The referring-IP record (operation `ref-ips`). */
export const refIpRecord = {
  ip_address: { type: 'string', doc: 'Referring server IP' },
  country: { type: 'string', doc: 'Two-letter country code' },
  backlinks_count: { type: 'integer', doc: 'Backlinks from this IP' },
  domains_count: { type: 'integer', doc: 'Domains on this IP' },
  first_seen_at: { type: 'timestamp', doc: 'Timestamp first seen' },
  last_seen_at: { type: 'timestamp', doc: 'Timestamp last seen' },
} as const satisfies RecordSpec;

/** The page record (operation `pages`). */
export const pageRecord = {
  source_url: { type: 'string', doc: 'Page URL' },
  source_title: { type: 'string', doc: 'Page title' },
  response_code: { type: 'integer', doc: 'HTTP status of the page' },
  backlinks_count: { type: 'integer', doc: 'Backlinks to this page' },
  domains_count: { type: 'integer', doc: 'Referring domains to this page' },
  external_links_count: { type: 'integer', doc: 'External links found on the page' },
  internal_links_count: { type: 'integer', doc: 'Internal links found on the page' },
  first_seen_at: { type: 'timestamp', doc: 'Timestamp first seen' },
  last_seen_at: { type: 'timestamp', doc: 'Timestamp last seen' },
} as const satisfies RecordSpec;

/** The anchor record (operation `anchors`). */
export const anchorRecord = {
  anchor: { type: 'string', doc: 'Anchor text' },
  backlinks_count: { type: 'integer', doc: 'Backlinks with this anchor text' },
  domains_count: { type: 'integer', doc: 'Domains with this anchor text' },
  first_seen_at: { type: 'timestamp', doc: 'Timestamp first seen' },
  last_seen_at: { type: 'timestamp', doc: 'Timestamp last seen' },
} as const satisfies RecordSpec;

/** The score-profile row (operation `score-profile`). */
export const scoreProfileRecord = {
  domain_score: { type: 'integer', doc: 'Authority score value 0-100' },
  domains_count: { type: 'integer', doc: 'Referring domains with that score' },
} as const satisfies RecordSpec;

/** The competitor record (operation `competitors`); CSV order differs from the table's. */
export const competitorRecord = {
  domain: { type: 'string', doc: 'Competitor domain' },
  similarity: { type: 'number', doc: '0 to 1 (0.5 means 50%)' },
  common_refdomains: { type: 'integer', doc: 'Referring domains shared with the target domain' },
} as const satisfies RecordSpec;

/** The matrix row (operation `matrix`; no CSV form). */
export const matrixRecord = {
  domain: { type: 'string', doc: 'Domain name' },
  domain_score: { type: 'integer', doc: 'Domain score 0-100' },
  ip_address: { type: 'string', doc: 'Domain IP address' },
  country: { type: 'string', doc: 'Two-letter country code' },
  matches_count: { type: 'integer', doc: 'Number of requested targets this domain refers to' },
  backlinks_counts: {
    type: 'integer[]',
    doc: 'Backlinks from the domain to each requested target, in the order of the request urls',
  },
} as const satisfies RecordSpec;

/** The keyword metrics record (operation `metrics`; data is one object). CSV order is alphabetical. */
export const keywordMetricsRecord = {
  competitive_density: { type: 'integer', doc: 'Competitive density' },
  cpc: { type: 'string', doc: 'Cost per click (numeric text)' },
  intents: { type: 'string[]', doc: 'Search intents, e.g. COMMERCIAL, INFORMATIONAL' },
  keyword_difficulty: { type: 'integer', doc: 'Keyword difficulty' },
  number_of_results: { type: 'string', doc: 'Number of results (numeric text)' },
  search_volume: { type: 'string', doc: 'Search volume (numeric text)' },
  serp_features: { type: 'string[]', doc: 'SERP features, e.g. SITELINKS, PEOPLE_ALSO_ASK' },
  trends: { type: 'integer[]', doc: 'Series of trend values (twelve elements)' },
} as const satisfies RecordSpec;
