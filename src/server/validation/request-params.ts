/**
 * The typed parameters of a validated request.
 *
 * @module
 */
import type { FilterNode } from '../../ast/nodes.js';
import type { OperationName } from '../../catalogue/operations.js';
import type { Scope } from '../target.js';

/**
 * A request's parameters after validation, defaults applied, by their wire names. Members an
 * operation does not take are absent.
 */
export interface RequestParams {
  readonly operation: OperationName;
  readonly format: 'json' | 'csv';
  /** The fields to return, in the record's (CSV column) order. */
  readonly fields: readonly string[];
  /** Whether the caller passed `fields`. */
  readonly fieldsGiven: boolean;
  readonly url?: string;
  readonly urls?: readonly string[];
  readonly domain?: string;
  readonly scope?: Scope;
  readonly order_by?: string;
  readonly direction?: 'ASC' | 'DESC';
  readonly limit?: number;
  readonly offset?: number;
  /** The parsed filter; `null` when absent, empty or only white space. */
  readonly filter: FilterNode | null;
  /** The filter text as passed (`null` when there is no filter). */
  readonly filterText: string | null;
  readonly keyword?: string;
  readonly country?: string;
  readonly month?: string;
  readonly date_from?: string;
  readonly date_to?: string;
}
