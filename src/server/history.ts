/**
 * Monthly history from links' first and last seen, in memory, so every store shares one
 * definition: a link counts in month M when it was first seen before M ends and, if lost, last
 * seen on or after M starts.
 *
 * @module
 */
import { addMonths } from './clock.js';

/** What the history needs of one link. */
export interface HistoryLink {
  readonly first_seen_at: string;
  readonly last_seen_at: string;
  readonly is_lost: boolean | number;
  readonly is_nofollow: boolean | number;
  readonly source_domain: string;
}

/** Counts of one month. */
export interface MonthCounts {
  readonly backlinks_count: number;
  readonly domains_count: number;
  readonly follows_count: number;
}

/**
 * The months from `first` to `last` (`YYYY-MM`), inclusive, ascending.
 *
 * @example
 * ```ts
 * monthRange('2025-11', '2026-01'); // ['2025-11', '2025-12', '2026-01']
 * ```
 */
export function monthRange(first: string, last: string): string[] {
  const months: string[] = [];
  for (let month = first; month <= last; month = addMonths(month, 1)) months.push(month);
  return months;
}

/**
 * The counts of each month for a set of links.
 *
 * @example
 * ```ts
 * monthlyCounts(links, ['2026-05', '2026-06']); // [{ backlinks_count, domains_count, follows_count }, ...]
 * ```
 */
export function monthlyCounts(links: readonly HistoryLink[], months: readonly string[]): MonthCounts[] {
  return months.map((month) => {
    const start = `${month}-01T00:00:00`;
    const next = `${addMonths(month, 1)}-01T00:00:00`;
    let backlinks = 0;
    let follows = 0;
    const domains = new Set<string>();
    for (const link of links) {
      if (link.first_seen_at >= next || (link.is_lost && link.last_seen_at < start)) continue;
      backlinks++;
      if (!link.is_nofollow) follows++;
      domains.add(link.source_domain);
    }
    return { backlinks_count: backlinks, domains_count: domains.size, follows_count: follows };
  });
}
