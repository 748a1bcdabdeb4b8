/**
 * The parameter rules of the interface, checked on values, with one stable code and one message
 * per mistake. The client's `checkParams` runs them on the values a caller passes; the server
 * parses the query string into values (splitting lists, reading integers) and runs the same
 * rules, so the same mistake gets the same `rule` code and the same message on both sides.
 *
 * What each side adds is only what its input can get wrong and the other's cannot: the client
 * checks JavaScript types (`invalid_type`) and commas inside list items (`invalid_value`); the
 * server reports repeated names (`repeated_parameter`), values whose percent-escapes do not
 * decode (`bad_encoding`) and integers not written in digits (`not_an_integer`). Filters are
 * checked by the filter language, with its own codes.
 *
 * @module
 */
import { didYouMean, suggest } from '../shared/suggest.js';
import type { IssueCode } from './issue-codes.js';
import { isOperationName, operations, type OperationName } from './operations.js';
import type { EnumParam, FieldsParam, IntegerParam, MonthParam, OrderByParam, ParamSpec, StringListParam, StringParam } from './parameters.js';
import { isSortableType, type RecordSpec } from './records.js';

/**
 * Every parameter rule, by its code, with what breaks it. The codes are stable: they are the
 * `rule` of an error detail and the `code` of a `ParameterError`.
 *
 * @example
 * ```ts
 * PARAMETER_RULES.too_small; // 'An integer below its minimum (limit below 1, offset below 0).'
 * ```
 */
export const PARAMETER_RULES = {
  unknown_operation: 'No operation of that name.',
  unknown_parameter: 'A parameter the operation does not take (with the closest name, when one is close).',
  repeated_parameter: 'A parameter given more than once in the query string.',
  bad_encoding: 'A value in the query string with a percent-escape that does not decode to UTF-8 (%FF, %C3%28, %zz, a lone %).',
  required: 'A required parameter is missing; an empty value (text or list) counts as missing.',
  invalid_type: 'A value of the wrong JavaScript type (a string limit, a urls that is not an array); client only.',
  invalid_value: 'A value outside its set (scope, direction, format, country), or a list item containing a comma (client).',
  not_an_integer: 'An integer parameter that is not a whole number written in digits.',
  too_small: 'An integer below its minimum (limit below 1, offset below 0).',
  too_large: "An integer above its maximum (limit above the server's maximum; any beyond 2^53 - 1).",
  too_short: 'A text shorter than its minimum length.',
  too_long: 'A text, or an item of a list, longer than its maximum length.',
  invalid_url: 'A target (url, an item of urls, domain) without a valid host name.',
  empty_item: 'An empty item in a comma-separated list (urls, fields).',
  too_few_items: 'A list with fewer items than its minimum.',
  too_many_items: 'A list with more items than its maximum (urls: 10 on comparison, 6 on matrix).',
  invalid_month: 'A month not written YYYY-MM (01 to 12).',
  too_early: 'A month before its minimum (keyword month before 2012-01).',
  too_late: 'A month after the current month (keyword month).',
  invalid_range: 'A first month after the last one (date_from after date_to, or after the current month when date_to is left out).',
  unknown_field: 'A name in fields or order_by that is not a field of the operation (with the closest name).',
  not_sortable: 'order_by on an array field.',
  not_returned: 'order_by not among the returned fields (fields, else the default list).',
} as const satisfies Record<string, string>;

/**
 * The code of a parameter rule.
 *
 * @example
 * ```ts
 * const rule: ParameterRule = 'too_many_items';
 * ```
 */
export type ParameterRule = keyof typeof PARAMETER_RULES;

/**
 * Every parameter rule code.
 *
 * @example
 * ```ts
 * PARAMETER_RULE_CODES.includes('required'); // true
 * ```
 */
// Pure: a bundle that never reads the codes (the client's) leaves out the rule table with them.
export const PARAMETER_RULE_CODES = /* @__PURE__ */ Object.keys(PARAMETER_RULES) as readonly ParameterRule[];

/**
 * The rules the service applies beyond the parameters and the filter, by their code, with what
 * breaks them: the `rule` of an error detail, as the parameter rules and the filter's issue codes
 * are. Stable as those are.
 *
 * @example
 * ```ts
 * SERVICE_RULES.insufficient_units; // 'The key's balance does not cover the most the call can cost (402; ...).'
 * ```
 */
