/**
 * The cost guard of `backlink-query mcp`: a call's worst-case price (the client's
 * `estimateUnits`, as the CLI's confirmation computes it) against the per-call cap and what is
 * left of the session budget, before anything is sent; and, when it does not fit, what to change:
 * the largest `limit` (or number of `urls`) whose worst case fits.
 *
 * @module
 * @internal
 */
import { operations, type OperationName } from '../catalogue/operations.js';
import type { ParamSpec } from '../catalogue/parameters.js';
import { estimateUntyped } from '../client/units.js';
import { formatUnits as units } from '../client/units.js';

type Params = Readonly<Record<string, unknown>>;

/** Why a call is refused before it is sent. @internal */
export interface CostRefusal {
  /** `over_call_limit`: above `--max-call-units`; `over_budget`: above what is left of `--budget`. */
  readonly code: 'over_call_limit' | 'over_budget';
  /** The call's worst-case price in units. */
  readonly estimate: number;
  /** The bound it passes: the per-call cap, or what is left of the budget. */
  readonly allowed: number;
  /** What is left of the session budget (`undefined` without `--budget`). */
  readonly remaining: number | undefined;
  /**
   * The parameter to change and the largest value that fits, when one exists: the `limit`, or
   * for a list of targets (comparison's `urls`) the number of items; with its worst case.
   */
  readonly change?: { readonly parameter: string; readonly max: number; readonly estimate: number };
  /** A sentence saying the estimate, the bound and what to change. */
  readonly message: string;
}

/** The limits of a session. @internal */
export interface CostLimits {
  /** Most units one call may cost (`--max-call-units`); `undefined`: no cap. */
  readonly maxCallUnits: number | undefined;
  /** What is left of the session budget now; `undefined`: no budget. */
  readonly remaining: number | undefined;
  /** The session budget as set (`--budget`), for the message. */
  readonly budget: number | undefined;
}

/**
 * The parameter that bounds a call's rows, and the largest value of it whose worst case fits in
 * `allowed` units: `limit` where the operation has one, else the number of items of its list of
 * targets (comparison prices one row per target). Each candidate is priced with `estimateUnits`
 * itself, so the suggestion never disagrees with the estimate.
 */
function largestThatFits(operation: OperationName, params: Params, allowed: number): CostRefusal['change'] {
  const spec = operations[operation];
  if (spec.price.per !== 'line') return undefined;
  const specs = spec.params as Readonly<Record<string, ParamSpec>>;
  const limit = specs['limit'];
  if (limit?.kind === 'integer') {
    const value = Math.floor(allowed / spec.price.units);
    if (value < limit.min) return undefined;
    const estimate = estimateUntyped(operation, { ...params, limit: value });
    return estimate <= allowed ? { parameter: 'limit', max: value, estimate } : undefined;
  }
  const list = Object.entries(specs).find(([, s]) => s.kind === 'string-list');
  if (list !== undefined && Array.isArray(params[list[0]])) {
    const items = params[list[0]] as unknown[];
    for (let count = items.length - 1; count >= 1; count--) {
      const estimate = estimateUntyped(operation, { ...params, [list[0]]: items.slice(0, count) });
      if (estimate <= allowed) return { parameter: list[0], max: count, estimate };
    }
  }
  return undefined;
}

/**
 * Checks a call's worst case against the limits; `undefined` when it fits. The parameters must
 * have passed the client's checks (the estimate reads `limit` and `urls` as valid values).
 *
 * @example
 * ```ts
 * checkCost('links', { url: 'example.com', scope: 'ROOT_DOMAIN', limit: 100 }, { maxCallUnits: undefined, remaining: 1000, budget: 5000 });
 * // { code: 'over_budget', estimate: 4500, allowed: 1000, change: { parameter: 'limit', max: 22, estimate: 990 }, ... }
 * ```
 * @internal
 */
export function checkCost(operation: OperationName, params: Params, limits: CostLimits): CostRefusal | undefined {
  const estimate = estimateUntyped(operation, params);
  const overCap = limits.maxCallUnits !== undefined && estimate > limits.maxCallUnits;
  const overBudget = limits.remaining !== undefined && estimate > limits.remaining;
  if (!overCap && !overBudget) return undefined;
  const allowed = Math.min(limits.maxCallUnits ?? Infinity, limits.remaining ?? Infinity);
  const code = overBudget && (limits.maxCallUnits === undefined || limits.remaining! <= limits.maxCallUnits) ? 'over_budget' : 'over_call_limit';
  const change = largestThatFits(operation, params, allowed);
  const bound =
    code === 'over_budget'
      ? `only ${units(limits.remaining!)} units are left of the session budget (--budget ${units(limits.budget ?? limits.remaining!)})`
      : `one call may cost at most ${units(limits.maxCallUnits!)} units (--max-call-units)`;
  const what = change
    ? change.parameter === 'limit'
      ? `Pass limit: ${change.max} or less (worst case ${units(change.estimate)} units), and page with offset.`
      : `Pass at most ${change.max} ${change.parameter} (worst case ${units(change.estimate)} units).`
    : code === 'over_budget'
      ? 'No smaller call of this operation fits: the session budget is spent for it; the user can restart the server with a larger --budget.'
      : 'No smaller call of this operation fits; the user can restart the server with a larger --max-call-units.';
  return {
    code,
    estimate,
    allowed,
    remaining: limits.remaining,
    ...(change && { change }),
    message: `Not sent: this ${operation} call could cost up to ${units(estimate)} units, but ${bound}. ${what}`,
  };
}
