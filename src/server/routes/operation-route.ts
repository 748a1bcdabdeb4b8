/**
 * One route per operation of the catalogue, all built by the same function: the guard's admitted
 * call and the validated parameters (validationPlugin) → the operation's answer → the charge → JSON
 * or CSV. A plugin that needs the guard and the validation registered before it.
 *
 * @module
 * @internal
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OPERATION_NAMES, operations, type OperationName, type OperationSpec } from '../../catalogue/operations.js';
import { clockAt } from '../clock.js';
import { csvColumns, toCsv } from '../../catalogue/csv.js';
import { serverPlugin, type DomainParser } from '../deps.js';
import { ServiceError } from '../errors.js';
import { GUARD_PLUGIN, type AdmittedCall } from '../plugins/guard.js';
import type { Accounts } from '../accounts/accounts.js';
import type { Hold } from '../accounts/charge-book.js';
import { STORE_PLUGIN } from '../plugins/store.js';
import { forCall } from '../store/store.js';
import { querySchema, responseSchema } from '../../catalogue/json-schema.js';
import type { Store } from '../store/store.js';
import { requestParams, VALIDATION_PLUGIN } from '../validation/fastify-plugin.js';
import type { RequestParams } from '../validation/request-params.js';
import type { Answer } from './answer-types.js';
import { ANSWERS } from './operation-answers.js';

/** What the routes are given (the store and the accounts are the instance's decorations, `plugins/store.ts`). @internal */
export interface RouteOptions {
  readonly parser: DomainParser;
  readonly now: () => Date;
}

/** What the routes need. @internal */
interface RouteContext extends RouteOptions {
  readonly store: Store;
  /** The units: held at admission, charged when answered, written after the answer. */
  readonly accounts: Accounts;
}

/**
 * The paths an operation answers at: the interface's (`/_api/apis/v4/...`) and the same without
 * `/_api` (`/apis/v4/...`), which clients of the real service call. @internal
 */
export const operationPaths = (spec: OperationSpec): readonly string[] => [spec.path, spec.path.replace(/^\/_api(?=\/)/, '')];

/**
 * The GET route of every operation at each of its paths (other methods: 405, see
 * service-routes.ts). Its handlers read the guard's `request.admittedCall` and the validation's
 * `request.operationParams`: registering it without both plugins registered before it fails
 * `ready()`.
 *
 * @example
 * ```ts
 * await fastify.register(operationRoutes, { parser, now });
 * ```
 * @internal
 */
export const operationRoutes = serverPlugin<RouteOptions>(
  async (fastify, options) => {
    const ctx: RouteContext = { ...options, store: fastify.store, accounts: fastify.accounts };
    for (const name of OPERATION_NAMES) for (const path of operationPaths(operations[name])) registerAt(fastify, path, name, ctx);
  },
  { name: 'backlink-query-operations', dependencies: [GUARD_PLUGIN, VALIDATION_PLUGIN, STORE_PLUGIN] },
);

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
      // An operation's route is keyed: the guard admitted the call before validation ran.
      const call = request.admittedCall!;
      const hold = await admit(ctx, call.keyId, spec, params);
      let answer: Answer;
      try {
        // The request's id names the call's statements (ClickHouse's query_id: see nextStatementName).
        answer = await call.work(forCall(call.signal, () => ANSWERS[name](params, { store: ctx.store, parser: ctx.parser, clock: clockAt(ctx.now()) }), request.id));
      } catch (error) {
        ctx.accounts.release(hold);
        // An abandoned call answers nobody (its log line is the guard's).
        if (gone(request)) return reply.hijack();
        throw error;
      }
      if (!(await charge(ctx, request, reply, call, hold, spec.price.per === 'request' ? spec.price.units : spec.price.units * answer.lines))) return reply.hijack();
      // Nothing but synchronous work and promise jobs runs from here to the answer's write, so
      // the connection checked open at the charge is the one the answer is written to.
      return params.format === 'csv' ? sendCsv(reply, spec, params, answer) : sendJson(request, spec, answer);
    },
  });
}

/**
 * Whether the client of a call has gone. Node destroys a request whose connection closes, or whose
 * client ends its side of it, before the answer is written, at once (the call's signal aborts a
 * moment later, from the close event).
 */
const gone = (request: FastifyRequest): boolean => request.raw.destroyed;

/**
 * Holds the most the call can cost (the price of every line it may return) on its key's balance
 * before any query runs, or refuses it with 402: a key without units costs the server nothing, and
 * calls of one key running at once never promise more than the balance.
 */
async function admit(ctx: RouteContext, keyId: string, spec: OperationSpec, params: RequestParams): Promise<Hold> {
  const required = worstCase(spec, params);
  const held = await ctx.accounts.hold(keyId, required);
  if (held.ok) return held.hold;
  const remaining = held.remaining;
  const bound = spec.price.per === 'line' ? ` (${spec.price.units} per line, up to ${required / spec.price.units} lines)` : '';
  throw new ServiceError(402, `This call may cost up to ${required} units${bound} and the key has ${remaining} left.`, [
    { rule: 'insufficient_units', message: 'Not enough units left for the most this call can cost.', required, remaining },
  ]);
}

/**
 * The most a call can cost: its price per request, or per line times the most lines it can return
 * (its `limit`, else its number of `urls`, else the catalogue's `price.maxLines`).
 *
 * @throws TypeError for an operation priced per line that has none of the three: a catalogue entry
 * the server cannot hold units for, a mistake in the catalogue (every operation of it has one; no
 * request can cause this).
 * @internal
 */
export function worstCase(spec: OperationSpec, params: RequestParams): number {
  if (spec.price.per === 'request') return spec.price.units;
  const lines = params.limit ?? params.urls?.length ?? spec.price.maxLines;
  if (lines === undefined) throw new TypeError(`${spec.method}: no bound on the lines a call returns (limit, urls or price.maxLines)`);
  return spec.price.units * lines;
}

/**
 * Charges the call what it costs, in the ledger's memory; the charge is written to the store once
 * the whole answer has been handed to the connection (the response's `finish`). An answer the
 * connection closed on before that, and a call whose client has already left, are not charged.
 * Returns whether the answer is to be written.
 */
async function charge(ctx: RouteContext, request: FastifyRequest, reply: FastifyReply, call: AdmittedCall, hold: Hold, units: number): Promise<boolean> {
  const charged = await ctx.accounts.charge(hold, units);
  if (gone(request)) {
    ctx.accounts.release(charged.hold);
    return false;
  }
  call.units = units;
  whenWritten(reply.raw, (written) => {
    // An error after this point (the answer could not be serialized) is answered, and not charged.
    if (written && reply.statusCode === 200) return ctx.accounts.commit(charged.hold);
    ctx.accounts.release(charged.hold);
    if (!written) call.units = 0;
  });
  reply.header('X-Units-Charged', String(units)).header('X-Units-Remaining', String(charged.remaining));
  return true;
}

/**
 * Calls `settle(true)` once the whole response has been handed to the connection (`finish`), or
 * `settle(false)` if the connection closes before that (`close` first). @internal
 */
export function whenWritten(response: ServerResponse, settle: (written: boolean) => void): void {
  let settled = false;
  const once = (written: boolean) => () => void (settled || ((settled = true), settle(written)));
  response.once('finish', once(true)).once('close', once(false));
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
