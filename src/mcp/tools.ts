/**
 * The tools of `backlink-query mcp`, as data: one tool per operation of the catalogue (named after
 * the operation, described by its catalogue doc and price, its input the operation's parameters as
 * JSON Schema), plus `check-filter` and `complete-filter`. The parameter schemas are the server's
 * own (`paramSchema`, which the OpenAPI document uses too); only the lists differ, since a tool
 * takes `fields` and `urls` as JSON arrays (what the client takes), not as comma-joined text.
 *
 * @module
 * @internal
 */
import { filterFieldsOf } from '../catalogue/filter-fields.js';
import { MAX_MATRIX_TARGETS, OPERATION_NAMES, operations, type OperationName, type OperationSpec } from '../catalogue/operations.js';
import type { ParamSpec } from '../catalogue/parameters.js';
import { paramSchema, responseSchema, type JsonSchema } from '../catalogue/json-schema.js';

/** A tool as `tools/list` returns it. @internal */
export interface ToolDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: JsonSchema & { readonly type: 'object' };
  /** What `structuredContent` holds: the tool's answer, or `{ error }` when `isError` is set. */
  readonly outputSchema: JsonSchema & { readonly type: 'object' };
  readonly annotations?: Readonly<Record<string, unknown>>;
}

/*
 * Tool names are kebab-case, so an operation's tool is the operation's own name (`ref-domains`, as
 * the interface, the CLI and the client's `call` spell it) and the two filter tools match them.
 */
/** The tool that checks a filter. @internal */
export const CHECK_FILTER = 'check-filter';
/** The tool that completes a filter. @internal */
export const COMPLETE_FILTER = 'complete-filter';

/**
 * The filter tools' names before 0.2 (snake_case), still answered but not listed, so a client
 * configured with them keeps working while `tools/list` offers each tool once. @internal
 */
export const FORMER_TOOL_NAMES: Readonly<Record<string, string>> = { check_filter: CHECK_FILTER, complete_filter: COMPLETE_FILTER };

/**
 * Parameters no tool takes: results are always JSON (rows in `structuredContent`), as the CLI
 * lets its output format decide the wire format.
 *
 * @internal
 */
export const HIDDEN_PARAMS: ReadonlySet<string> = new Set(['format']);

/** The parameters of an operation that its tool takes, in catalogue order. @internal */
export function toolParams(operation: OperationName): ReadonlyArray<[string, ParamSpec]> {
  return Object.entries(operations[operation].params as Readonly<Record<string, ParamSpec>>).filter(([name]) => !HIDDEN_PARAMS.has(name));
}

/** A list's doc without the wire's "Comma-separated": the tool takes an array. */
const arrayDoc = (doc: string): string => doc.replace(/^Comma-separated (\w)/, (_, first: string) => first.toUpperCase());

/** The fields a filter of the operation may name, with their types, for the filter's description. */
function filterDoc(operation: OperationName, spec: ParamSpec): string {
  const fields = filterFieldsOf(operation).map((field) => `${field.label} (${field.type})`);
  return `${spec.doc}. Fields: ${fields.join(', ')}. Check a filter with ${CHECK_FILTER}, see what may come next with ${COMPLETE_FILTER}.`;
}

/**
 * The JSON Schema of one parameter as a tool takes it: the server's schema of the parameter,
 * except that `fields` and the lists of targets are arrays.
 *
 * @example
 * ```ts
 * toolParamSchema('links', 'fields', operations.links.params.fields);
 * // { type: 'array', items: { type: 'string', enum: ['source_url', ...] }, minItems: 1, description: ... }
 * ```
 * @internal
 */
export function toolParamSchema(operation: OperationName, name: string, spec: ParamSpec): JsonSchema {
  const record = operations[operation].record;
  switch (spec.kind) {
    case 'fields':
      return {
        type: 'array',
        items: { type: 'string', enum: Object.keys(record) },
        minItems: 1,
        uniqueItems: true,
        ...(spec.default !== 'all' && { default: spec.default }),
        description: arrayDoc(spec.doc),
      };
    case 'string-list':
      return {
        type: 'array',
        items: { type: 'string', minLength: 1, maxLength: spec.itemMaxLength },
        minItems: spec.minItems,
        maxItems: spec.maxItems,
        description: arrayDoc(spec.doc),
      };
    case 'filter':
      return { ...paramSchema(name, spec, record), description: filterDoc(operation, spec) };
    default:
      return paramSchema(name, spec, record);
  }
}

/**
 * The input schema of an operation's tool: its parameters (all but `format`), the required ones
 * required, no others.
 *
 * @example
 * ```ts
 * operationInputSchema('metrics').required; // ['keyword', 'country']
 * ```
 * @internal
 */
export function operationInputSchema(operation: OperationName): JsonSchema & { readonly type: 'object' } {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, spec] of toolParams(operation)) {
    properties[name] = toolParamSchema(operation, name, spec);
    if (spec.required) required.push(name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

/**
 * An operation's price as the OpenAPI document says it.
 *
 * @example
 * ```ts
 * priceText(operations.links); // '45 units per returned line'
 * ```
 * @internal
 */
export function priceText(spec: OperationSpec): string {
  const units = `${spec.price.units} ${spec.price.units === 1 ? 'unit' : 'units'}`;
  return spec.price.per === 'request' ? `${units} per request` : `${units} per returned line`;
}

/** A tool error's structured content: `{ error }`, its `kind` a stable code, the other members the facts of that kind. */
const TOOL_ERROR: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['kind'],
      properties: { kind: { type: 'string', description: 'What went wrong, a stable code: invalid_parameters, invalid_filter, over_budget, service, unavailable, ...' } },
    },
  },
  additionalProperties: false,
};

