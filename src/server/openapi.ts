/**
 * The OpenAPI 3.1 document of the service, generated from the catalogue: every operation's path,
 * parameters, 200 response (JSON, and CSV where offered), error envelope, units headers and the
 * `Authorization: Apikey <key>` scheme. Served at `GET /openapi.json` and kept in docs/openapi.json.
 *
 * @module
 */
import { OPERATION_NAMES, operations, type OperationSpec } from '../catalogue/operations.js';
import { ERROR_CODES } from './errors.js';
import { paramSchema, responseSchema, type JsonSchema } from './schemas/json-schema.js';

const errorSchema: JsonSchema = {
  type: 'object',
  required: ['meta', 'error'],
  properties: {
    meta: {
      type: 'object',
      properties: { request_id: { type: 'string' }, status_code: { type: 'integer' }, success: { type: 'boolean', const: false } },
    },
    error: {
      type: 'object',
      properties: {
        code: { type: 'string', enum: Object.values(ERROR_CODES) },
        message: { type: 'string' },
        retryable: { type: 'boolean' },
        details: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              parameter: { type: 'string' },
              code: { type: 'string' },
              message: { type: 'string' },
              offset: { type: 'integer' },
              length: { type: 'integer' },
              line: { type: 'integer' },
              column: { type: 'integer' },
              suggestion: { type: 'string' },
            },
          },
        },
      },
    },
  },
};

const header = (description: string, type = 'integer') => ({ description, schema: { type } });
const successHeaders = {
  'X-Request-Id': header('Identifier of the call (also in meta.request_id)', 'string'),
  'X-Units-Charged': header('API units charged for this call'),
  'X-Units-Remaining': header("The key's unit balance after this call"),
};
const errorResponse = (description: string) => ({
  description,
  headers: { 'X-Request-Id': successHeaders['X-Request-Id'] },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function operationObject(name: string, spec: OperationSpec): Record<string, unknown> {
  const content: Record<string, unknown> = { 'application/json': { schema: responseSchema(name as keyof typeof operations) } };
  if (spec.csv) content['text/csv'] = { schema: { type: 'string', description: 'Header then rows; `;` delimiter; RFC 4180 quoting' } };
  const price = spec.price.per === 'request' ? `${spec.price.units} units per request` : `${spec.price.units} units per returned line`;
  return {
    operationId: spec.method,
    summary: spec.doc,
    description: `${spec.doc}. Price: ${price}.${spec.filter ? ' Accepts a filter expression.' : ''}`,
    parameters: Object.entries(spec.params).map(([param, rule]) => ({
      name: param,
      in: 'query',
      required: rule.required,
      schema: paramSchema(param, rule, spec.record),
    })),
    responses: {
      '200': { description: 'Success', headers: successHeaders, content },
      '400': errorResponse('Invalid parameters; details name each parameter and rule (filter issues carry offsets)'),
      '401': errorResponse('Missing or invalid API key'),
      '402': errorResponse('The key has not enough units left for this call'),
      '404': errorResponse('No data (keyword metrics) or unknown path'),
      '405': errorResponse('Method other than GET'),
      '429': errorResponse('Rate limit exceeded; see Retry-After'),
      '500': errorResponse('Internal error (nothing is leaked)'),
    },
  };
}

/**
 * The OpenAPI document.
 *
 * @example
 * ```ts
 * const doc = openApiDocument();
 * Object.keys(doc.paths).length; // 12
 * ```
 */
export function openApiDocument(): { readonly openapi: string; readonly paths: Record<string, unknown>; readonly [key: string]: unknown } {
  const paths: Record<string, unknown> = {};
  for (const name of OPERATION_NAMES) {
    const spec: OperationSpec = operations[name];
    paths[spec.path] = { get: operationObject(name, spec) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Backlink and Keyword Data Service (backlink-query reference server)',
      version: '4.1.0',
      description: 'Read-only backlink analytics and keyword metrics. Every operation is a GET and is billed in API units.',
    },
    security: [{ Apikey: [] }],
    paths,
    components: {
      securitySchemes: {
        Apikey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The word Apikey, one space, then the key' },
      },
      schemas: { Error: errorSchema },
    },
  };
}
