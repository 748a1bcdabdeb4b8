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

/** One field of a record: its type, and whether it is a CSV column (its meaning: `fieldDoc`, `field-docs.ts`). */
export interface FieldSpec {
  readonly type: FieldType;
  /** `false` for fields that JSON rows carry but the CSV form has no column for. */
  readonly csv?: boolean;
}

/**
 * Whether `order_by` may name a field of this type: arrays have no order (the parameter rule
 * `not_sortable`; `backlink-query fields` shows it). @internal
 */
export const isSortableType = (type: FieldType): boolean => !type.endsWith('[]');

/** An ordered map from field name to {@link FieldSpec}; key order is CSV column order. */
export type RecordSpec = Readonly<Record<string, FieldSpec>>;

/** The overview record (operation `overview`; data is one object). */
export const overviewRecord = {
  backlinks_count: { type: 'integer' },
  domains_count: { type: 'integer' },
  urls_count: { type: 'integer' },
  follows_count: { type: 'integer' },
  nofollows_count: { type: 'integer' },
  sponsored_count: { type: 'integer' },
  ugc_count: { type: 'integer' },
  frames_count: { type: 'integer' },
  forms_count: { type: 'integer' },
  images_count: { type: 'integer' },
  texts_count: { type: 'integer' },
  ips_count: { type: 'integer' },
  ip_class_c_count: { type: 'integer' },
  new_count: { type: 'integer' },
  lost_count: { type: 'integer' },
  score: { type: 'integer' },
} as const satisfies RecordSpec;

/** The historical row (operations `summary` and `comparison`). */
export const historicalRecord = {
  score: { type: 'integer' },
  backlinks_count: { type: 'integer' },
  domains_count: { type: 'integer' },
  follows_count: { type: 'integer' },
  month_date: { type: 'string' },
  url: { type: 'string' },
  scope: { type: 'string', csv: false },
} as const satisfies RecordSpec;

/** The backlink record (operation `links`). */
export const backlinkRecord = {
  source_url: { type: 'string' },
  target_url: { type: 'string' },
  anchor: { type: 'string' },
  redirect_url: { type: 'string' },
  source_title: { type: 'string' },
  target_title: { type: 'string' },
  image_url: { type: 'string' },
  image_alt: { type: 'string' },
  ip_address: { type: 'string' },
  lang: { type: 'string' },
  source_size: { type: 'integer' },
  external_links_count: { type: 'integer' },
  internal_links_count: { type: 'integer' },
  response_code: { type: 'integer' },
  page_score: { type: 'integer' },
  domain_score: { type: 'integer' },
  first_seen_at: { type: 'timestamp' },
  last_seen_at: { type: 'timestamp' },
  source_domain: { type: 'string' },
  is_nofollow: { type: 'boolean' },
  is_ugc: { type: 'boolean' },
  is_sponsored: { type: 'boolean' },
  is_form: { type: 'boolean' },
  is_frame: { type: 'boolean' },
  is_image: { type: 'boolean' },
  is_sitewide_main: { type: 'boolean' },
  is_new: { type: 'boolean' },
  is_lost: { type: 'boolean' },
} as const satisfies RecordSpec;

/** The referring-domain record (operation `ref-domains`). */
export const refDomainRecord = {
  domain: { type: 'string' },
  ip_address: { type: 'string' },
  country: { type: 'string' },
  backlinks_count: { type: 'integer' },
  domain_score: { type: 'integer' },
  first_seen_at: { type: 'timestamp' },
  last_seen_at: { type: 'timestamp' },
  is_follow: { type: 'boolean' },
  is_new: { type: 'boolean' },
  is_lost: { type: 'boolean' },
} as const satisfies RecordSpec;

/** The referring-IP record (operation `ref-ips`). */
export const refIpRecord = {
  ip_address: { type: 'string' },
  country: { type: 'string' },
  backlinks_count: { type: 'integer' },
  domains_count: { type: 'integer' },
  first_seen_at: { type: 'timestamp' },
  last_seen_at: { type: 'timestamp' },
} as const satisfies RecordSpec;

/** The page record (operation `pages`). */
export const pageRecord = {
  source_url: { type: 'string' },
  source_title: { type: 'string' },
  response_code: { type: 'integer' },
  backlinks_count: { type: 'integer' },
  domains_count: { type: 'integer' },
  external_links_count: { type: 'integer' },
  internal_links_count: { type: 'integer' },
  first_seen_at: { type: 'timestamp' },
  last_seen_at: { type: 'timestamp' },
} as const satisfies RecordSpec;

/** The anchor record (operation `anchors`). */
export const anchorRecord = {
  anchor: { type: 'string' },
  backlinks_count: { type: 'integer' },
  domains_count: { type: 'integer' },
  first_seen_at: { type: 'timestamp' },
  last_seen_at: { type: 'timestamp' },
} as const satisfies RecordSpec;

/** The score-profile row (operation `score-profile`). */
export const scoreProfileRecord = {
  domain_score: { type: 'integer' },
  domains_count: { type: 'integer' },
} as const satisfies RecordSpec;

/** The competitor record (operation `competitors`); CSV order differs from the table's. */
export const competitorRecord = {
  domain: { type: 'string' },
  similarity: { type: 'number' },
  common_refdomains: { type: 'integer' },
} as const satisfies RecordSpec;

/** The matrix row (operation `matrix`; no CSV form). */
export const matrixRecord = {
  domain: { type: 'string' },
  domain_score: { type: 'integer' },
  ip_address: { type: 'string' },
  country: { type: 'string' },
  matches_count: { type: 'integer' },
  backlinks_counts: { type: 'integer[]' },
} as const satisfies RecordSpec;

/** The keyword metrics record (operation `metrics`; data is one object). CSV order is alphabetical. */
export const keywordMetricsRecord = {
  competitive_density: { type: 'integer' },
  cpc: { type: 'string' },
  intents: { type: 'string[]' },
  keyword_difficulty: { type: 'integer' },
  number_of_results: { type: 'string' },
  search_volume: { type: 'string' },
  serp_features: { type: 'string[]' },
  trends: { type: 'integer[]' },
} as const satisfies RecordSpec;
