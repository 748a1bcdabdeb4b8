/**
 * The bulk writer shared by every store: derives a link's stored columns once, upserts rows in
 * multi-row statements (`INSERT ... ON CONFLICT ... DO UPDATE`, which SQLite and PostgreSQL both
 * speak), remembers which registrable domains it touched, and recomputes their rollups at the end:
 * the domains of the links and target pages it wrote, and every domain a referring domain it
 * rewrote links to (the rollups keep that domain's IP, country and score).
 * An engine may pass a faster way to write links (PostgreSQL's COPY) and keyword snapshots.
 *
 * @module
 * @internal
 */
import type { DomainParser } from '../../deps.js';
import { LINK_COLUMNS, linkRow, pageParts, type KeywordSnapshotInput, type LinkRow } from '../inputs.js';
import { normalizeKeyword } from '../inputs.js';
import type { LoadSink, LoadSlot } from '../engine.js';
import type { ReadPlace } from '../reads/relations.js';
import type { GraphWriter, LoadStats } from '../store.js';
import type { LinksTable } from './rollups.js';
import type { SqlConnection } from '../connection.js';
import { join, raw, sql, type Fragment } from '../fragment.js';

/** Rows per multi-row statement (32 link columns x 400 stays under every engine's parameter limit). */
const ROWS_PER_STATEMENT = 400;

/** A multi-row upsert: `conflict` names the key, every other column takes the new value; within one call the later row of a key wins. */
export function upsert(table: string, columns: readonly string[], conflict: readonly string[], input: readonly (readonly unknown[])[]): Fragment[] {
  // One statement may not name a key twice on PostgreSQL ("cannot affect row a second time"):
  // the later row wins, as it would in separate statements.
  const at = conflict.map((c) => columns.indexOf(c));
  const byKey = new Map<string, readonly unknown[]>();
  for (const row of input) byKey.set(at.map((i) => String(row[i])).join('\u0000'), row);
  const rows = byKey.size === input.length ? input : [...byKey.values()];
  const updates = columns.filter((c) => !conflict.includes(c)).map((c) => `${c} = excluded.${c}`);
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const statements: Fragment[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const batch = rows.slice(i, i + ROWS_PER_STATEMENT);
    statements.push({
      sql: `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${batch.map(() => tuple).join(', ')}
        ON CONFLICT (${conflict.join(', ')}) DO UPDATE SET ${updates.join(', ')}`,
      params: batch.flat(),
    });
  }
  return statements;
}

/**
 * Writes stored links (an engine's fast path, or the shared upsert); may return the registrable
 * domains whose links it inserted or changed (the others' rollups need no refresh), otherwise every
 * written link's domain counts as changed.
 */
export type LinkSink = (rows: readonly LinkRow[]) => Promise<void | Iterable<string>>;

export type { LinksTable } from './rollups.js';

/** The shared upsert of links over a connection, into `links` or the load's `table`. */
export const upsertLinks =
  (connection: SqlConnection, table: LinksTable = 'links'): LinkSink =>
  (rows) =>
    connection.transaction(upsert(table, LINK_COLUMNS, ['link_key'], rows.map((row) => row.values)));

/** The columns of `keyword_metrics`, in the order of {@link keywordRow}'s values. */
export const KEYWORD_COLUMNS = [
  'keyword', 'country', 'month', 'snapshot_at', 'search_volume', 'cpc', 'competitive_density', 'keyword_difficulty', 'number_of_results', 'intents', 'serp_features', 'trends',
] as const;

/** The key of a keyword snapshot: a later snapshot of the same key replaces it. */
export const KEYWORD_KEY = ['keyword', 'country', 'month', 'snapshot_at'] as const;

/**
 * A keyword snapshot's stored values, in the order of {@link KEYWORD_COLUMNS}.
 */
export function keywordRow(s: KeywordSnapshotInput): unknown[] {
  return [
    normalizeKeyword(s.keyword), s.country, s.month, s.snapshot_at, s.search_volume, s.cpc, s.competitive_density, s.keyword_difficulty,
    s.number_of_results, JSON.stringify(s.intents), JSON.stringify(s.serp_features), JSON.stringify(s.trends),
  ];
}

/** Writes stored keyword snapshots ({@link keywordRow}s): an engine's faster way, or the shared upsert. Within one call the later row of a key wins. */
export type KeywordSink = (rows: readonly (readonly unknown[])[]) => Promise<void>;

/** The shared upsert of keyword snapshots over a connection. */
export const upsertKeywords =
  (connection: SqlConnection): KeywordSink =>
  (rows) =>
    connection.transaction(upsert('keyword_metrics', KEYWORD_COLUMNS, KEYWORD_KEY, rows));

/**
 * The writer every store loads with: the bookkeeping written once over the engine's load slot.
 * A link's stored columns and identity are derived here (two records of one identity in one batch:
 * the later wins, as in separate batches); the writer remembers the registrable domains whose links
 * or target pages it wrote and the referring domains whose own data it wrote, and at `finish`
 * refreshes the rollups of the first and of every domain the second link to (the rollups keep a
 * referring domain's IP, country and score). The engine's sink only writes (see `engine.ts`).
 * `onFinish` runs once a load has finished (the store forgets its read-cache there).
 */
