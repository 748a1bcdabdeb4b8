/**
 * The twelve operations of the Backlink and Keyword Data Service, as data: path, parameters with
 * their rules and defaults, record (fields, types and CSV column order), default `order_by`, price,
 * and whether the operation takes `filter`, `fields` and `format`. Everything else in the package
 * (validation, client, server, OpenAPI, docs) reads this table.
 *
 * @module
 */
import {
  allFieldsParam,
  countryParam,
  directionParam,
  filterParam,
  formatParam,
  jsonFormatParam,
  limitParam,
  narrowScopeParam,
  offsetParam,
  orderByParam,
  scopeParam,
  urlParam,
  urlsParam,
  type ParamSpec,
} from './parameters.js';
import {
  anchorRecord,
  backlinkRecord,
  competitorRecord,
  historicalRecord,
  keywordMetricsRecord,
  matrixRecord,
  overviewRecord,
  pageRecord,
  refDomainRecord,
  refIpRecord,
  scoreProfileRecord,
  type RecordSpec,
} from './records.js';

/** The price of a call: per request, or per returned line. */
export interface Price {
  readonly per: 'request' | 'line';
  readonly units: number;
  /** The most lines a call returns, for an operation whose call has no `limit` or `urls` to bound them. */
  readonly maxLines?: number;
}

/** Everything the package knows about one operation. */
export interface OperationSpec {
  /** The name used by the client (`refDomains`). */
  readonly method: string;
  /** The path below the base URL. */
  readonly path: string;
  /** `object`: data is one record; `list`: data is an array of records. */
  readonly shape: 'object' | 'list';
  readonly record: RecordSpec;
  readonly params: Readonly<Record<string, ParamSpec>>;
  readonly price: Price;
  /** Whether the operation accepts `filter`. */
  readonly filter: boolean;
  /** Whether the operation accepts `format=csv` (every operation accepts `format=json`). */
  readonly csv: boolean;
  /** Members of `meta` that echo the request, beyond request_id, status_code and success. */
  readonly meta: readonly string[];
  readonly doc: string;
}

const BACKLINKS = '/_api/apis/v4/backlinks/v1';

const targetParams = { url: urlParam, scope: scopeParam, format: formatParam } as const;

/** The shared list parameters with the operation's default `order_by`. */
const listParams = <D extends string>(orderBy: D) =>
  ({
    fields: allFieldsParam,
    order_by: orderByParam(orderBy),
    direction: directionParam,
    limit: limitParam(100),
    offset: offsetParam,
    filter: filterParam,
  }) as const;

const listMeta = ['direction', 'effective_url', 'filter', 'limit', 'offset', 'order_by', 'scope', 'total', 'url'] as const;

/**
 * The operations, keyed by the last segment of their path (the name the filter language and the
 * CLI use).
 *
 * @example
 * ```ts
 * import { operations } from 'backlink-query';
 * operations.links.path;              // '/_api/apis/v4/backlinks/v1/links'
 * operations.links.params.order_by;   // { kind: 'order-by', default: 'page_score', ... }
 * Object.keys(operations.anchors.record); // CSV column order
 * ```
 */
/**
 * The interface's rule for listing a competitor: at least this many referring domains shared with
 * the target, and at least this similarity (the server's reads and the target page's words both
 * read it from here).
 */
export const COMPETITOR_MIN_COMMON = 5;
/** See {@link COMPETITOR_MIN_COMMON}. */
export const COMPETITOR_MIN_SIMILARITY = 0.01;

