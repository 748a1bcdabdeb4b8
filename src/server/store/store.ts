/**
 * The store interface: everything the routes need from a database, and the bulk writer that
 * fills it. API keys and balances are the units ledger's, apart from the data (`ledger.ts`); each
 * store names the one kept with it (`Store.ledger`). Every store is assembled by `createStore`
 * from its engine's table of differences (`engine.ts`, `engines/`), so the routes never know which
 * one runs.
 *
 * @module
 */
import type { FilterNode } from '../../ast/nodes.js';
import type { RowOf } from '../../catalogue/types.js';
import type { Target } from '../target.js';
import type { Clock } from '../clock.js';
import type { DomainInput, KeywordSnapshotInput, LinkInput, TargetPageInput } from './inputs.js';
import type { Ledger } from './ledger.js';

/** The clock every query takes; defined with the server's time (`../clock.ts`), part of the store's interface. */
export type { Clock };

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
  /** The kind of database (`embedded`, `sqlite`, `postgres`, `clickhouse`), as `GET /health` names it. */
  readonly kind: string;
  /**
   * The units ledger kept with this store: API keys and balances in the same database (a
   * ClickHouse store's is the one it was given). The server charges in it unless given another
   * (`createServer`'s `ledger`). The store's `close` closes it too.
   */
  readonly ledger: Ledger;
  /**
   * Asks each database the store answers from (and its ledger charges in) a question that reads no table;
   * rejects when one does not answer. `GET /health` runs it.
   */
  ping(): Promise<void>;
  overview(target: Target, clock: Clock): Promise<RowOf<'overview'>>;
  summary(query: SummaryQuery): Promise<RowsResult<HistoryPoint>>;
  grouped<Op extends GroupedOperation>(operation: Op, query: GroupedQuery): Promise<RowsResult<RowOf<Op>>>;
  scoreProfile(target: Target): Promise<RowOf<'score-profile'>[]>;
  competitors(query: CompetitorsQuery): Promise<RowsResult<RowOf<'competitors'>>>;
  matrix(query: MatrixQuery): Promise<RowsResult<RowOf<'matrix'>>>;
  keywordMetrics(query: KeywordQuery): Promise<RowOf<'metrics'> | undefined>;
  /** Whether the store holds any link. */
  hasLinks(): Promise<boolean>;
  /**
   * The registrable domain with the most links as a target (ties: the first by name), for the
   * examples `serve` prints; `undefined` when the store holds no link. Optional: a store without
   * it gets a placeholder in those examples.
   */
  topTarget?(): Promise<string | undefined>;
  /** A bulk writer: stores data in batches and brings the rollups up to date at `finish`. */
  writer(): Promise<GraphWriter>;
  close(): Promise<void>;
}

/** What a load wrote. */
export interface LoadStats {
  /** Link records written (new or replacing a stored link with the same identity). */
  readonly links: number;
  /** Registrable domains whose rollups were recomputed. */
  readonly domains: number;
}

/**
 * Writes a link graph in batches. Links are identified by source URL, target URL, anchor and image
 * URL: writing a link again replaces it, so loading the same data twice changes nothing. Domains,
 * pages and keyword snapshots replace the row with the same key.
 *
 * @example
 * ```ts
 * const writer = await store.writer();
 * await writer.links(batch);
 * await writer.finish(); // rollups of the touched domains are exact again
 * ```
 */
export interface GraphWriter {
  /**
   * Writes domains' own data. With `keep`, a domain that already has a record keeps it: the
   * records an import derives from links never replace one written on purpose.
   */
  domains(rows: readonly DomainInput[], options?: { readonly keep?: boolean }): Promise<void>;
  pages(rows: readonly TargetPageInput[]): Promise<void>;
  links(rows: readonly LinkInput[]): Promise<void>;
  keywords(rows: readonly KeywordSnapshotInput[]): Promise<void>;
  /**
   * Recomputes the rollups of every registrable domain whose links were written (with `all`, every
   * rollup from scratch, which is faster after a load into an empty store).
   */
  finish(options?: { readonly all?: boolean; readonly onProgress?: (done: number, total: number) => void }): Promise<LoadStats>;
}

/** How a call's abort reaches the store's statements (`call-signal.ts`): the routes run each call's reads within it. */
export { forCall } from './call-signal.js';
