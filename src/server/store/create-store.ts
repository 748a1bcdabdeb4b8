/**
 * Every store, assembled once from its engine's table of differences (`engine.ts`): the reads
 * (`reads/`), competitors and the matrix as the engine's slots say (SQL, or in memory: `memory/`),
 * the writer (`loads/`) and the read-cache (`cache/`) over all of them, forgotten whenever a load
 * finishes. No store is built from another store.
 *
 * @module
 * @internal
 */
import type { RowOf } from '../../catalogue/types.js';
import type { DomainParser } from '../deps.js';
import type { Target } from '../target.js';
import { ReadCache } from './cache/read-cache.js';
import type { Engine } from './engine.js';
import type { Ledger } from './ledger.js';
import { raw, sql } from './fragment.js';
import { createGraphWriter } from './loads/writer.js';
import type { CompetitorIndex } from './memory/competitor-graph.js';
import { matrixOfUnion, unionOf, type ReferrerList } from './memory/matrix-merge.js';
import { competitors, matrix, scoreProfile } from './reads/graph.js';
import { keywordMetrics } from './reads/keywords.js';
import { countedOverview, overview, readList, summary } from './reads/reads.js';
import { rollupKey } from './reads/relations.js';
import type { CompetitorsQuery, GroupedOperation, GroupedQuery, MatrixQuery, RowsResult, Store } from './store.js';

/** Estimated bytes of a referring domain in a target's list, and in a union of lists. */
const LIST_ROW_BYTES = 100;
/** Estimated bytes of a target's overview counters. */
const COUNTERS_BYTES = 400;
const UNION_ROW_BYTES = 40;

/** Options of {@link createStore}. */
export interface CreateStoreOptions {
  /** The public-suffix parser the writer derives registrable domains with (tldts). */
  readonly parser: DomainParser;
  /** The read-cache (default: a new one, of the default bounds). */
  readonly cache?: ReadCache;
  /** The units ledger kept with the store (`Store.ledger`). */
  readonly ledger: Ledger;
}

/**
 * The store of an engine, with the engine's own handles beside it (a database handle, connections,
 * shards: for bulk work and tests).
 */
export function createStore<Handles extends object>(engine: Engine, options: CreateStoreOptions, handles: Handles): Store & Handles {
  const cache = options.cache ?? new ReadCache();
  // The competitor graph being read again after a load of this store (see `renew`), if it is.
  let renewing: Promise<unknown> | undefined;
  const keyOf = (target: Target) => (engine.rollups ? rollupKey(target) : undefined);
  const store: Store = {
    kind: engine.kind,
    ping: () => engine.ping(),
    overview: async (target, clock) => {
      const key = keyOf(target);
      const counted = key === undefined && engine.rollups ? engine.countedAt?.(target) : undefined;
      const at = await engine.at(target.domain);
      if (!counted) return overview(at, target, clock, key);
      // Its counters kept by the read-cache, as a list's window is.
      return countedOverview(at, counted, target, clock, (read) => cache.value(['overview', target.scope, target.effectiveUrl], read, () => COUNTERS_BYTES));
    },
    summary: async (query) => summary(await engine.at(query.target.domain), query, keyOf(query.target)),
    grouped: async <Op extends GroupedOperation>(operation: Op, query: GroupedQuery) => {
      const key = keyOf(query.target);
      return readList<Op>(await engine.list(operation, query, key), operation, query, key, cache.windows);
    },
    scoreProfile: async (target) => {
      const own = engine.rollups && rollupKey(target) === undefined ? engine.scoreProfileOf : undefined;
      if (!own) return scoreProfile(await engine.at(target.domain), target, engine.rollups);
      // Kept by the read-cache, as a list's window is (copies: the caller may change its rows).
      const rows = await cache.value(['score-profile', target.scope, target.effectiveUrl], () => own(target), (kept) => COUNTERS_BYTES + kept.length * LIST_ROW_BYTES);
      return rows.map((row) => ({ ...row }));
    },
    competitors: async (query) => {
      // A graph being read again after a load: the call takes it rather than read its own.
      await renewing;
      return competitorsOf(engine, cache, query);
    },
    matrix: (query) => matrixOf(engine, cache, query),
    keywordMetrics: async (query) => keywordMetrics(await engine.across(), query),
    // Where a load reads: any row, replaced or not, says there are links (ClickHouse reads it
    // without FINAL, which 18.16 cannot run on a `Distributed` table for a few columns); a column
    // read, not a constant (which 18.16 cannot run there either, with a condition).
    hasLinks: async () => {
      const { connection, sources } = engine.load.linkedFrom;
      return (await connection.all(sql`SELECT l.target_domain AS d FROM ${sources.links} LIMIT 1`)).length > 0;
    },
    // From the domain-level rollups when kept (one row per target domain), else counted over the links.
    topTarget: async () => {
      const { connection, sources } = await engine.across();
      const current = sources.currentRollups(undefined);
      const rows = await connection.all<{ domain: string }>(
        engine.rollups
          ? sql`SELECT r.tdomain AS domain FROM ${sources.rollup('r_targets')} WHERE r.tkey LIKE 'd:%'${current ? sql` AND ${current}` : raw('')}
              ORDER BY r.backlinks_count DESC, r.tdomain LIMIT 1`
          : sql`SELECT l.target_domain AS domain FROM ${sources.links} GROUP BY l.target_domain ORDER BY count(*) DESC, l.target_domain LIMIT 1`,
      );
      return rows[0]?.domain;
    },
    ledger: options.ledger,
    writer: () =>
      createGraphWriter(engine.load, options.parser, () => {
        renewing = renew(engine, cache);
      }),
    close: () => engine.close(),
  };
  // The handles' accessors stay accessors (a handle the engine replaces is read when asked for).
  return Object.assign(Object.defineProperties({}, Object.getOwnPropertyDescriptors(handles)) as Handles, store);
}

