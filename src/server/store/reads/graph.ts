/**
 * Operations over the domain graph: the score profile of a target's referring domains,
 * competitors by referring-domain overlap (Jaccard), and the matrix of domains by target. Each
 * reads the rollups when the target has a key, else groups the links.
 *
 * @module
 * @internal
 */
import type { RowOf } from '../../../catalogue/types.js';
import type { Target } from '../../target.js';
import type { CompetitorsQuery, MatrixQuery, RowsResult } from '../store.js';
import type { SqlConnection } from '../connection.js';
import { filterCondition, matrixCountColumn } from './filter.js';
import { ident, join, raw, sql, type Fragment } from '../fragment.js';
import { rollupKey, type ReadPlace } from './relations.js';
import { runList } from './run-list.js';
import { COMPETITOR_MIN_COMMON, COMPETITOR_MIN_SIMILARITY } from '../memory/competitor-graph.js';
import { scopeCondition } from './scope.js';


/** Engines return counts as numbers or numeric text (PostgreSQL's bigint, ClickHouse's Int64); the records want numbers. @internal */
export const numbers = <Row>(rows: readonly Record<string, unknown>[], text: readonly string[], numeric: readonly string[]): Row[] =>
  rows.map((row) => Object.fromEntries([...text.map((f) => [f, row[f]]), ...numeric.map((f) => [f, Number(row[f])])]) as Row);

/**
 * Referring domains of a target counted by their domain score, ascending; no row for an empty
 * score. A referring domain without a domain record has no known score and is not counted (its
 * `ref-domains` row shows 0: docs/importing.md, "Unknown values").
 */
export async function scoreProfile({ connection, sources }: ReadPlace, target: Target, useRollups: boolean): Promise<RowOf<'score-profile'>[]> {
  const tkey = useRollups ? rollupKey(target) : undefined;
  const rows = await connection.all<Record<string, unknown>>(
    tkey === undefined
      ? sql`SELECT d.domain_score AS s, count(*) AS n
          FROM (SELECT DISTINCT l.source_domain AS source_domain FROM ${sources.links} WHERE ${scopeCondition(target)}) rd
          JOIN ${sources.domains()} ON d.domain = rd.source_domain
          GROUP BY d.domain_score ORDER BY s ASC`
      : sql`SELECT r.domain_score AS s, r.domains_count AS n FROM ${sources.rollup('r_score_profile')} WHERE ${sources.rollupRows(tkey, target)} ORDER BY r.domain_score ASC`,
  );
  return rows.map((row) => ({ domain_score: Number(row['s']), domains_count: Number(row['n']) }));
}

/**
 * Competitors of a domain: every other registrable domain sharing referring domains with it, with
 * similarity = |R(t) ∩ R(c)| / |R(t) ∪ R(c)|.
 */
export async function competitors(connection: SqlConnection, query: CompetitorsQuery, useRollups: boolean): Promise<RowsResult<RowOf<'competitors'>>> {
  const rows = useRollups
    ? sql`WITH mine AS (SELECT source_domain FROM r_ref_domains WHERE tkey = ${`d:${query.domain}`}),
        size AS (SELECT count(*) AS n FROM mine),
        overlap AS (SELECT r.tkey, count(*) AS common FROM mine JOIN r_ref_domains r ON r.source_domain = mine.source_domain
          WHERE r.tkey >= 'd:' AND r.tkey < 'd;' AND r.tkey <> ${`d:${query.domain}`} GROUP BY r.tkey)
      SELECT t.tdomain AS _key, t.tdomain AS domain,
        CAST(o.common AS DOUBLE PRECISION) / (size.n + t.domains_count - o.common) AS similarity, o.common AS common_refdomains
      FROM overlap o JOIN r_targets t ON t.tkey = o.tkey CROSS JOIN size`
    : sql`WITH mine AS (SELECT DISTINCT source_domain FROM links WHERE target_domain = ${query.domain}),
        size AS (SELECT count(*) AS n FROM mine),
        overlap AS (SELECT l.target_domain AS domain, count(DISTINCT l.source_domain) AS common
          FROM mine JOIN links l ON l.source_domain = mine.source_domain
          WHERE l.target_domain <> ${query.domain} GROUP BY l.target_domain),
        theirs AS (SELECT l.target_domain AS domain, count(DISTINCT l.source_domain) AS n
          FROM links l WHERE l.target_domain IN (SELECT domain FROM overlap) GROUP BY l.target_domain)
      SELECT o.domain AS _key, o.domain AS domain,
        CAST(o.common AS DOUBLE PRECISION) / (size.n + t.n - o.common) AS similarity, o.common AS common_refdomains
      FROM overlap o JOIN theirs t ON t.domain = o.domain CROSS JOIN size`;
  const where = sql`common_refdomains >= ${COMPETITOR_MIN_COMMON} AND similarity >= ${COMPETITOR_MIN_SIMILARITY}`;
  const result = await runList(connection, rows, where, query.page);
  return { total: result.total, rows: numbers(result.rows, ['domain'], ['similarity', 'common_refdomains']) };
}

