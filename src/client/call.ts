/**
 * One call of one operation: check the parameters, price the call against the budget, send it,
 * decode and check the response, and charge what it cost.
 *
 * @module
 * @internal
 */
import { BALANCE_PATH } from '../catalogue/balance.js';
import { operations, type OperationName } from '../catalogue/operations.js';
import { UnitLedger } from './budget.js';
import { decodeCsv, decodeJson, ShapeProblem } from './decode.js';
import { ResponseShapeError } from './errors.js';
import type { RawParams } from './params.js';
import { queryFor, type ValidationMode } from './query.js';
import { send, type RawResponse, type TransportConfig } from './transport.js';
import type { CallOptions, CsvResult, JsonResult } from './types.js';
import { estimateUntyped, unitsOf } from './units.js';

/** What every call shares. @internal */
export interface CallContext {
  readonly baseUrl: string;
  readonly transport: TransportConfig;
  readonly ledger: UnitLedger;
  /** Where parameters and filters are checked (`ClientOptions.validation`). */
  readonly validation: ValidationMode;
}

type Row = Record<string, unknown>;
/** The result of a call typed for any operation (`client.callOperation`): `data` is one row or a list of rows. */
export type AnyResult =
  | (Omit<JsonResult<OperationName, Record<string, unknown>>, 'data'> & { readonly data: Record<string, unknown> | Record<string, unknown>[] })
  | (Omit<CsvResult<OperationName, Record<string, unknown>>, 'data'> & { readonly data: Record<string, unknown> | Record<string, unknown>[] });

/** The URL of a call (no key in it), from its query text. @internal */
export function requestUrl(baseUrl: string, operation: OperationName, query: string): string {
  return `${baseUrl}${operations[operation].path}${query ? `?${query}` : ''}`;
}

/**
 * Runs one call. Parameter and filter mistakes throw before anything is reserved or sent.
 *
 * @internal
 */
export async function callOperation(context: CallContext, operation: OperationName, params: RawParams, options: CallOptions = {}): Promise<AnyResult> {
  // Awaited only while a checker is still loading (the first calls with local validation).
  const checked = queryFor(context.validation, operation, params, context.transport.timing.now());
  const query = typeof checked === 'string' ? checked : await checked;
  const url = requestUrl(context.baseUrl, operation, query);
  const estimate = estimateUntyped(operation, params);
  context.ledger.reserve(estimate, url);
  let charged = 0;
  try {
    const response = await send(context.transport, url, options.signal, options.timeout ?? context.transport.timeout);
    // From here the service has answered 2xx and billed the call; if the body cannot be read we
    // charge the worst case rather than pretend it was free.
    charged = estimate;
    const result = decodeResponse(operation, params['format'] === 'csv', response, url);
    charged = result.units;
    return result;
  } finally {
    context.ledger.settle(estimate, charged);
  }
}

/** The units the service says it charged (`X-Units-Charged`), when it says so. */
function chargedHeader(response: RawResponse): number | undefined {
  const text = response.headers.get('x-units-charged');
  return text !== null && /^\d+$/.test(text.trim()) ? Number(text.trim()) : undefined;
}

/**
 * The body as rows. `units` is what the service reports in `X-Units-Charged`; a server that does
 * not send it is assumed to charge the catalogue's price for the rows returned.
 */
function decodeResponse(operation: OperationName, csv: boolean, response: RawResponse, url: string): AnyResult {
  const list = operations[operation].shape === 'list';
  // Read only where the body does not carry the id (CSV, or JSON without meta.request_id).
  const headerId = () => response.headers.get('x-request-id') ?? undefined;
  const reported = chargedHeader(response);
  try {
    if (csv) {
      const rows = decodeCsv(operation, response.body);
      if (!list && rows.length !== 1) throw new ShapeProblem(`expected one CSV row, got ${rows.length}`);
      const data = list ? rows : rows[0]!;
      return { format: 'csv', text: response.body, data, units: reported ?? unitsOf(operation, rows.length), requestId: headerId() };
    }
    const { meta, data } = decodeJson(operation, response.body);
    const rows = Array.isArray(data) ? data.length : 1;
    const requestId = typeof meta.request_id === 'string' ? meta.request_id : headerId();
    return { format: 'json', meta, data, units: reported ?? unitsOf(operation, rows), requestId };
  } catch (error) {
    if (error instanceof ShapeProblem) throw new ResponseShapeError('GET', url, error.message, response.body);
    throw error;
  }
}

/**
 * Reads the key's remaining units from the service (free).
 *
 * @internal
 */
export async function callBalance(context: CallContext, options: CallOptions = {}): Promise<number> {
  const url = `${context.baseUrl}${BALANCE_PATH}`;
  const response = await send(context.transport, url, options.signal, options.timeout ?? context.transport.timeout);
  let units: unknown;
  try {
    units = (JSON.parse(response.body) as { data?: { units_remaining?: unknown } }).data?.units_remaining;
  } catch {
    units = undefined;
  }
  if (typeof units !== 'number' || !Number.isSafeInteger(units) || units < 0) {
    throw new ResponseShapeError('GET', url, 'expected data.units_remaining, a whole number of units', response.body);
  }
  return units;
}
