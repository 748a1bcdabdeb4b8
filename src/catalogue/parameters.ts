/**
 * Parameter rules of the interface, as data. Operations compose these; `rules.ts` checks values
 * against them (the client before sending, the server on arrival, with the same codes and
 * messages), and OpenAPI is generated from them.
 *
 * @module
 */

/**
 * Allowed values of `country` for the keyword operation, in the interface's order.
 *
 * @example
 * ```ts
 * COUNTRIES.includes('UK'); // true
 * ```
 */
export const COUNTRIES = [
  'AF', 'AL', 'DZ', 'AO', 'AR', 'AM', 'AU', 'AT', 'AZ', 'BS', 'BH', 'BD', 'BY', 'BE', 'BZ', 'BO', 'BA',
  'BW', 'BR', 'BN', 'BG', 'KH', 'CM', 'CA', 'CV', 'CL', 'CO', 'CR', 'HR', 'CY', 'CZ', 'CD', 'DK', 'DO',
  'EC', 'EG', 'SV', 'EE', 'ET', 'FI', 'FR', 'GE', 'DE', 'GH', 'GR', 'GT', 'GY', 'HT', 'HN', 'HK', 'HU',
  'IS', 'IN', 'ID', 'IE', 'IL', 'IT', 'JM', 'JP', 'JO', 'KZ', 'KW', 'LV', 'LB', 'LY', 'LT', 'LU', 'MG',
  'MY', 'MT', 'MU', 'MX', 'MD', 'MN', 'ME', 'MA', 'MZ', 'NA', 'NP', 'NL', 'NZ', 'NI', 'NG', 'NO', 'OM',
  'PK', 'PA', 'PY', 'PE', 'PH', 'PL', 'PT', 'QA', 'RO', 'RU', 'SA', 'SN', 'RS', 'SG', 'SK', 'SI', 'ZA',
  'KR', 'ES', 'LK', 'SE', 'CH', 'TW', 'TH', 'TT', 'TN', 'TR', 'UA', 'AE', 'UK', 'US', 'UY', 'VE', 'VN',
  'ZM', 'ZW',
] as const;

/**
 * The four target scopes.
 *
 * @example
 * ```ts
 * ALL_SCOPES; // ['ROOT_DOMAIN', 'SUBDOMAIN', 'SUBFOLDER', 'PAGE']
 * ```
 */
export const ALL_SCOPES = ['ROOT_DOMAIN', 'SUBDOMAIN', 'SUBFOLDER', 'PAGE'] as const;
/**
 * The scopes of summary, comparison and matrix (no SUBFOLDER).
 *
 * @example
 * ```ts
 * NARROW_SCOPES.includes('SUBFOLDER'); // false
 * ```
 */
export const NARROW_SCOPES = ['ROOT_DOMAIN', 'SUBDOMAIN', 'PAGE'] as const;

/** A string parameter with a length range. */
export interface StringParam {
  readonly kind: 'string';
  readonly required: boolean;
  readonly minLength: number;
  readonly maxLength: number;
  /** A target (url, domain): it must have a host name. */
  readonly target?: boolean;
  readonly doc: string;
}
/** A list of strings, comma-joined on the wire. */
export interface StringListParam {
  readonly kind: 'string-list';
  readonly required: boolean;
  readonly minItems: number;
  readonly maxItems: number;
  readonly itemMaxLength: number;
  /** Targets (urls): each item must have a host name. */
  readonly target?: boolean;
  readonly doc: string;
}
/** One value of a fixed set. */
export interface EnumParam {
  readonly kind: 'enum';
  readonly required: boolean;
  readonly values: readonly string[];
  readonly default?: string;
  /** Any case is accepted (`us`) and taken as the listed value (`US`). */
  readonly caseInsensitive?: boolean;
  readonly doc: string;
}
/**
 * The largest `limit` a server accepts by default (the interface shows no maximum; a server may
 * configure its own).
 *
 * @example
 * ```ts
 * validateRequest('links', { url: 'a.com', scope: 'PAGE', limit: String(DEFAULT_MAX_LIMIT) }).ok; // true (backlink-query/server)
 * ```
 */
export const DEFAULT_MAX_LIMIT = 10_000;

