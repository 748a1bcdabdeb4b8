/**
 * Time as the server sees it: an injectable clock, months as `YYYY-MM`, and timestamps as the
 * interface writes them (`YYYY-MM-DDTHH:MM:SS`, UTC, no zone).
 *
 * @module
 */

/** What every query needs from the clock: the instant "new" is measured from. */
export interface Clock {
  /** `YYYY-MM-DDTHH:MM:SS`: links first seen at or after this are new (30 days before now). */
  readonly newSince: string;
  /** `YYYY-MM`: the current month. */
  readonly month: string;
}

/**
 * Days a link or domain stays "new" after it is first seen.
 *
 * @example
 * ```ts
 * clockAt(now).newSince; // now minus NEW_DAYS days
 * ```
 */
export const NEW_DAYS = 30;

/**
 * A Date as the interface's timestamp text.
 *
 * @example
 * ```ts
 * formatTimestamp(new Date('2026-05-01T10:00:00Z')); // '2026-05-01T10:00:00'
 * ```
 */
export function formatTimestamp(date: Date): string {
  return date.toISOString().slice(0, 19);
}

/**
 * The `YYYY-MM` month `delta` months after `month`.
 *
 * @example
 * ```ts
 * addMonths('2026-12', 1); // '2027-01'
 * ```
 */
export function addMonths(month: string, delta: number): string {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  const index = year * 12 + (mon - 1) + delta;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/**
 * The clock values a query needs, taken from `now`.
 *
 * @example
 * ```ts
 * clockAt(new Date('2026-05-31T00:00:00Z')); // { newSince: '2026-05-01T00:00:00', month: '2026-05' }
 * ```
 */
export function clockAt(now: Date): Clock {
  const since = new Date(now.getTime() - NEW_DAYS * 86_400_000);
  return { newSince: formatTimestamp(since), month: formatTimestamp(now).slice(0, 7) };
}

/**
 * The day "new" starts on (`YYYY-MM-DD` of `newSince`) and the day after it: a count of new links
 * is the links first seen on later days (a per-day rollup) plus those of that first day from
 * `newSince` on, which sort before the next day's text.
 *
 * @example
 * ```ts
 * newDays({ newSince: '2026-05-16T10:00:00', month: '2026-06' }); // { day: '2026-05-16', nextDay: '2026-05-17' }
 * ```
 */
export function newDays(clock: Clock): { readonly day: string; readonly nextDay: string } {
  const day = clock.newSince.slice(0, 10);
  return { day, nextDay: new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10) };
}
