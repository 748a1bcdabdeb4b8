/**
 * The store interface: everything the routes need from a database. The SQLite store implements
 * it now; the PostgreSQL store implements the same interface, so the routes never know which one
 * runs. Methods are asynchronous even where SQLite is not, because PostgreSQL is.
 *
 * @module
 */
import type { FilterNode } from '../../ast/nodes.js';
import type { RowOf } from '../../catalogue/types.js';
import type { Target } from '../target.js';

/** The list operations whose rows are groupings of a target's links. */
export type GroupedOperation = 'links' | 'ref-domains' | 'ref-ips' | 'pages' | 'anchors';

/** Sorting and paging of a list. */
export interface Page {
  /** The field to sort by (a scalar field of the record). */
  readonly orderBy: string;
  readonly direction: 'ASC' | 'DESC';
  readonly limit: number;
  readonly offset: number;
}

/** What every query needs from the clock: the instant "new" is measured from. */
export interface Clock {
  /** `YYYY-MM-DDTHH:MM:SS`: links first seen at or after this are new (30 days before now). */
  readonly newSince: string;
  /** `YYYY-MM`: the current month. */
  readonly month: string;
}

/** A page of rows and the number of rows before paging. */
export interface RowsResult<Row> {
  readonly rows: Row[];
  readonly total: number;
}

/** A list query over one target's links. */
export interface GroupedQuery {
  readonly target: Target;
  readonly page: Page;
  readonly filter: FilterNode | null;
  readonly clock: Clock;
}

/** A summary (monthly history) query. */
export interface SummaryQuery {
  readonly target: Target;
  /** First and last month, `YYYY-MM`, inclusive; `from` undefined means the oldest month with data. */
  readonly from: string | undefined;
  readonly to: string;
  readonly limit: number;
}

/** A matrix query. */
export interface MatrixQuery {
  readonly targets: readonly Target[];
  readonly page: Page;
  readonly filter: FilterNode | null;
}

/** A competitors query. */
export interface CompetitorsQuery {
  /** The registrable domain of the `domain` parameter. */
  readonly domain: string;
  readonly page: Page;
}

/** A keyword metrics query. */
export interface KeywordQuery {
  readonly keyword: string;
  readonly country: string;
  readonly month: string;
}

/** A historical row without the request echo (url, scope). */
export type HistoryPoint = Omit<RowOf<'summary'>, 'url' | 'scope'>;

/** One API key as configured. */
export interface KeyConfig {
  readonly id: string;
  readonly key: string;
  /** Units granted when the key is first stored; later restarts keep the balance. */
  readonly units: number;
  /** Requests per second (default 10). */
  readonly rate?: number;
  /** Requests at once (default 10). */
  readonly concurrency?: number;
}

/** A stored key: id, SHA-256 of the key, balance. */
export interface StoredKey {
  readonly id: string;
  readonly keyHash: Buffer;
  readonly units: number;
}

/** The result of a charge: the balance after it, or the balance that was too small. */
export type ChargeResult = { readonly ok: true; readonly remaining: number } | { readonly ok: false; readonly remaining: number };

/**
 * The store the server answers from.
 *
 * @example
 * ```ts
 * const store = await openSqliteStore({ file: 'links.db' });
 * const { rows, total } = await store.grouped('links', query);
 * ```
 */
export interface Store {
  overview(target: Target, clock: Clock): Promise<RowOf<'overview'>>;
  summary(query: SummaryQuery): Promise<RowsResult<HistoryPoint>>;
  grouped<Op extends GroupedOperation>(operation: Op, query: GroupedQuery): Promise<RowsResult<RowOf<Op>>>;
  scoreProfile(target: Target): Promise<RowOf<'score-profile'>[]>;
  competitors(query: CompetitorsQuery): Promise<RowsResult<RowOf<'competitors'>>>;
  matrix(query: MatrixQuery): Promise<RowsResult<RowOf<'matrix'>>>;
  keywordMetrics(query: KeywordQuery): Promise<RowOf<'metrics'> | undefined>;
  /** Stores configured keys: new ids get their units; known ids keep their balance. */
  upsertKeys(keys: readonly KeyConfig[]): Promise<void>;
  /** Every stored key (for authentication). */
  keys(): Promise<StoredKey[]>;
  /** Takes `units` from a key's balance atomically, only if the balance covers it. */
  charge(keyId: string, units: number): Promise<ChargeResult>;
  /** The balance of a key. */
  balance(keyId: string): Promise<number | undefined>;
  close(): Promise<void>;
}