export const SERVICE_RULES = {
  more_issues: 'The last detail of a 400 whose problems were not all listed: `count` says how many more.',
  bad_url: 'A request path or query string that is not a valid URL (400).',
  missing_host: 'An HTTP/1.1 request without a Host header (400).',
  insufficient_units: "The key's balance does not cover the most the call can cost (402; the detail has required and remaining).",
  unsupported_filter: "A valid filter the store's SQL cannot run exactly (400; the parameter is filter).",
  store_unavailable: 'The database cannot answer now: a statement past its time bound, or the database down (503).',
  shutting_down: 'The server is shutting down and takes no new call (503).',
  playground_not_built: 'The playground page was asked for, but `npm run build` has not built it (404).',
  explore_not_built: 'The target page (/explore/) was asked for, but `npm run build` has not built it (404).',
} as const satisfies Record<string, string>;

/**
 * The code of a service rule.
 *
 * @example
 * ```ts
 * const rule: ServiceRule = 'shutting_down';
 * ```
 */
export type ServiceRule = keyof typeof SERVICE_RULES;

/**
 * Every code an error detail's `rule` may hold: a parameter rule, a filter issue code, a service
 * rule.
 *
 * @example
 * ```ts
 * const rules: ErrorRule[] = ['too_large', 'unknown_field', 'insufficient_units'];
 * ```
 */
export type ErrorRule = ParameterRule | IssueCode | ServiceRule;

/** One broken rule: the parameter, the rule's code, a sentence, and what helps (bounds, a suggestion). */
export interface ParameterIssue {
  readonly parameter: string;
  readonly rule: ParameterRule;
  readonly message: string;
  /** The closest known name, for unknown names. */
  readonly suggestion?: string;
  /** 0-based index of the item at fault, in a list. */
  readonly index?: number;
  readonly [extra: string]: unknown;
}

/** What the rules need beyond the values. */
export interface RuleContext {
  /** The current month, `YYYY-MM` (UTC). */
  readonly currentMonth: string;
  /** The largest `limit` (the server's configuration); without it only 2^53 - 1 bounds it. */
  readonly maxLimit?: number;
}