export const operations = {
  overview: {
    method: 'overview',
    path: `${BACKLINKS}/overview`,
    shape: 'object',
    record: overviewRecord,
    params: { ...targetParams, fields: allFieldsParam },
    price: { per: 'request', units: 45 },
    filter: false,
    csv: true,
    meta: [],
    doc: 'Aggregate backlink counts for a target',
  },
  summary: {
    method: 'summary',
    path: `${BACKLINKS}/summary`,
    shape: 'list',
    record: historicalRecord,
    params: {
      url: urlParam,
      scope: narrowScopeParam,
      format: formatParam,
      fields: {
        kind: 'fields',
        required: false,
        default: ['score', 'backlinks_count', 'domains_count', 'follows_count', 'month_date'],
        doc: 'Fields to return',
      },
      limit: limitParam(12),
      date_from: { kind: 'month', required: false, maxIsCurrentMonth: false, notAfter: 'date_to', doc: 'First month, inclusive (default: oldest available); not after date_to' },
      date_to: { kind: 'month', required: false, maxIsCurrentMonth: false, defaultIsCurrentMonth: true, doc: 'Last month, inclusive (default: current month)' },
    },
    price: { per: 'line', units: 40 },
    filter: false,
    csv: true,
    meta: ['date_from', 'date_to', 'effective_url', 'scope', 'url', 'total'],
    doc: 'Monthly history of a target, ascending by month',
  },
  links: {
    method: 'links',
    path: `${BACKLINKS}/links`,
    shape: 'list',
    record: backlinkRecord,
    params: { ...targetParams, ...listParams('page_score') },
    price: { per: 'line', units: 45 },
    filter: true,
    csv: true,
    meta: listMeta,
    doc: 'Individual backlinks of a target',
  },
  'ref-domains': {
    method: 'refDomains',
    path: `${BACKLINKS}/ref-domains`,
    shape: 'list',
    record: refDomainRecord,
    params: { ...targetParams, ...listParams('backlinks_count') },
    price: { per: 'line', units: 40 },
    filter: true,
    csv: true,
    meta: listMeta,
    doc: 'Referring domains of a target',
  },
  'ref-ips': {
    method: 'refIps',
    path: `${BACKLINKS}/ref-ips`,
    shape: 'list',
    record: refIpRecord,
    params: { ...targetParams, ...listParams('domains_count') },
    price: { per: 'line', units: 20 },
    filter: true,
    csv: true,
    meta: listMeta,
    doc: 'Referring IP addresses of a target',
  },
  pages: {
    method: 'pages',
    path: `${BACKLINKS}/pages`,
    shape: 'list',
    record: pageRecord,
    params: { ...targetParams, ...listParams('domains_count') },
    price: { per: 'line', units: 40 },
    filter: true,
    csv: true,
    meta: listMeta,
    doc: 'Indexed pages of a target that receive backlinks',
  },
  anchors: {
    method: 'anchors',
    path: `${BACKLINKS}/anchors`,
    shape: 'list',
    record: anchorRecord,
    params: { ...targetParams, ...listParams('domains_count') },
    price: { per: 'line', units: 40 },
    filter: true,
    csv: true,
    meta: listMeta,
    doc: 'Anchor texts of the backlinks of a target',
  },
  'score-profile': {
    method: 'scoreProfile',
    path: `${BACKLINKS}/score-profile`,
    shape: 'list',
    record: scoreProfileRecord,
    // The interface lists "url, scope, format only", but clients written for the real service
    // send `fields`: it is accepted, over the score-profile record, like overview's.
    params: { ...targetParams, fields: allFieldsParam },
    price: { per: 'line', units: 1, maxLines: 101 },
    filter: false,
    csv: true,
    meta: ['url', 'effective_url', 'scope', 'total'],
    doc: 'Distribution of referring-domain scores (at most 101 rows)',
  },
  competitors: {
    method: 'competitors',
    path: `${BACKLINKS}/competitors`,
    shape: 'list',
    record: competitorRecord,
    params: {
      domain: { kind: 'string', required: true, minLength: 1, maxLength: 253, target: true, doc: 'Target domain' },
      fields: allFieldsParam,
      order_by: orderByParam('similarity'),
      direction: directionParam,
      limit: limitParam(100),
      offset: offsetParam,
      format: formatParam,
    },
    price: { per: 'line', units: 40 },
    filter: false,
    csv: true,
    meta: ['domain', 'direction', 'order_by', 'limit', 'offset', 'total'],
    doc: 'Competitor domains by overlap of referring domains',
  },
  comparison: {
    method: 'comparison',
    path: `${BACKLINKS}/comparison`,
    shape: 'list',
    record: historicalRecord,
    params: {
      urls: urlsParam(10),
      scope: narrowScopeParam,
      fields: {
        kind: 'fields',
        required: false,
        default: ['score', 'backlinks_count', 'domains_count', 'follows_count', 'url', 'scope'],
        doc: 'Fields to return',
      },
      format: formatParam,
    },
    price: { per: 'line', units: 40 },
    filter: false,
    csv: true,
    meta: ['scope', 'total', 'urls'],
    doc: 'Latest summary row for each of up to 10 targets',
  },
  matrix: {
    method: 'matrix',
    path: `${BACKLINKS}/matrix`,
    shape: 'list',
    record: matrixRecord,
    params: {
      urls: urlsParam(6),
      scope: narrowScopeParam,
      order_by: { kind: 'order-by', required: false, doc: 'Response field to sort by (default matches_count)', default: 'matches_count' },
      direction: directionParam,
      limit: limitParam(100),
      offset: offsetParam,
      filter: filterParam,
      // No format is listed for matrix; json (the default) is accepted, csv is not (no CSV form).
      format: jsonFormatParam,
    },
    price: { per: 'line', units: 40 },
    filter: true,
    csv: false,
    meta: ['urls', 'scope', 'total'],
    doc: 'Referring domains by target for up to 6 targets',
  },
  metrics: {
    method: 'metrics',
    path: '/_api/apis/v4/keywords/v1/metrics',
    shape: 'object',
    record: keywordMetricsRecord,
    params: {
      keyword: { kind: 'string', required: true, minLength: 1, maxLength: 255, doc: 'Length 1 to 255 characters' },
      country: countryParam,
      month: { kind: 'month', required: false, min: '2012-01', maxIsCurrentMonth: true, defaultIsCurrentMonth: true, doc: 'YYYY-MM, 2012-01 to the current month; default current month' },
      format: formatParam,
    },
    price: { per: 'request', units: 20 },
    filter: false,
    csv: true,
    meta: ['country', 'keyword', 'month'],
    doc: 'Search metrics for one keyword in a country and month',
  },
} as const satisfies Record<string, OperationSpec>;

