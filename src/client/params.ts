/**
 * Every parameter rule of the catalogue, checked before a request is sent, and the encoding of
 * the checked parameters as a query string. Nothing here names an operation or a field: the rules
 * come from `operations[op].params`.
 *
 * @module
 */
import { operations, type OperationName } from '../catalogue/operations.js';
import type { ParamSpec } from '../catalogue/parameters.js';
import { ParameterError } from '../errors/filter-error.js';
import { suggest } from '../validate/suggest.js';
import { normalizeFilter } from './filter-param.js';

/** Parameters as plain data, before typing narrows them. @internal */
export type RawParams = Readonly<Record<string, unknown>>;

/**
 * Checks `params` against the operation's rules and returns the query to send, in catalogue order
 * (multi-valued parameters comma-joined, the filter in canonical text). Throws `ParameterError`
 * (naming the parameter) or `FilterError`.
 *
 * @example
 * ```ts
 * checkParams('links', { url: 'example.com', scope: 'ROOT_DOMAIN', fields: ['anchor'] }, Date.now());
 * // URLSearchParams url=example.com&scope=ROOT_DOMAIN&fields=anchor
 * ```
 */
export function checkParams(operation: OperationName, params: RawParams, now: number): URLSearchParams {
  const specs = operations[operation].params as Readonly<Record<string, ParamSpec>>;
  if (typeof params !== 'object' || params === null) throw new ParameterError('params', 'invalid_type', 'The parameters must be an object.');
  for (const key of Object.keys(params)) {
    if (!(key in specs) && params[key] !== undefined) {
      const hint = suggest(key, Object.keys(specs));
      throw new ParameterError(key, 'unknown_parameter', `${operation} takes no parameter ${key}${hint ? `; did you mean ${hint}?` : ''}.`);
    }
  }
  const query = new URLSearchParams();
  for (const [name, spec] of Object.entries(specs)) {
    const value = params[name];
    if (value === undefined || value === null) {
      if (spec.required) throw new ParameterError(name, 'required', `${operation} needs the parameter ${name}.`);
      continue;
    }
    const wire = checkOne(operation, name, spec, value, params, now);
    if (wire !== undefined) query.set(name, wire);
  }
  checkMonthOrder(params);
  return query;
}

/** Checks one value against its rule; returns its text on the wire (`undefined`: send nothing). */
function checkOne(operation: OperationName, name: string, spec: ParamSpec, value: unknown, params: RawParams, now: number): string | undefined {
  switch (spec.kind) {
    case 'string':
      return checkString(name, value, spec.minLength, spec.maxLength);
    case 'string-list':
      return checkList(name, value, spec.minItems, spec.maxItems, spec.itemMaxLength).join(',');
    case 'enum':
      if (typeof value !== 'string' || !spec.values.includes(value)) {
        throw new ParameterError(name, 'invalid_value', `${name} must be one of ${spec.values.join(', ')}, not ${JSON.stringify(value)}.`);
      }
      return value;
    case 'integer':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new ParameterError(name, 'invalid_type', `${name} must be an integer, not ${JSON.stringify(value)}.`);
      if (value < spec.min) throw new ParameterError(name, 'out_of_range', `${name} must be at least ${spec.min}, not ${value}.`);
      return String(value);
    case 'month':
      return checkMonth(name, value, spec.min, spec.maxIsCurrentMonth ? currentMonth(now) : undefined);
    case 'fields':
      return checkFields(operation, name, value).join(',');
    case 'order-by':
      return checkOrderBy(operation, name, value, params);
    case 'filter':
      return normalizeFilter(operation, value, params);
  }
}

function checkString(name: string, value: unknown, min: number, max: number): string {
  if (typeof value !== 'string') throw new ParameterError(name, 'invalid_type', `${name} must be a string.`);
  if (value.length < min) throw new ParameterError(name, 'too_short', `${name} must have at least ${min} character${min === 1 ? '' : 's'}.`);
  if (value.length > max) throw new ParameterError(name, 'too_long', `${name} must have at most ${max} characters, not ${value.length}.`);
  return value;
}