/** A value as a message shows it: strings quoted, anything else as JSON. */
function show(value: unknown): string {
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (value === undefined) return 'undefined';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

const item = (parameter: string, index: number): string => `${parameter} item ${index + 1}`;
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The issue of each rule, with its message: the one place where a rule's message is written.
 *
 * @example
 * ```ts
 * parameterIssue.too_small('limit', 1, 0).message; // 'limit must be at least 1, not 0.'
 * ```
 */
export const parameterIssue = {
  unknown_operation: (operation: string): ParameterIssue => ({
    parameter: 'operation',
    rule: 'unknown_operation',
    message: `Unknown operation ${show(operation)}.`,
  }),
  unknown_parameter: (operation: string, parameter: string, known: readonly string[]): ParameterIssue => {
    const hint = suggest(parameter, known);
    return {
      parameter,
      rule: 'unknown_parameter',
      message: `${operation} takes no parameter ${parameter}${didYouMean(hint)}`,
      ...(hint ? { suggestion: hint } : {}),
    };
  },
  repeated_parameter: (parameter: string): ParameterIssue => ({
    parameter,
    rule: 'repeated_parameter',
    message: `${parameter} may be given only once.`,
  }),
  bad_encoding: (parameter: string, escape: string): ParameterIssue => ({
    parameter,
    rule: 'bad_encoding',
    message: `${parameter} has a percent-escape that does not decode to UTF-8: ${escape} (encode the value as UTF-8, and a literal % as %25).`,
    escape,
  }),
  required: (operation: string, parameter: string): ParameterIssue => ({
    parameter,
    rule: 'required',
    message: `${operation} needs the parameter ${parameter}.`,
  }),
  invalid_type: (parameter: string, expected: string, value: unknown, index?: number): ParameterIssue => ({
    parameter,
    rule: 'invalid_type',
    message: `${index === undefined ? parameter : item(parameter, index)} must be ${expected}, not ${show(value)}.`,
    ...(index === undefined ? {} : { index }),
  }),
  invalid_value: (parameter: string, values: readonly string[], value: unknown, context: string): ParameterIssue => {
    // The CLI forgives the case of these values, so case is no part of how close a value is.
    const hint = typeof value === 'string' ? suggest(value, values, { anyCase: true }) : undefined;
    const allowed =
      values.length === 1
        ? `${values[0]} (the only value ${context} takes)`
        : values.length > 12
          ? `one of the ${values.length} codes listed in the interface`
          : `one of ${values.join(', ')}`;
    return {
      parameter,
      rule: 'invalid_value',
      message: `${parameter} must be ${allowed}, not ${show(value)}${didYouMean(hint)}`,
      allowed: values,
      ...(hint ? { suggestion: hint } : {}),
    };
  },
  comma_in_item: (parameter: string, index: number): ParameterIssue => ({
    parameter,
    rule: 'invalid_value',
    message: `${item(parameter, index)} contains a comma, which would split it in two on the wire.`,
    index,
  }),
  not_an_integer: (parameter: string, value: unknown): ParameterIssue => ({
    parameter,
    rule: 'not_an_integer',
    message: `${parameter} must be a whole number written in digits, not ${show(value)}.`,
  }),
  too_small: (parameter: string, minimum: number, value: number | string): ParameterIssue => ({
    parameter,
    rule: 'too_small',
    message: `${parameter} must be at least ${minimum}, not ${value}.`,
    minimum,
  }),
  too_large: (parameter: string, maximum: number, value: number | string): ParameterIssue => ({
    parameter,
    rule: 'too_large',
    message: `${parameter} must be at most ${maximum}, not ${value}.`,
    maximum,
  }),
  too_short: (parameter: string, minimum: number): ParameterIssue => ({
    parameter,
    rule: 'too_short',
    message: `${parameter} must have at least ${plural(minimum, 'character')}.`,
    minimum,
  }),
  too_long: (parameter: string, maximum: number, length: number, index?: number): ParameterIssue => ({
    parameter,
    rule: 'too_long',
    message: `${index === undefined ? parameter : item(parameter, index)} must have at most ${maximum} characters, not ${length}.`,
    maximum,
    ...(index === undefined ? {} : { index }),
  }),
  invalid_url: (parameter: string, index?: number): ParameterIssue => ({
    parameter,
    rule: 'invalid_url',
    message: `${index === undefined ? parameter : item(parameter, index)} has no valid host name.`,
    ...(index === undefined ? {} : { index }),
  }),
  empty_item: (parameter: string, index: number): ParameterIssue => ({
    parameter,
    rule: 'empty_item',
    message: `${item(parameter, index)} is empty.`,
    index,
  }),
  too_few_items: (parameter: string, minimum: number, count: number): ParameterIssue => ({
    parameter,
    rule: 'too_few_items',
    message: `${parameter} needs at least ${plural(minimum, 'item')}, not ${count}.`,
    minimum,
  }),
  too_many_items: (parameter: string, maximum: number, count: number): ParameterIssue => ({
    parameter,
    rule: 'too_many_items',
    message: `${parameter} takes at most ${plural(maximum, 'item')}, not ${count}.`,
    maximum,
  }),
  invalid_month: (parameter: string, value: unknown): ParameterIssue => ({
    parameter,
    rule: 'invalid_month',
    message: `${parameter} must be a month written YYYY-MM, not ${show(value)}.`,
  }),
  too_early: (parameter: string, minimum: string, value: string): ParameterIssue => ({
    parameter,
    rule: 'too_early',
    message: `${parameter} must be ${minimum} or later, not ${value}.`,
    minimum,
  }),
  too_late: (parameter: string, maximum: string, value: string): ParameterIssue => ({
    parameter,
    rule: 'too_late',
    message: `${parameter} must be ${maximum} (the current month) or earlier, not ${value}.`,
    maximum,
  }),
  invalid_range: (parameter: string, value: string, other: string, otherValue: string, defaulted: boolean): ParameterIssue => ({
    parameter,
    rule: 'invalid_range',
    message: `${parameter} (${value}) is after ${other} (${otherValue}${defaulted ? ', the current month' : ''}).`,
  }),
  unknown_field: (operation: string, parameter: string, field: string, known: readonly string[], index?: number): ParameterIssue => {
    const hint = suggest(field, known);
    return {
      parameter,
      rule: 'unknown_field',
      message: `${operation} has no field ${show(field)} (in ${parameter})${didYouMean(hint)}`,
      field,
      ...(index === undefined ? {} : { index }),
      ...(hint ? { suggestion: hint } : {}),
    };
  },
  not_sortable: (parameter: string, field: string): ParameterIssue => ({
    parameter,
    rule: 'not_sortable',
    message: `${parameter} cannot be ${field}: it is an array.`,
    field,
  }),
  not_returned: (parameter: string, field: string, returned: readonly string[]): ParameterIssue => ({
    parameter,
    rule: 'not_returned',
    message: `${parameter} must be one of the returned fields (${returned.join(', ')}), not ${field}.`,
    field,
  }),
} as const satisfies Record<ParameterRule | 'comma_in_item', (...args: never[]) => ParameterIssue>;

/** Result of checking one value: the canonical value, or what is wrong with it. */
export type CheckedValue = { readonly value: unknown } | { readonly issues: readonly ParameterIssue[] };

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const PROTOCOL = /^[a-z][a-z0-9+.-]*:\/\//i;
const HOST_CHARS = /^[\p{L}\p{N}._-]+$/u;

/**
 * The host of a target (protocol optional, port, user info and trailing dot dropped, lower case),
 * or `undefined` when it has none: the `invalid_url` rule. The server's target splitting reads
 * hosts the same way.
 *
 * @example
 * ```ts
 * targetHost('https://Blog.Example.com:8080/a'); // 'blog.example.com'
 * targetHost('https:///path');                   // undefined
 * ```
 */
export function targetHost(url: string): string | undefined {
  const rest = url.trim().replace(PROTOCOL, '');
  const end = rest.search(/[/?#]/);
  const authority = end === -1 ? rest : rest.slice(0, end);
  const host = authority
    .slice(authority.lastIndexOf('@') + 1)
    .replace(/:\d*$/, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (host.length === 0 || !HOST_CHARS.test(host) || host.startsWith('.') || host.includes('..')) return undefined;
  return host;
}

/** Whether a value counts as left out: `undefined`, `null`, an empty text or an empty list (as on the wire). */
export function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

const fail = (...issues: ParameterIssue[]): CheckedValue => ({ issues });

function checkString(name: string, spec: StringParam, value: unknown): CheckedValue {
  if (typeof value !== 'string') return fail(parameterIssue.invalid_type(name, 'a string', value));
  if (value.length < spec.minLength) return fail(parameterIssue.too_short(name, spec.minLength));
  if (value.length > spec.maxLength) return fail(parameterIssue.too_long(name, spec.maxLength, value.length));
  if (spec.target && targetHost(value) === undefined) return fail(parameterIssue.invalid_url(name));
  return { value };
}

/** The items of a list, trimmed, or the first problem of an item (type, empty, comma). */
function listItems(name: string, value: unknown, expected: string): { items: string[] } | { issues: ParameterIssue[] } {
  if (!Array.isArray(value)) return { issues: [parameterIssue.invalid_type(name, expected, value)] };
  const items: string[] = [];
  for (const [i, raw] of value.entries()) {
    if (typeof raw !== 'string') return { issues: [parameterIssue.invalid_type(name, 'a string', raw, i)] };
    const text = raw.trim();
    if (text === '') return { issues: [parameterIssue.empty_item(name, i)] };
    if (text.includes(',')) return { issues: [parameterIssue.comma_in_item(name, i)] };
    items.push(text);
  }
  return { items };
}

function checkStringList(name: string, spec: StringListParam, value: unknown): CheckedValue {
  const list = listItems(name, value, 'an array of strings');
  if ('issues' in list) return { issues: list.issues };
  const { items } = list;
  if (items.length < spec.minItems) return fail(parameterIssue.too_few_items(name, spec.minItems, items.length));
  if (items.length > spec.maxItems) return fail(parameterIssue.too_many_items(name, spec.maxItems, items.length));
  const long = items.findIndex((text) => text.length > spec.itemMaxLength);
  if (long !== -1) return fail(parameterIssue.too_long(name, spec.itemMaxLength, items[long]!.length, long));
  if (spec.target) {
    const hostless = items.flatMap((text, i) => (targetHost(text) === undefined ? [parameterIssue.invalid_url(name, i)] : []));
    if (hostless.length > 0) return fail(...hostless);
  }
  return { value: items };
}

function checkEnum(operation: OperationName, name: string, spec: EnumParam, value: unknown): CheckedValue {
  if (typeof value !== 'string') return fail(parameterIssue.invalid_type(name, 'a string', value));
  const found = spec.caseInsensitive ? spec.values.find((v) => v.toUpperCase() === value.toUpperCase()) : spec.values.find((v) => v === value);
  return found === undefined ? fail(parameterIssue.invalid_value(name, spec.values, value, operation)) : { value: found };
}

function checkInteger(name: string, spec: IntegerParam, value: unknown, ctx: RuleContext): CheckedValue {
  if (typeof value !== 'number') return fail(parameterIssue.invalid_type(name, 'a number', value));
  if (!Number.isInteger(value)) return fail(parameterIssue.not_an_integer(name, value));
  if (value < spec.min) return fail(parameterIssue.too_small(name, spec.min, value));
  const max = spec.serverMaximum && ctx.maxLimit !== undefined ? ctx.maxLimit : Number.MAX_SAFE_INTEGER;
  if (value > max) return fail(parameterIssue.too_large(name, max, value));
  return { value: value + 0 }; // -0 is 0
}

function checkMonth(name: string, spec: MonthParam, value: unknown, ctx: RuleContext): CheckedValue {
  if (typeof value !== 'string') return fail(parameterIssue.invalid_type(name, 'a string', value));
  const match = MONTH.exec(value);
  if (!match || match[1] === '0000') return fail(parameterIssue.invalid_month(name, value));
  // YYYY-MM texts order as the months do.
  if (spec.min !== undefined && value < spec.min) return fail(parameterIssue.too_early(name, spec.min, value));
  if (spec.maxIsCurrentMonth && value > ctx.currentMonth) return fail(parameterIssue.too_late(name, ctx.currentMonth, value));
  return { value };
}

function checkFields(operation: OperationName, name: string, _spec: FieldsParam, value: unknown): CheckedValue {
  const list = listItems(name, value, 'an array of field names');
  if ('issues' in list) return { issues: list.issues };
  const known = Object.keys(operations[operation].record);
  const unknown = list.items.flatMap((field, i) => (known.includes(field) ? [] : [parameterIssue.unknown_field(operation, name, field, known, i)]));
  return unknown.length > 0 ? fail(...unknown) : { value: list.items };
}

function checkOrderBy(operation: OperationName, name: string, _spec: OrderByParam, value: unknown): CheckedValue {
  if (typeof value !== 'string') return fail(parameterIssue.invalid_type(name, 'a field name', value));
  const record: RecordSpec = operations[operation].record;
  const field = Object.prototype.hasOwnProperty.call(record, value) ? record[value] : undefined;
  if (field === undefined) return fail(parameterIssue.unknown_field(operation, name, value, Object.keys(record)));
  if (!isSortableType(field.type)) return fail(parameterIssue.not_sortable(name, value));
  return { value };
}

/**
 * Checks one value (given, not absent) against its rule; returns the canonical value (a
 * country in upper case, list items trimmed) or the issues. `fields` and `order_by` are checked
 * against the record here, `order_by` against the returned fields by {@link checkParameters};
 * a filter passes through (the filter language checks it).
 *
 * @example
 * ```ts
 * checkValue('metrics', 'country', operations.metrics.params.country, 'us', ctx); // { value: 'US' }
 * ```
 */
export function checkValue(operation: OperationName, name: string, spec: ParamSpec, value: unknown, ctx: RuleContext): CheckedValue {
  switch (spec.kind) {
    case 'string':
      return checkString(name, spec, value);
    case 'string-list':
      return checkStringList(name, spec, value);
    case 'enum':
      return checkEnum(operation, name, spec, value);
    case 'integer':
      return checkInteger(name, spec, value, ctx);
    case 'month':
      return checkMonth(name, spec, value, ctx);
    case 'fields':
      return checkFields(operation, name, spec, value);
    case 'order-by':
      return checkOrderBy(operation, name, spec, value);
    case 'filter':
      return { value };
  }
}

const specsOf = (operation: OperationName): Readonly<Record<string, ParamSpec>> => operations[operation].params;

/**
 * The fields a call returns: its `fields`, else the operation's default list, else every field.
 *
 * @example
 * ```ts
 * returnedFields('links', ['anchor']);  // ['anchor']
 * returnedFields('comparison');         // ['score', 'backlinks_count', ..., 'url', 'scope']
 * ```
 */
export function returnedFields(operation: OperationName, fields?: readonly string[]): readonly string[] {
  if (fields !== undefined && fields.length > 0) return fields;
  const spec = specsOf(operation)['fields'];
  return spec?.kind === 'fields' && spec.default !== 'all' ? spec.default : Object.keys(operations[operation].record);
}

/**
 * The value a parameter takes when it is left out, if any: its default, or the current month.
 *
 * @example
 * ```ts
 * defaultValue(operations.links.params.limit, ctx); // 100
 * ```
 */
export function defaultValue(spec: ParamSpec, ctx: RuleContext): unknown {
  if (spec.kind === 'month') return spec.defaultIsCurrentMonth ? ctx.currentMonth : undefined;
  if (spec.kind === 'fields') return undefined;
  return 'default' in spec ? spec.default : undefined;
}

/** Options of {@link checkParameters}. */
export interface CheckParametersOptions {
  /** Parameters whose value the caller's own layer already rejected (a repeated name, a malformed integer): not checked again. */
  readonly reported?: ReadonlySet<string>;
}

/** The result of {@link checkParameters}. */
export interface CheckedParameters {
  /** The given values that follow their rules, canonical, by name (absent and rejected ones left out). */
  readonly values: Readonly<Record<string, unknown>>;
  /** Every broken rule: unknown names first, then by parameter in catalogue order. */
  readonly issues: readonly ParameterIssue[];
}

/**
 * Checks the values of a call against the operation's rules: unknown names, required ones, each
 * value, then the rules over several parameters (`order_by` among the returned fields, a first
 * month not after the last). Absent values (`undefined`, `null`, `''`, `[]`) count as left out.
 * Filters are not parsed here.
 *
 * @example
 * ```ts
 * checkParameters('links', { url: 'example.com', scope: 'PAGE', limit: 0 }, { currentMonth: '2026-06' }).issues;
 * // [{ parameter: 'limit', rule: 'too_small', message: 'limit must be at least 1, not 0.', minimum: 1 }]
 * ```
 */
export function checkParameters(
  operation: OperationName | string,
  given: Readonly<Record<string, unknown>>,
  ctx: RuleContext,
  options: CheckParametersOptions = {},
): CheckedParameters {
  if (!isOperationName(operation)) return { values: {}, issues: [parameterIssue.unknown_operation(operation)] };
  const specs = specsOf(operation);
  const known = Object.keys(specs);
  const issues: ParameterIssue[] = [];
  for (const name of Object.keys(given)) {
    if (!Object.prototype.hasOwnProperty.call(specs, name) && given[name] !== undefined) issues.push(parameterIssue.unknown_parameter(operation, name, known));
  }
  const values: Record<string, unknown> = {};
  const byName: ParameterIssue[][] = known.map(() => []);
  known.forEach((name, i) => {
    if (options.reported?.has(name)) return;
    const spec = specs[name]!;
    const value = given[name];
    if (isAbsent(value)) {
      if (spec.required) byName[i]!.push(parameterIssue.required(operation, name));
      return;
    }
    const checked = checkValue(operation, name, spec, value, ctx);
    if ('issues' in checked) byName[i]!.push(...checked.issues);
    else values[name] = checked.value;
  });
  // Rules over several parameters, for values that passed their own rule.
  const rejected = (name: string): boolean => options.reported?.has(name) === true || (byName[known.indexOf(name)]?.length ?? 0) > 0;
  known.forEach((name, i) => {
    const spec = specs[name]!;
    const value = values[name];
    if (typeof value !== 'string') return;
    if (spec.kind === 'order-by' && !rejected('fields')) {
      const returned = returnedFields(operation, values['fields'] as string[] | undefined);
      if (!returned.includes(value)) {
        byName[i]!.push(parameterIssue.not_returned(name, value, returned));
        delete values[name];
      }
    }
    if (spec.kind === 'month' && spec.notAfter !== undefined) {
      // Against the other month as given, else its default (unless it was given and broke its own rule).
      const otherSpec = specs[spec.notAfter];
      const stated = values[spec.notAfter];
      const other = stated ?? (otherSpec !== undefined && !rejected(spec.notAfter) ? defaultValue(otherSpec, ctx) : undefined);
      if (typeof other === 'string' && value > other) {
        byName[i]!.push(parameterIssue.invalid_range(name, value, spec.notAfter, other, stated === undefined));
        delete values[name];
      }
    }
  });
  for (const found of byName) issues.push(...found);
  return { values, issues };
}