/** The catalogue type. */
export type Operations = typeof operations;
/** An operation name: the last segment of its path (`'links'`, `'ref-domains'`, `'metrics'`, ...). */
export type OperationName = keyof Operations;
/** The operations that accept a `filter`. */
export type FilterableOperation = {
  [K in OperationName]: Operations[K]['filter'] extends true ? K : never;
}[OperationName];
/** The field names of an operation's record. */
export type FieldName<Op extends OperationName> = keyof Operations[Op]['record'] & string;

/**
 * Every operation name, in the interface's order.
 *
 * @example
 * ```ts
 * OPERATION_NAMES[0]; // 'overview'
 * ```
 */
export const OPERATION_NAMES = Object.keys(operations) as readonly OperationName[];

/**
 * Whether `name` is an operation name.
 *
 * @example
 * ```ts
 * isOperationName('links'); // true
 * isOperationName('backlinks'); // false
 * ```
 */
export function isOperationName(name: string): name is OperationName {
  return Object.prototype.hasOwnProperty.call(operations, name);
}

/**
 * The most targets matrix accepts; the bound of `backlinks_counts[n]` when the count is unknown.
 *
 * @example
 * ```ts
 * MAX_MATRIX_TARGETS; // 6
 * ```
 */
export const MAX_MATRIX_TARGETS = operations.matrix.params.urls.maxItems;