function checkList(name: string, value: unknown, min: number, max: number, itemMax: number): readonly string[] {
  if (!Array.isArray(value)) throw new ParameterError(name, 'invalid_type', `${name} must be an array of strings.`);
  if (value.length < min) throw new ParameterError(name, 'too_few', `${name} needs at least ${min} item${min === 1 ? '' : 's'}.`);
  if (value.length > max) throw new ParameterError(name, 'too_many', `${name} takes at most ${max} items, not ${value.length}.`);
  value.forEach((item, i) => {
    checkString(`${name}[${i}]`, item, 1, itemMax);
    // The list is comma-joined on the wire, so a comma inside an item would split it in two.
    if ((item as string).includes(',')) throw new ParameterError(name, 'invalid_value', `${name}[${i}] may not contain a comma.`);
  });
  return value as string[];
}

/** `YYYY-MM` of the current month, UTC. @internal */
export function currentMonth(now: number): string {
  return new Date(now).toISOString().slice(0, 7);
}

function checkMonth(name: string, value: unknown, min: string | undefined, max: string | undefined): string {
  if (typeof value !== 'string' || !/^\d{4}-(0[1-9]|1[0-2])$/.test(value)) {
    throw new ParameterError(name, 'invalid_format', `${name} must be a month YYYY-MM, not ${JSON.stringify(value)}.`);
  }
  // YYYY-MM texts order as the months do.
  if (min !== undefined && value < min) throw new ParameterError(name, 'out_of_range', `${name} must be ${min} or later, not ${value}.`);
  if (max !== undefined && value > max) throw new ParameterError(name, 'out_of_range', `${name} must be ${max} (the current month) or earlier, not ${value}.`);
  return value;
}

function checkMonthOrder(params: RawParams): void {
  const { date_from: from, date_to: to } = params;
  if (typeof from === 'string' && typeof to === 'string' && from > to) {
    throw new ParameterError('date_from', 'out_of_range', `date_from (${from}) is after date_to (${to}).`);
  }
}

function fieldNames(operation: OperationName): readonly string[] {
  return Object.keys(operations[operation].record);
}

function checkField(operation: OperationName, name: string, field: unknown): string {
  const known = fieldNames(operation);
  if (typeof field !== 'string' || !known.includes(field)) {
    const hint = typeof field === 'string' ? suggest(field, known) : undefined;
    throw new ParameterError(name, 'unknown_field', `${operation} has no field ${JSON.stringify(field)}${hint ? `; did you mean ${hint}?` : ''}.`);
  }
  return field;
}

function checkFields(operation: OperationName, name: string, value: unknown): readonly string[] {
  if (!Array.isArray(value)) throw new ParameterError(name, 'invalid_type', `${name} must be an array of field names.`);
  if (value.length === 0) throw new ParameterError(name, 'too_few', `${name} must name at least one field (leave it out for the default).`);
  return value.map((field) => checkField(operation, name, field));
}

/** The fields a call returns: its `fields`, else the operation's default list, else every field. @internal */
export function returnedFields(operation: OperationName, params: RawParams): readonly string[] {
  if (Array.isArray(params['fields'])) return params['fields'] as string[];
  const spec = (operations[operation].params as Readonly<Record<string, ParamSpec>>)['fields'];
  return spec?.kind === 'fields' && spec.default !== 'all' ? spec.default : fieldNames(operation);
}

function checkOrderBy(operation: OperationName, name: string, value: unknown, params: RawParams): string {
  const field = checkField(operation, name, value);
  const returned = returnedFields(operation, params);
  if (!returned.includes(field)) {
    throw new ParameterError(name, 'not_returned', `${name} must be among the returned fields (${returned.join(', ')}), not ${field}.`);
  }
  return field;
}
