/**
 * JSON Schemas generated from the catalogue: the query string of each operation (documentation
 * and OpenAPI; the values are checked by validateRequest), and each operation's 200 response,
 * which Fastify's serializer uses.
 *
 * @module
 */
import { fieldDoc } from './field-docs.js';
import { operations, type OperationName, type OperationSpec } from './operations.js';
import type { ParamSpec } from './parameters.js';
import type { FieldType, RecordSpec } from './records.js';
import { DEFAULT_MAX_LIMIT } from './parameters.js';

/** A JSON Schema (the subset generated here). */
export type JsonSchema = Readonly<Record<string, unknown>>;

const FIELD_SCHEMAS: Readonly<Record<FieldType, JsonSchema>> = {
  string: { type: 'string' },
  timestamp: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$' },
  integer: { type: 'integer' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  'integer[]': { type: 'array', items: { type: 'integer' } },
  'string[]': { type: 'array', items: { type: 'string' } },
};

/** Types of the meta members that echo the request. */
const META_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  total: { type: 'integer', description: 'Rows matching before paging' },
  limit: { type: 'integer' },
  offset: { type: 'integer' },
  direction: { type: 'string', enum: ['ASC', 'DESC'] },
  order_by: { type: 'string' },
  filter: { type: ['string', 'null'], description: 'The filter as passed; null when absent' },
  url: { type: 'string', description: 'The url as passed' },
  urls: { type: 'array', items: { type: 'string' } },
  effective_url: { type: 'string', description: 'The normalized target the scope matched' },
  scope: { type: 'string' },
  domain: { type: 'string' },
  date_from: { type: ['string', 'null'] },
  date_to: { type: 'string' },
  keyword: { type: 'string' },
  country: { type: 'string' },
  month: { type: 'string' },
};

/**
 * The schema of a record: every field optional, since `fields` may select some.
 *
 * @example
 * ```ts
 * recordSchema(operations.anchors.record).properties.backlinks_count; // { type: 'integer', description }
 * ```
 */
export function recordSchema(record: RecordSpec): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [name, spec] of Object.entries(record)) properties[name] = { ...FIELD_SCHEMAS[spec.type], description: fieldDoc(record, name) ?? '' };
  return { type: 'object', properties, additionalProperties: false };
}

/**
 * The 200 response of an operation: `{ meta, data }`.
 *
 * @example
 * ```ts
 * responseSchema('links').properties.data.type; // 'array'
 * ```
 */
export function responseSchema(name: OperationName): JsonSchema {
  const spec: OperationSpec = operations[name];
  const meta: Record<string, JsonSchema> = {
    request_id: { type: 'string' },
    status_code: { type: 'integer' },
    success: { type: 'boolean' },
  };
  for (const member of spec.meta) meta[member] = META_SCHEMAS[member] ?? { type: 'string' };
  const record = recordSchema(spec.record);
  return {
    type: 'object',
    required: ['meta', 'data'],
    properties: {
      meta: { type: 'object', required: ['request_id', 'status_code', 'success'], properties: meta },
      data: spec.shape === 'list' ? { type: 'array', items: record } : record,
    },
  };
}

/** The JSON Schema of one parameter's wire value. @internal */
export function paramSchema(name: string, spec: ParamSpec, record: RecordSpec): JsonSchema {
  const base = { description: spec.doc };
  switch (spec.kind) {
    case 'string':
      return { ...base, type: 'string', minLength: spec.minLength, maxLength: spec.maxLength };
    case 'string-list':
      return { ...base, type: 'string', description: `${spec.doc} (at most ${spec.maxItems}, comma-separated)` };
    case 'enum':
      // A case-insensitive enum (country) lists its canonical values; other cases are accepted too.
      return { ...base, type: 'string', enum: spec.values, ...(spec.default ? { default: spec.default } : {}) };
    case 'integer':
      return { ...base, type: 'integer', minimum: spec.min, ...(spec.serverMaximum ? { maximum: DEFAULT_MAX_LIMIT } : {}), ...(spec.default !== undefined ? { default: spec.default } : {}) };
    case 'month':
      return { ...base, type: 'string', pattern: '^\\d{4}-(0[1-9]|1[0-2])$' };
    case 'fields':
      return { ...base, type: 'string', description: `${spec.doc}. One or more of: ${Object.keys(record).join(', ')}` };
    case 'order-by':
      return { ...base, type: 'string', enum: Object.keys(record).filter((f) => !record[f]!.type.endsWith('[]')), ...(spec.default ? { default: spec.default } : {}) };
    case 'filter':
      return { ...base, type: 'string', maxLength: 4096 };
  }
}

/**
 * The query-string schema of an operation.
 *
 * @example
 * ```ts
 * querySchema('links').required; // ['url', 'scope']
 * ```
 */
export function querySchema(name: OperationName): JsonSchema {
  const spec: OperationSpec = operations[name];
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [param, rule] of Object.entries(spec.params)) {
    properties[param] = paramSchema(param, rule, spec.record);
    if (rule.required) required.push(param);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}
