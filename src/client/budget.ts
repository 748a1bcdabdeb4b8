/**
 * The running total of units and the optional budget. A call reserves its worst case before it
 * is sent (so concurrent calls cannot overrun the budget together) and settles at its real price.
 *
 * @module
 * @internal
 */
import { BudgetError } from './errors.js';

/** Units spent, reserved and left. @internal */
export class UnitLedger {
  spent = 0;
  private reserved = 0;

  constructor(readonly budget: number | undefined) {}

  /** What is left of the budget (in-flight worst cases counted), or `undefined` without a budget. */
  get remaining(): number | undefined {
    return this.budget === undefined ? undefined : Math.max(0, this.budget - this.spent - this.reserved);
  }

  /** Reserves `estimate` units; throws {@link BudgetError} when more than what is left. */
  reserve(estimate: number, url: string): void {
    const left = this.remaining;
    if (left !== undefined && estimate > left) throw new BudgetError('GET', url, estimate, left);
    this.reserved += estimate;
  }

  /** Ends a reservation, charging `units` (0 when the call failed: failed calls return no lines). */
  settle(estimate: number, units: number): void {
    this.reserved -= estimate;
    this.spent += units;
  }
}
