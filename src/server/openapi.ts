/**
 * The OpenAPI 3.1 document of the service, generated from the catalogue: every operation's path,
 * parameters, 200 response (JSON, and CSV where offered), error envelope, units headers and the
 * `Authorization: Apikey <key>` scheme. Served at `GET /openapi.json` and kept in docs/openapi.json.
 *
 * @module
 */
import { BALANCE_PATH } from '../catalogue/balance.js';
import { OPERATION_NAMES, operations, type OperationSpec } from '../catalogue/operations.js';
import { ERROR_KINDS, publicBaseUrl } from './errors.js';
import { HEALTH_PATH } from './routes/service-routes.js';
import { paramSchema, responseSchema, type JsonSchema } from '../catalogue/json-schema.js';

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
      required: ['type', 'code', 'message', 'retryable', 'details'],
      properties: {
        type: { type: 'string', description: `The documentation of this kind of error: <docs page>#<kind>, the kind one of ${Object.keys(ERROR_KINDS).join(', ')}` },
        code: { type: 'integer', enum: [...new Set(Object.values(ERROR_KINDS).map((kind) => kind.status))], description: 'The HTTP status' },
        message: { type: 'string' },
        retryable: { type: 'boolean' },
        details: {
          type: 'array',
          items: {
            type: 'object',
            required: ['message'],
            properties: {
              message: { type: 'string' },
              parameter: { type: 'string' },
              rule: { type: 'string', description: 'A stable snake_case code of the rule broken' },
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
  const units = `${spec.price.units} ${spec.price.units === 1 ? 'unit' : 'units'}`;
  const price = spec.price.per === 'request' ? `${units} per request` : `${units} per returned line`;
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
      ...ERROR_RESPONSES,
    },
  };
}

const ERROR_RESPONSES = {
  '400': errorResponse('Invalid parameters; details name each parameter and rule (filter issues carry offsets)'),
  '401': errorResponse('Missing or invalid API key'),
  '402': errorResponse('The key has not enough units left for this call'),
  '404': errorResponse('No data (keyword metrics) or unknown path'),
  '405': errorResponse('Method other than GET or OPTIONS'),
  '429': errorResponse('Rate limit exceeded; see Retry-After'),
  '431': errorResponse('Request line and headers longer than the server reads (128 KiB)'),
  '500': errorResponse('Internal error (nothing is leaked)'),
  '503': errorResponse('The database cannot answer now; retryable, see Retry-After'),
};

/**
 * The 200 answer of a route beside the operations (the balance, the health check): the envelope
 * `{ meta, data }`, its meta the three members every answer has, and its request id header.
 */
const envelopeResponse = (description: string, data: JsonSchema) => ({
  description,
  headers: { 'X-Request-Id': successHeaders['X-Request-Id'] },
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['meta', 'data'],
        properties: {
          meta: { type: 'object', properties: { request_id: { type: 'string' }, status_code: { type: 'integer' }, success: { type: 'boolean' } } },
          data,
        },
      },
    },
  },
});

/** The units balance (not one of the interface's operations). */
const balanceOperation = {
  operationId: 'unitsBalance',
  summary: "The key's remaining units",
  description: 'Free of charge. Also served without the /_api prefix.',
  responses: {
    '200': envelopeResponse('Success', { type: 'object', required: ['units_remaining'], properties: { units_remaining: { type: 'integer', minimum: 0 } } }),
    '401': ERROR_RESPONSES['401'],
    '429': ERROR_RESPONSES['429'],
    '503': ERROR_RESPONSES['503'],
  },
};

/** The health check of container and orchestrator probes (not one of the interface's operations). */
const healthOperation = {
  operationId: 'health',
  summary: 'Whether the server and its store answer',
  description: 'No key, free of charge, not counted toward any rate limit. 503 when the store does not answer.',
  security: [],
  responses: {
    '200': envelopeResponse('The store answers', {
      type: 'object',
      required: ['store', 'answering'],
      properties: {
        store: { type: 'string', description: 'The kind of store: embedded, sqlite, postgres or clickhouse' },
        answering: { type: 'boolean', const: true },
      },
    }),
    '400': ERROR_RESPONSES['400'],
    '503': errorResponse('The store does not answer; retryable, see Retry-After'),
  },
};

/**
 * The OpenAPI document; with `publicUrl` (the server's option) it names the server in `servers`.
 *
 * @example
 * ```ts
 * const doc = openApiDocument();
 * Object.keys(doc.paths).length; // 14: the twelve operations, the units balance and the health check
 * ```
 */
export function openApiDocument(options: { readonly publicUrl?: string } = {}): { readonly openapi: string; readonly paths: Record<string, unknown>; readonly [key: string]: unknown } {
  const paths: Record<string, unknown> = {};
  for (const name of OPERATION_NAMES) {
    const spec: OperationSpec = operations[name];
    paths[spec.path] = { get: operationObject(name, spec) };
  }
  paths[BALANCE_PATH] = { get: balanceOperation };
  paths[HEALTH_PATH] = { get: healthOperation };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Backlink and Keyword Data Service (backlink-query reference server)',
      version: '4.1.0',
      description:
        'Read-only backlink analytics and keyword metrics. Every operation is a GET and is billed in API units. Every path is also served without its /_api prefix. ' +
        'Errors: see the /errors page of the server (the `type` of every error body).',
    },
    // Without it, OpenAPI's default server is `/`: the document's own origin.
    ...(options.publicUrl === undefined ? {} : { servers: [{ url: publicBaseUrl(options.publicUrl) }] }),
    security: [{ Apikey: [] }, { ApikeyQuery: [] }],
    paths,
    components: {
      securitySchemes: {
        Apikey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The word Apikey, one space, then the key' },
        ApikeyQuery: { type: 'apiKey', in: 'query', name: 'key', description: 'The key itself (GET); the header wins when both are given' },
      },
      schemas: { Error: errorSchema },
    },
  };
}
