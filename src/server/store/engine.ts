/**
 * What differs between the databases a store runs on, as one table per engine: Kysely's `Dialect`
 * (a few named factories) and sqlglot's dialect classes (flags, then only what differs), for the
 * store. {@link createStore} assembles every store from such a table; everything the table does
 * not name is written once (`reads/`, `loads/`, `memory/`, `cache/`).
 *
 * An engine says:
 * - **where a call reads** ({@link Engine.at}, {@link Engine.across}): a connection and the table
 *   expressions there (`reads/relations.ts`, `RelationSources`);
 * - **how a list is read** ({@link Engine.list}): whole rows in one statement, or keys first and
 *   then the page's rows by key (where, and how), where its unfiltered total comes from, and
 *   whether the read-cache keeps a window of it;
 * - **how competitors and the matrix are answered** ({@link Engine.competitors},
 *   {@link Engine.matrix}): SQL, or from an in-memory graph or lists (`memory/`);
 * - **the load** ({@link Engine.load}): the sink rows go to, and the refresh of the rollups;
 * - its **capabilities** as named properties ({@link Engine.rollups});
 * - how it is asked whether it answers ({@link Engine.ping}), how its database is named in
 *   `GET /health` ({@link Engine.kind}), and how it closes.
 *
 * @module
 * @internal
 */
import type { RowOf } from '../../catalogue/types.js';
import type { SqlConnection } from './connection.js';
import type { Fragment } from './fragment.js';
import type { DomainInput, LinkRow } from './inputs.js';
import type { CompetitorIndex } from './memory/competitor-graph.js';
import type { ReferrerList } from './memory/matrix-merge.js';
import type { ReadPlace } from './reads/relations.js';
import type { GroupedOperation, GroupedQuery, LoadStats, RowsResult, CompetitorsQuery } from './store.js';
import type { Target } from '../target.js';

/** A value or a promise of it. */
type Maybe<T> = T | Promise<T>;

/**
 * How the rows of a page whose keys were read first are read:
 * - `links-by-id`: the links of those ids at `at` (`linksOfIds`: the links relation of those rows,
 *   aliased `l`), grouped as the links list (a row database beside a column one, or a column store
 *   whose rows are wide);
 * - `same-relation`: the list's own relation where `_key` is one of the keys (`keyIn`), at the
 *   place the keys were read.
 */
export type RowsByKey =
  | { readonly kind: 'links-by-id'; readonly at: ReadPlace; linksOfIds(target: Target, ids: readonly unknown[]): Fragment }
  | { readonly kind: 'same-relation'; readonly keyIn: (keys: readonly unknown[]) => Fragment };

/** How one list call is read (see {@link Engine.list}). */
export interface ListPlan {
  /** Where the page's keys (or whole rows) are read, with the sources of the list's relation there. */
  readonly keys: ReadPlace;
  /** Read keys first, then the rows of the page's keys so; absent: whole rows in one statement. */
  readonly rows?: RowsByKey;
  /** Where the rollup counters of the list's unfiltered total are read; absent: counted with the page. */
  readonly totals?: ReadPlace;
  /** Keep the list's first rows (or keys) and its total in the read-cache between calls. */
  readonly window: boolean;
  /**
   * Where the list's first rows in the call's order are kept by the load, for keys with more rows
   * than it keeps: a call without a filter whose page ends within them reads them (whole, in one
   * statement) and its total from `totals`; a key it keeps no rows of, or a page past them, is read
   * as without.
   */
  readonly kept?: ReadPlace;
}

/** How competitors are answered. */
export type CompetitorsSlot =
  /** The shared SQL (`reads/graph.ts`), where {@link Engine.across} reads. */
  | { readonly kind: 'sql' }
  /**
   * Counted over the graph of targets and referring domains in memory (`memory/competitor-graph.ts`),
   * kept by the read-cache; `version`, when the engine's data can change under this process (another
   * process's load), names the data the graph is read from: another version reads it again.
   */
  | { readonly kind: 'graph'; read(): Promise<CompetitorIndex>; version?(): Promise<string> }
  /** The engine's own query (ClickHouse over its links without rollups). */
  | { readonly kind: 'query'; answer(query: CompetitorsQuery): Promise<RowsResult<RowOf<'competitors'>>> };