/** An output schema: one of the tool's answers, or a tool error. */
const answerOrError = (answer: JsonSchema): JsonSchema & { readonly type: 'object' } => ({ type: 'object', anyOf: [answer, TOOL_ERROR] });

const integer = { type: 'integer', minimum: 0 };

/**
 * The output schema of an operation's tool: the rows (or record) and the `meta` of the service's
 * answer, as the server's response schema says them, the units the call cost and the session's
 * account.
 *
 * @example
 * ```ts
 * operationOutputSchema('links').anyOf[0].properties.data.type; // 'array'
 * ```
 * @internal
 */
export function operationOutputSchema(operation: OperationName): JsonSchema & { readonly type: 'object' } {
  const response = responseSchema(operation)['properties'] as Readonly<Record<string, JsonSchema>>;
  return answerOrError({
    type: 'object',
    required: ['data', 'units', 'session'],
    properties: {
      data: response['data'],
      meta: response['meta'],
      units: { ...integer, description: 'The units this call cost' },
      session: {
        type: 'object',
        required: ['units_spent', 'budget_remaining'],
        properties: { units_spent: integer, budget_remaining: { type: ['integer', 'null'], description: 'Null when the session has no budget' } },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  });
}

function operationTool(operation: OperationName): ToolDefinition {
  const spec: OperationSpec = operations[operation];
  const worst = spec.price.per === 'line' ? ' The worst case (the most rows the call can return × the price) is estimated before sending and held to the session budget.' : '';
  return {
    name: operation,
    title: spec.doc,
    description: `${spec.doc}. Price: ${priceText(spec)}.${worst}${spec.filter ? ' Accepts a filter expression.' : ''}`,
    inputSchema: operationInputSchema(operation),
    outputSchema: operationOutputSchema(operation),
    // Calls read data but spend API units: not idempotent in cost, and they reach the service.
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  };
}

/** The operations that take a filter, in catalogue order. @internal */
export const FILTER_OPERATIONS: readonly OperationName[] = OPERATION_NAMES.filter((name) => operations[name].filter);

const operationArg = (purpose: string): JsonSchema => ({ type: 'string', enum: FILTER_OPERATIONS, description: `The operation (tool) the filter is ${purpose}` });
const targetsArg: JsonSchema = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_MATRIX_TARGETS,
  description: `For matrix: the number of targets (urls) of the call, 1-${MAX_MATRIX_TARGETS}, which bounds n in backlinks_counts[n]`,
};

const checkFilterTool: ToolDefinition = {
  name: CHECK_FILTER,
  title: 'Check a filter',
  description:
    'Checks a filter expression for an operation without calling the service (free). Answers ok with the canonical text, ' +
    'or every issue with its code, message, place (offset, length, line, column) and, where one is close, a suggestion.',
  inputSchema: {
    type: 'object',
    properties: { operation: operationArg('for'), filter: { type: 'string', description: 'The filter text' }, targets: targetsArg },
    required: ['operation', 'filter'],
    additionalProperties: false,
  },
  outputSchema: answerOrError({
    type: 'object',
    required: ['ok'],
    properties: {
      ok: { type: 'boolean' },
      canonical: { type: 'string', description: 'When ok: the filter printed canonically' },
      issues: { type: 'array', items: { type: 'object', required: ['code', 'message', 'offset', 'length'] }, description: 'When not ok: every issue' },
    },
    additionalProperties: false,
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

const completeFilterTool: ToolDefinition = {
  name: COMPLETE_FILTER,
  title: 'Complete a filter',
  description:
    'What may come at a place in a filter being written for an operation (free): fields with type and meaning, operators ' +
    "the field's type allows, keywords, literal templates. Each suggestion has the text to insert and the range [from, to) it replaces.",
  inputSchema: {
    type: 'object',
    properties: {
      operation: operationArg('written for'),
      text: { type: 'string', description: 'The filter text so far' },
      offset: { type: 'integer', minimum: 0, description: "The cursor: a 0-based offset into text (default: the end of text)" },
      targets: targetsArg,
    },
    required: ['operation', 'text'],
    additionalProperties: false,
  },
  outputSchema: answerOrError({
    type: 'object',
    required: ['suggestions'],
    properties: {
      suggestions: {
        type: 'array',
        items: { type: 'object', required: ['label', 'kind', 'from', 'to'], properties: { label: { type: 'string' }, kind: { type: 'string' }, from: integer, to: integer } },
      },
    },
    additionalProperties: false,
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

/**
 * Every tool: the twelve operations in catalogue order, then `check-filter` and `complete-filter`.
 *
 * @example
 * ```ts
 * toolDefinitions().map((tool) => tool.name); // ['overview', 'summary', 'links', ..., 'check-filter', 'complete-filter']
 * ```
 * @internal
 */
export function toolDefinitions(): readonly ToolDefinition[] {
  return [...OPERATION_NAMES.map(operationTool), checkFilterTool, completeFilterTool];
}