/** Competitors, as the engine's slot says. */
async function competitorsOf(engine: Engine, cache: ReadCache, query: CompetitorsQuery): Promise<RowsResult<RowOf<'competitors'>>> {
  const slot = engine.competitors;
  if (slot.kind === 'query') return slot.answer(query);
  if (slot.kind === 'sql' || !engine.rollups) return competitors((await engine.across()).connection, query, engine.rollups);
  return (await competitorGraph(slot, cache)).competitors(query.domain, query.page);
}

/** The competitor graph, kept by the read-cache under the version of the data it was read from. */
async function competitorGraph(slot: Extract<Engine['competitors'], { kind: 'graph' }>, cache: ReadCache): Promise<CompetitorIndex> {
  const version = slot.version ? await slot.version() : '';
  return cache.value(COMPETITOR_GRAPH, () => slot.read(), (index) => index.bytes, version);
}

const COMPETITOR_GRAPH = ['competitor-graph'] as const;

/**
 * After a load of this store: the read-cache forgotten, and a competitor graph it held read again
 * at once, so that the next competitors call does not wait for it (only where a call has read one:
 * a process that only loads reads none). A read that fails is read again by the call that wants it.
 */
function renew(engine: Engine, cache: ReadCache): Promise<unknown> | undefined {
  const slot = engine.competitors;
  const held = cache.holds(COMPETITOR_GRAPH);
  cache.forget();
  return held && slot.kind === 'graph' ? competitorGraph(slot, cache).catch(() => undefined) : undefined;
}

/** The matrix, as the engine's slot says. */
async function matrixOf(engine: Engine, cache: ReadCache, query: MatrixQuery): Promise<RowsResult<RowOf<'matrix'>>> {
  const slot = engine.matrix;
  const keys = engine.rollups ? query.targets.map(rollupKey) : [];
  if (slot.kind === 'sql' || !engine.rollups || !keys.every((key): key is string => key !== undefined)) return matrix(await engine.across(), query, engine.rollups);
  // Where another process's load may change the lists: the versions they are read from.
  const versions = slot.versions ? await slot.versions(query.targets) : undefined;
  const listOf = (target: Target, key: string, i: number) =>
    cache.value(['referrers', key], () => slot.list(target, key), (list: ReferrerList) => list.domains.length * LIST_ROW_BYTES, versions?.[i]);
  const union = await cache.value(
    ['referrers-union', ...keys],
    async () => unionOf(await Promise.all(query.targets.map((target, i) => listOf(target, keys[i]!, i)))),
    (merged) => merged.rows * UNION_ROW_BYTES,
    versions?.join(' '),
  );
  return matrixOfUnion(union, query);
}