/**
 * The matrix: each domain linking to at least one target, with its backlinks to each target in
 * request order and the number of targets it links to.
 */
export async function matrix({ connection, sources }: ReadPlace, query: MatrixQuery, useRollups: boolean): Promise<RowsResult<RowOf<'matrix'>>> {
  const keys = query.targets.map((target) => (useRollups ? rollupKey(target) : undefined));
  const names = query.targets.map((_, i) => ident(matrixCountColumn(i + 1)));
  let grouped: Fragment;
  if (keys.every((key): key is string => key !== undefined)) {
    const counts = keys.map((key, i) => sql`sum(CASE WHEN r.tkey = ${key} THEN r.backlinks_count ELSE 0 END) AS ${names[i]!}`);
    const current = sources.currentRollups([...new Set(query.targets.map((target) => target.domain))]);
    // A referring domain's own data is in each of its rollup rows (the same in every row once refreshed).
    grouped = sql`SELECT r.source_domain AS _key, r.source_domain AS c_domain, min(r.domain_score) AS c_domain_score,
        min(r.ip_address) AS c_ip_address, min(r.country) AS c_country, ${join(counts, ', ')}
      FROM ${sources.rollup('r_ref_domains')} WHERE r.tkey IN (${join(keys.map((key) => sql`${key}`), ', ')})${current ? sql` AND ${current}` : raw('')}
      GROUP BY r.source_domain`;
  } else {
    // The targets' links first, then joined with the domains (ClickHouse: the links are read on every
    // shard, the join runs on the entry with its own copy of the domains).
    const conditions = query.targets.map(scopeCondition);
    const flags = conditions.map((condition, i) => sql`CASE WHEN ${condition} THEN 1 ELSE 0 END AS ${ident(`m_${i + 1}`)}`);
    const counts = names.map((name, i) => sql`sum(m.${ident(`m_${i + 1}`)}) AS ${name}`);
    grouped = sql`SELECT m.source_domain AS _key, m.source_domain AS c_domain, coalesce(min(d.domain_score), 0) AS c_domain_score,
        coalesce(min(d.ip_address), '') AS c_ip_address, coalesce(min(d.country), '') AS c_country, ${join(counts, ', ')}
      FROM (SELECT l.source_domain AS source_domain, ${join(flags, ', ')} FROM ${sources.links} WHERE ${join(conditions.map((c) => sql`(${c})`), ' OR ')}) m
      LEFT JOIN ${sources.domains()} ON d.domain = m.source_domain GROUP BY m.source_domain`;
  }
  const matches = join(names.map((name) => sql`CASE WHEN g.${name} > 0 THEN 1 ELSE 0 END`), ' + ');
  // The columns are renamed outside the grouping (ClickHouse would read \`min(r.country) AS country\` as
  // an aggregate of itself); 64-bit: on PostgreSQL a sum of integer literals is int4, and a filter's
  // integer literal is bound to its type.
  const rows = sql`SELECT g._key, g.c_domain AS domain, g.c_domain_score AS domain_score, g.c_ip_address AS ip_address, g.c_country AS country,
      ${join(names.map((name) => sql`g.${name}`), ', ')}, CAST(${matches} AS ${raw(sources.int64)}) AS matches_count FROM (${grouped}) g`;
  const result = await runList(connection, rows, filterCondition(query.filter, 'matrix', connection.dialect), query.page);
  return { total: result.total, rows: result.rows.map((row) => matrixRecord(row, query.targets.length)) };
}

/** A matrix row (counts in the columns `bc_1` ... `bc_<targets>`) as its record. @internal */
export function matrixRecord(row: Readonly<Record<string, unknown>>, targets: number): RowOf<'matrix'> {
  return {
    domain: row['domain'] as string,
    domain_score: Number(row['domain_score']),
    ip_address: row['ip_address'] as string,
    country: row['country'] as string,
    matches_count: Number(row['matches_count']),
    backlinks_counts: Array.from({ length: targets }, (_, i) => Number(row[matrixCountColumn(i + 1)])),
  };
}
