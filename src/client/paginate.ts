/**
 * Pagination: an async iterator over offset/limit pages of a list operation that yields rows and
 * stops at a short page, at `meta.total`, at `maxRows`, at the budget, or when the caller breaks.
 *
 * @module
 * @internal
 */
import { operations, type OperationName } from '../catalogue/operations.js';
import type { ParamSpec } from '../catalogue/parameters.js';
import { ParameterError } from '../errors/filter-error.js';
import { callOperation, type CallContext } from './call.js';
import type { RawParams } from './params.js';
import type { PaginateOptions, PaginationEnd } from './types.js';

type Row = Record<string, unknown>;

function wholeNumber(name: string, value: number | undefined, min: number): number | undefined {
  if (value !== undefined && !(Number.isSafeInteger(value) && value >= min)) {
    throw new ParameterError(name, !Number.isInteger(value) ? 'not_an_integer' : value < min ? 'too_small' : 'too_large', `${name} must be an integer of at least ${min}, not ${value}.`);
  }
  return value;
}

/**
 * Pages through `operation`. Operations without `offset` (summary, score-profile, comparison)
 * are one request; `maxRows` then caps summary's `limit` and the rows yielded.
 *
 * @internal
 */
export async function* paginate(context: CallContext, operation: OperationName, params: RawParams, options: PaginateOptions = {}): AsyncGenerator<Row, PaginationEnd, undefined> {
  const specs = operations[operation].params as Readonly<Record<string, ParamSpec>>;
  const limitSpec = specs['limit'];
  const defaultLimit = limitSpec?.kind === 'integer' ? (limitSpec.default ?? 100) : undefined;
  const maxRows = wholeNumber('maxRows', options.maxRows, 0);
  const pageSize = wholeNumber('pageSize', options.pageSize, 1) ?? defaultLimit;
  const signal = options.signal ? { signal: options.signal } : {};
  if (!('offset' in specs)) {
    // One request: its limit is the smaller of pageSize and maxRows, else the default.
    const wanted = Math.min(options.pageSize ?? Infinity, maxRows ?? Infinity);
    const limit = limitSpec ? { limit: Number.isFinite(wanted) ? wanted : pageSize } : {};
    if (maxRows === 0) return { reason: 'max-rows', rows: 0, units: 0, pages: 0 };
    const result = await callOperation(context, operation, { ...params, ...limit }, signal);
    const rows = (result.data as Row[]).slice(0, maxRows);
    for (const row of rows) yield row;
    return { reason: 'single-page', rows: rows.length, units: result.units, pages: 1 };
  }
  const price = operations[operation].price.units;
  let offset = typeof params['offset'] === 'number' ? params['offset'] : 0;
  const end = { rows: 0, units: 0, pages: 0 };
  for (;;) {
    let want = Math.min(pageSize!, (maxRows ?? Infinity) - end.rows);
    if (want <= 0) return { reason: 'max-rows', ...end };
    const left = context.ledger.remaining;
    // Shorten the last page to what the budget still pays for, rather than refusing it whole.
    if (left !== undefined) want = Math.min(want, Math.floor(left / price));
    if (want <= 0) return { reason: 'budget', ...end };
    const result = await callOperation(context, operation, { ...params, offset, limit: want }, signal);
    const rows = result.data as Row[];
    end.pages++;
    end.units += result.units;
    for (const row of rows) {
      end.rows++;
      yield row;
    }
    offset += rows.length;
    if (rows.length < want) return { reason: 'short-page', ...end };
    const total = result.format === 'json' ? result.meta.total : undefined;
    if (typeof total === 'number' && offset >= total) return { reason: 'total', ...end };
  }
}