/** A non-negative integer with a minimum. */
export interface IntegerParam {
  readonly kind: 'integer';
  readonly required: boolean;
  readonly min: number;
  readonly default?: number;
  /** Bounded above by the server's configured maximum (`limit`; the interface shows no maximum). */
  readonly serverMaximum?: boolean;
  readonly doc: string;
}
/** A month `YYYY-MM`, optionally bounded below; the upper bound, where set, is the current month. */
export interface MonthParam {
  readonly kind: 'month';
  readonly required: boolean;
  readonly min?: string;
  readonly maxIsCurrentMonth: boolean;
  /** Absent, it is the current month (keyword `month`, summary `date_to`). */
  readonly defaultIsCurrentMonth?: boolean;
  /** The parameter (a month of the same operation, or its default) this month must not be after. */
  readonly notAfter?: string;
  readonly doc: string;
}
/** Response field names of the operation, comma-joined on the wire. */
export interface FieldsParam {
  readonly kind: 'fields';
  readonly required: false;
  /** `'all'` or the default field list. */
  readonly default: 'all' | readonly string[];
  readonly doc: string;
}
/** One response field name, which must be among the returned fields. */
export interface OrderByParam {
  readonly kind: 'order-by';
  readonly required: false;
  readonly default?: string;
  readonly doc: string;
}
/** A filter expression of the filter language. */
export interface FilterParam {
  readonly kind: 'filter';
  readonly required: false;
  readonly doc: string;
}

/** Any parameter rule. */
export type ParamSpec =
  | StringParam
  | StringListParam
  | EnumParam
  | IntegerParam
  | MonthParam
  | FieldsParam
  | OrderByParam
  | FilterParam;

export const urlParam = {
  kind: 'string',
  required: true,
  minLength: 1,
  maxLength: 2000,
  target: true,
  doc: 'Target; at most 2000 characters; protocol prefix optional',
} as const satisfies StringParam;

export const scopeParam = {
  kind: 'enum',
  required: true,
  values: ALL_SCOPES,
  doc: 'ROOT_DOMAIN, SUBDOMAIN, SUBFOLDER or PAGE',
} as const satisfies EnumParam;

export const narrowScopeParam = {
  kind: 'enum',
  required: true,
  values: NARROW_SCOPES,
  doc: 'ROOT_DOMAIN, SUBDOMAIN or PAGE',
} as const satisfies EnumParam;

export const formatParam = {
  kind: 'enum',
  required: false,
  values: ['json', 'csv'],
  default: 'json',
  doc: 'json (default) or csv',
} as const satisfies EnumParam;

/**
 * `format` of an operation without a CSV form (matrix): the interface lists no format there, but
 * clients send `format=json` everywhere, so json (the default) is accepted and csv is refused.
 */
export const jsonFormatParam = {
  kind: 'enum',
  required: false,
  values: ['json'],
  default: 'json',
  doc: 'json (the default and only value: this operation has no CSV form)',
} as const satisfies EnumParam;

/** `country` of the keyword operation: a code of {@link COUNTRIES}, in any case, taken in upper case. */
export const countryParam = {
  kind: 'enum',
  required: true,
  values: COUNTRIES,
  caseInsensitive: true,
  doc: 'Country code from the allowed list, any case (us is US; the United Kingdom is UK)',
} as const satisfies EnumParam;

export const directionParam = {
  kind: 'enum',
  required: false,
  values: ['ASC', 'DESC'],
  default: 'DESC',
  doc: 'ASC or DESC',
} as const satisfies EnumParam;

export const allFieldsParam = {
  kind: 'fields',
  required: false,
  default: 'all',
  doc: 'Comma-separated response field names to return (default: all)',
} as const satisfies FieldsParam;

/** `limit` with the given default (100 on list operations, 12 on summary). At least 1. */
export const limitParam = <D extends number>(defaultValue: D) =>
  ({
    kind: 'integer',
    required: false,
    min: 1,
    default: defaultValue,
    serverMaximum: true,
    doc: `Number of rows (default ${defaultValue})`,
  }) as const;

export const offsetParam = {
  kind: 'integer',
  required: false,
  min: 0,
  default: 0,
  doc: 'Rows to skip',
} as const satisfies IntegerParam;

export const filterParam = {
  kind: 'filter',
  required: false,
  doc: 'Filter expression (see the filter language)',
} as const satisfies FilterParam;

/** `order_by` with the operation's default. */
export const orderByParam = <D extends string>(defaultValue: D) =>
  ({
    kind: 'order-by',
    required: false,
    default: defaultValue,
    doc: `Response field to sort by (default ${defaultValue}); must be among the returned fields`,
  }) as const;

/** `urls` with the operation's maximum count. */
export const urlsParam = <N extends number>(maxItems: N) =>
  ({
    kind: 'string-list',
    required: true,
    minItems: 1,
    maxItems,
    itemMaxLength: 2000,
    target: true,
    doc: `Comma-separated targets, up to ${maxItems}`,
  }) as const;
