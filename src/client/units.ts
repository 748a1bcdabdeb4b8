/**
 * API units: the worst-case price of a call before it is sent, and the price of a result.
 *
 * @module
 */
import { operations, type OperationName } from '../catalogue/operations.js';
import type { ParamSpec } from '../catalogue/parameters.js';
import type { ParamsOf } from './types.js';

/**
 * The most rows an operation without a `limit` can return, for the price estimate: score-profile
 * has one row per score 0-100; comparison one row per target.
 */
const ROWS_WITHOUT_LIMIT: Readonly<Partial<Record<OperationName, (params: Readonly<Record<string, unknown>>) => number>>> = {
  'score-profile': () => 101,
  comparison: (params) => (Array.isArray(params['urls']) ? params['urls'].length : 10),
};

/** The most rows a call can return: its `limit` (or the default limit), or the table above. @internal */
export function worstCaseRows(operation: OperationName, params: Readonly<Record<string, unknown>>): number {
  const limit = (operations[operation].params as Readonly<Record<string, ParamSpec>>)['limit'];
  if (limit?.kind === 'integer') {
    const given = params['limit'];
    return typeof given === 'number' ? given : (limit.default ?? 100);
  }
  return ROWS_WITHOUT_LIMIT[operation]?.(params) ?? 1;
}

/**
 * The worst-case price of a call in API units, from the catalogue's price table: the price per
 * request, or the price per line times the most rows the call can return (its `limit`, the
 * default limit when absent, 101 for score-profile, the number of targets for comparison).
 *
 * @example
 * ```ts
 * estimateUnits('links', { url: 'example.com', scope: 'ROOT_DOMAIN', limit: 50 }); // 2250 (45 × 50)
 * estimateUnits('overview', { url: 'example.com', scope: 'ROOT_DOMAIN' });          // 45
 * ```
 */
export function estimateUnits<Op extends OperationName>(operation: Op, params: Partial<ParamsOf<Op>>): number {
  return estimateUntyped(operation, params);
}

/**
 * {@link estimateUnits} for parameters whose operation is known only when the program runs (the
 * client's own calls, the MCP server's cost checks, the CLI's confirmation), read as the catalogue describes them.
 *
 * @internal
 */
export function estimateUntyped(operation: OperationName, params: Readonly<Record<string, unknown>>): number {
  const price = operations[operation].price;
  if (price.per === 'request') return price.units;
  return price.units * worstCaseRows(operation, params);
}

/**
 * What a result cost: the price per request, or per line times the rows returned.
 *
 * @example
 * ```ts
 * unitsOf('links', 12); // 540
 * ```
 */
export function unitsOf(operation: OperationName, rows: number): number {
  const price = operations[operation].price;
  return price.per === 'request' ? price.units : price.units * rows;
}

/** Formats units for people: `4,500`, or `an unbounded number of` (for a run with no bound). @internal */
export const formatUnits = (units: number): string => (Number.isFinite(units) ? units.toLocaleString('en-US') : 'an unbounded number of');
