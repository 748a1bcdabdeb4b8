/**
 * What an operation's handler produces before it is written as JSON or CSV: the data, the meta
 * members it can echo, and the number of lines billed.
 *
 * @module
 * @internal
 */
import type { DomainParser } from '../deps.js';
import type { Clock, Store } from '../store/store.js';
import type { RequestParams } from '../validation/request-params.js';

/** The result of one operation. */
export interface Answer {
  /** One record (object operations) or the rows (list operations), already projected to `fields`. */
  readonly data: Record<string, unknown> | Record<string, unknown>[];
  /** Every value meta may echo; the catalogue's `meta` list picks the members shown. */
  readonly meta: Readonly<Record<string, unknown>>;
  /** Returned lines, for per-line prices. */
  readonly lines: number;
}

/** What a handler may use. */
export interface AnswerContext {
  readonly store: Store;
  readonly clock: Clock;
  readonly parser: DomainParser;
}

/** Computes an operation's answer from validated parameters. */
export type AnswerFn = (params: RequestParams, ctx: AnswerContext) => Promise<Answer>;

/**
 * Keeps only the requested fields of a row, in the record's order.
 *
 * @example
 * ```ts
 * project({ a: 1, b: 2, c: 3 }, ['a', 'c']); // { a: 1, c: 3 }
 * ```
 */
export function project(row: Readonly<Record<string, unknown>>, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) out[field] = row[field];
  return out;
}
