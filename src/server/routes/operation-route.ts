/**
 * One route per operation of the catalogue, all built by the same function: validated
 * parameters (validationPlugin) → the operation's answer → the charge → JSON or CSV.
 *
 * @module
 * @internal
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { operations, type OperationName, type OperationSpec } from '../../catalogue/operations.js';
import { clockAt } from '../clock.js';
import { csvColumns, toCsv } from '../csv.js';
import type { DomainParser } from '../deps.js';
import { ServiceError } from '../errors.js';
import { admitted } from '../plugins/guard.js';
import { querySchema, responseSchema } from '../schemas/json-schema.js';
import type { Store } from '../store/store.js';
import { requestParams } from '../validation/fastify-plugin.js';
import type { RequestParams } from '../validation/request-params.js';
import type { Answer } from './answer.js';
import { ANSWERS } from './answers.js';

/** What the routes need. @internal */
export interface RouteContext {
  readonly store: Store;
  readonly parser: DomainParser;
  readonly now: () => Date;
}

/** Methods answered with 405 on an operation's path (OPTIONS is the CORS preflight). */
const OTHER_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;

/**
 * The paths an operation answers at: the interface's (`/_api/apis/v4/...`) and the same without
 * `/_api` (`/apis/v4/...`), which clients of the real service call. @internal
 */
export const operationPaths = (spec: OperationSpec): readonly string[] => [spec.path, spec.path.replace(/^\/_api(?=\/)/, '')];

/** Registers the GET routes (and the 405 routes) of one operation at each of its paths. @internal */
export function registerOperation(fastify: FastifyInstance, name: OperationName, ctx: RouteContext): void {
  for (const path of operationPaths(operations[name])) registerAt(fastify, path, name, ctx);
}

function registerAt(fastify: FastifyInstance, path: string, name: OperationName, ctx: RouteContext): void {
  const spec: OperationSpec = operations[name];
  fastify.get(path, {
    config: { operation: name },
    exposeHeadRoute: false,
    // The query schema documents the route; the values are checked by validateRequest (the
    // validation plugin), so the route's own validator accepts everything.
    schema: { querystring: querySchema(name), response: { 200: responseSchema(name) } },
    validatorCompiler: () => () => true,
    handler: async (request, reply) => {
      const params = requestParams(request);
      const answer = await ANSWERS[name](params, { store: ctx.store, parser: ctx.parser, clock: clockAt(ctx.now()) });
      await chargeFor(ctx.store, request, reply, spec, answer);
      return params.format === 'csv' ? sendCsv(reply, spec, params, answer) : sendJson(request, spec, answer);
    },
  });
  fastify.route({
    method: [...OTHER_METHODS],
    url: path,
    handler: async (_request, reply) => {
      reply.header('Allow', 'GET, OPTIONS');
      throw new ServiceError(405, `${path} answers GET only.`);
    },
  });
}

/**
 * Charges the call to its key, or refuses it with 402 when the balance does not cover it. A call
 * whose client went away before its answer was ready is not charged: nobody will read it.
 */
async function chargeFor(store: Store, request: FastifyRequest, reply: FastifyReply, spec: OperationSpec, answer: Answer): Promise<void> {
  const state = admitted(request)!;
  if (state.aborted || request.raw.destroyed) return;
  const units = spec.price.per === 'request' ? spec.price.units : spec.price.units * answer.lines;
  const result = await store.charge(state.keyId, units);
  if (!result.ok) {
    throw new ServiceError(402, `This call costs ${units} units and the key has ${result.remaining} left.`, [
      { rule: 'insufficient_units', message: 'Not enough units left.', required: units, remaining: result.remaining },
    ]);
  }
  state.units = units;
  reply.header('X-Units-Charged', String(units)).header('X-Units-Remaining', String(result.remaining));
}

function sendJson(request: FastifyRequest, spec: OperationSpec, answer: Answer): unknown {
  const meta: Record<string, unknown> = { request_id: request.id, status_code: 200, success: true };
  for (const member of spec.meta) meta[member] = answer.meta[member] ?? (member === 'filter' || member === 'date_from' ? null : undefined);
  return { meta, data: answer.data };
}

function sendCsv(reply: FastifyReply, spec: OperationSpec, params: RequestParams, answer: Answer): string {
  const rows = Array.isArray(answer.data) ? answer.data : [answer.data];
  reply.type('text/csv; charset=utf-8');
  return toCsv(rows, csvColumns(spec.record, params.fields));
}