export async function createGraphWriter(load: LoadSlot, parser: DomainParser, onFinish: () => void): Promise<GraphWriter> {
  const touched = new Set<string>();
  const sources = new Set<string>();
  let written = 0;
  let sink: Promise<LoadSink> | undefined;
  const open = () => (sink ??= load.begin());
  // Begun now: a load that cannot start (a lock another process holds, a store open for reading) fails here.
  await open();
  return {
    domains: async (input, options = {}) => {
      const to = await open();
      // Kept records change nothing: only the domains written need their targets' rollups refreshed.
      const known = options.keep ? await to.recorded(input.map((row) => row.domain)) : undefined;
      const rows = known === undefined || known.size === 0 ? input : input.filter((row) => !known.has(row.domain));
      await to.domains(rows);
      for (const row of rows) sources.add(row.domain);
    },
    pages: async (rows) => {
      const to = await open();
      await to.pages(
        rows.map((p) => {
          const { host, path, domain } = pageParts(p, parser);
          // The rollups of the page's domain show the page's own data.
          touched.add(domain);
          return [host, path, p.url, p.title, p.response_code, p.page_score, p.external_links_count, p.internal_links_count];
        }),
      );
    },
    keywords: async (rows) => (await open()).keywords(rows.map(keywordRow)),
    links: async (rows) => {
      const to = await open();
      const stored = rows.map((link) => linkRow(link, parser));
      // Two records with the same identity in one batch: the later one wins, as in separate batches.
      const unique = new Map(stored.map((row) => [row.key.toString('base64'), row]));
      const changed = await to.links([...unique.values()]);
      for (const domain of changed ?? stored.map((row) => row.targetDomain)) touched.add(domain);
      written += rows.length;
    },
    finish: async (options = {}): Promise<LoadStats> => {
      const to = await open();
      const all = options.all ?? to.fresh;
      if (!all) for (const domain of await linkedFrom(load.linkedFrom, [...sources])) touched.add(domain);
      const domains = [...touched].sort();
      try {
        await to.finish(all ? 'all' : domains, options.onProgress);
      } finally {
        // A load that failed may have changed what readers see (an engine without transactions).
        sink = undefined;
        onFinish();
      }
      touched.clear();
      sources.clear();
      return { links: written, domains: domains.length };
    },
  };
}

/** The columns of `target_pages`, in the order of the rows `LoadSink.pages` takes. */
export const PAGE_COLUMNS = ['host', 'path', 'url', 'title', 'response_code', 'page_score', 'external_links_count', 'internal_links_count'] as const;

/** The columns of `domains`. */
export const DOMAIN_COLUMNS = ['domain', 'ip_address', 'country', 'domain_score'] as const;

/**
 * A load sink of the shared multi-row upserts over a connection (SQLite's and PostgreSQL's
 * `INSERT ... ON CONFLICT`): an engine takes it whole or replaces what it writes faster.
 */
export function upsertSink(connection: SqlConnection): Omit<LoadSink, 'fresh' | 'finish'> {
  return {
    recorded: (names) => recordedDomains(connection, 'domains', names),
    domains: (rows) => connection.transaction(upsert('domains', DOMAIN_COLUMNS, ['domain'], rows.map((d) => [d.domain, d.ip_address, d.country, d.domain_score]))),
    pages: (rows) => connection.transaction(upsert('target_pages', PAGE_COLUMNS, ['host', 'path'], rows)),
    links: upsertLinks(connection),
    keywords: upsertKeywords(connection),
  };
}

/** Source domains per lookup (one bound value each). */
const SOURCES_PER_LOOKUP = 1_000;

/**
 * Of the given domain names, those with a record in `table` (`domains`; a ClickHouse shard's
 * `domains_local`), for `GraphWriter.domains` with `keep`.
 */
export async function recordedDomains(reader: { all<Row>(query: Fragment): Promise<Row[]> }, table: 'domains' | 'domains_local', names: readonly string[]): Promise<ReadonlySet<string>> {
  const known = new Set<string>();
  for (let i = 0; i < names.length; i += SOURCES_PER_LOOKUP) {
    const batch = names.slice(i, i + SOURCES_PER_LOOKUP);
    const found = await reader.all<{ domain: string }>(sql`SELECT domain FROM ${raw(table)} WHERE domain IN (${join(batch.map((name) => sql`${name}`), ', ')})`);
    for (const row of found) known.add(row.domain);
  }
  return known;
}

/**
 * The registrable domains that the given referring domains link to, read from the domain-level
 * rows of the referring-domain rollups where `at` keeps them (`d:` keys: a domain is linked from a
 * referring domain exactly when its domain-level key has a row of it).
 */
export async function linkedFrom({ connection, sources }: ReadPlace, referrers: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  for (let i = 0; i < referrers.length; i += SOURCES_PER_LOOKUP) {
    const batch = referrers.slice(i, i + SOURCES_PER_LOOKUP);
    const rows = await connection.all<{ d: string }>(
      sql`SELECT DISTINCT substr(r.tkey, 3) AS d FROM ${sources.rollup('r_ref_domains')}
        WHERE r.tkey >= 'd:' AND r.tkey < 'd;' AND r.source_domain IN (${join(batch.map((source) => sql`${source}`), ', ')})`,
    );
    for (const row of rows) found.add(row.d);
  }
  return [...found];
}