/** How the matrix is answered. */
export type MatrixSlot =
  /** The shared SQL (`reads/graph.ts`), where {@link Engine.across} reads. */
  | { readonly kind: 'sql' }
  /**
   * Merged in memory from each target's referring-domain list (`memory/matrix-merge.ts`), the lists
   * and their unions kept by the read-cache; targets without a rollup key use the shared SQL.
   */
  | {
      readonly kind: 'lists';
      list(target: Target, rollupKey: string): Promise<ReferrerList>;
      /**
       * Where the engine's data can change under this process (another process's load): the
       * version of each target's list, as of now; a list or union kept for another is read again.
       */
      versions?(targets: readonly Target[]): Promise<readonly string[]>;
    };

/**
 * Where a load's rows go. The bookkeeping every load shares (link identity, the later record of one
 * identity winning, which registrable domains were touched, `keep`, which domains a rewritten
 * referring domain links to) is `loads/writer.ts`; a sink only writes.
 */
export interface LoadSink {
  /** The store held no link when the load began: its refresh rebuilds every rollup unless told otherwise. */
  readonly fresh: boolean;
  /** Of the given domain names, those that already have a record (for `GraphWriter.domains` with `keep`). */
  recorded(names: readonly string[]): Promise<ReadonlySet<string>>;
  domains(rows: readonly DomainInput[]): Promise<void>;
  /** Target pages' stored values: host, path, url, title, response code, page score, external and internal links counts. */
  pages(rows: readonly (readonly unknown[])[]): Promise<void>;
  /** Links with one identity each; may return the registrable domains whose links changed (otherwise every row's counts). */
  links(rows: readonly LinkRow[]): Promise<void | Iterable<string>>;
  /** Keyword snapshots' stored values (`loads/writer.ts`, `keywordRow`). */
  keywords(rows: readonly (readonly unknown[])[]): Promise<void>;
  /**
   * Brings the rollups of `domains` (`'all'`: every one, from scratch) up to date from the links
   * and ends the load (an engine's indexes, merges, commit).
   */
  finish(domains: readonly string[] | 'all', onProgress?: (done: number, total: number) => void): Promise<void>;
}

/** How an engine loads. */
export interface LoadSlot {
  /** Starts a load (a transaction, a mark that readers see): the sink the writer writes to. */
  begin(): Promise<LoadSink>;
  /** Where the referring-domain rollups are read to find the domains a rewritten referring domain links to. */
  readonly linkedFrom: ReadPlace;
}

/**
 * One engine's differences: everything {@link createStore} needs to answer and load.
 */
export interface Engine {
  /** The store's kind, as `GET /health` names it. */
  readonly kind: string;
  /** Answers from the rollups; `false` groups the links on every call (the slow reference path the rollup suites compare with). */
  readonly rollups: boolean;
  /** Where a call about a target of this registrable domain reads. */
  at(domain: string): Maybe<ReadPlace>;
  /** Where a call about several targets (matrix, competitors) and keyword lookups read. */
  across(): Maybe<ReadPlace>;
  /**
   * Where the overview of a target without a rollup key (a SUBFOLDER below the host) counts its
   * links when the engine answers from rollups, if not where {@link Engine.at} reads (a column
   * side); the target's score is still read there.
   */
  countedAt?(target: Target): ReadPlace;
  /**
   * The score profile of a target without a rollup key (a SUBFOLDER below the host) when the
   * engine answers from rollups, where the engine reads it otherwise than grouped where
   * {@link Engine.at} reads.
   */
  scoreProfileOf?(target: Target): Promise<RowOf<'score-profile'>[]>;
  /** How a list call is read; `rollupKey` is the target's rollup key when the engine answers from rollups and the target has one. */
  list(operation: GroupedOperation, query: GroupedQuery, rollupKey: string | undefined): Maybe<ListPlan>;
  readonly competitors: CompetitorsSlot;
  readonly matrix: MatrixSlot;
  readonly load: LoadSlot;
  /** Asks each database the engine answers from a question that reads no table. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** A link load's outcome, as the writer reports it. */
export type { LoadStats };

/** What a connection at a place is, for slots that read one. */
export type { SqlConnection };
