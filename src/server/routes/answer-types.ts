/**
 * The types of an operation's answer: what its handler produces before it is written as JSON or
 * CSV (the data, the meta members it can echo, the number of lines billed), what the handler may
 * use, and the handler's own type. The handlers are in `operation-answers.ts`.
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
