/**
 * Competitors on the ClickHouse cluster: the graph of registrable domains and their referring
 * domains held in the server's memory as a {@link CompetitorIndex} (the embedded store's), read
 * from the cluster's domain-level referring-domain rollups, and read again whenever a refresh has
 * changed them.
 *
 * Exact across processes: each call first asks the cluster for the identity of the current
 * rollup versions (one small `GROUP BY` over `r_versions`, a hash of every domain's latest
 * version); the read-cache keeps the graph under that identity, and reads it anew before the call
 * is answered when it differs. A refresh between the question and the read makes the next call
 * read it again.
 *
 * Why not a table of every listed pair, or a query per call (which read every domain-level rollup
 * row of the cluster): docs/design-store.md, "Measurements behind the store's code".
 *
 * @module
 * @internal
 */
import type { RowOf } from '../../../../catalogue/types.js';
import { COMPETITOR_MIN_COMMON, COMPETITOR_MIN_SIMILARITY, CompetitorIndex } from '../../memory/competitor-graph.js';
import type { SqlConnection } from '../../connection.js';
import { raw, sql, type Fragment } from '../../fragment.js';
import { numbers } from '../../reads/graph.js';
import { runList } from '../../reads/run-list.js';
import type { Page, RowsResult } from '../../store.js';
import type { ClickhouseShard } from './connection.js';

/** The identity of the cluster's current rollup versions: equal while no refresh has changed them. */
const VERSIONS = raw(
  `SELECT toString(sum(cityHash64(tdomain, v))) AS h, count() AS n FROM (SELECT tdomain, max(version) AS v FROM r_versions GROUP BY tdomain)`,
);

/** Each registrable domain's referring domains (one row per domain); `current`: the rows of the current rollup versions. */
const graphQuery = (current: Fragment): Fragment =>
  sql`SELECT r.tdomain AS t, groupArray(r.source_domain) AS s FROM r_ref_domains AS r WHERE r.tkey = concat('d:', r.tdomain) AND ${current} GROUP BY r.tdomain`;

/**
 * The identity of the cluster's current rollup versions, asked on a call's connection (with the
 * call's time bound): equal while no refresh, of this process or another, has changed them.
 */
export async function competitorVersions(entry: SqlConnection): Promise<string> {
  const [row] = await entry.all<{ h: string; n: number }>(VERSIONS);
  return `${row?.h ?? ''}/${row?.n ?? 0}`;
}

/**
 * The competitor graph of the current rollups, read on `bulk` (no time bound: it grows with the
 * store); `current` is the store's condition for the rows of the current rollup versions (on `r`).
 */
export async function readCompetitorGraph(bulk: ClickhouseShard, current: Fragment): Promise<CompetitorIndex> {
  const names: string[] = [];
  const targets: number[] = [];
  const sources: number[] = [];
  const sourceIds = new Map<string, number>();
  await bulk.each<{ t: string; s: string[] }>(graphQuery(current), (rows) => {
    for (const row of rows) {
      const t = names.push(row.t) - 1;
      for (const source of row.s) {
        let s = sourceIds.get(source);
        if (s === undefined) sourceIds.set(source, (s = sourceIds.size));
        targets.push(t);
        sources.push(s);
      }
    }
  });
  return new CompetitorIndex(Int32Array.from(targets), Int32Array.from(sources), names, sourceIds.size);
}

/**
 * Competitors counted from the links themselves in one query over the cluster (`links`: the
 * `Distributed` links table aliased `l`), without rollups: the store's answer with `rollups: false`,
 * which the rollup differential suite sets beside the graph's.
 */
export async function competitorsOverLinks(entry: SqlConnection, links: Fragment, domain: string, page: Page): Promise<RowsResult<RowOf<'competitors'>>> {
  const mine = sql`SELECT DISTINCT l.source_domain FROM ${links} WHERE l.target_domain = ${domain}`;
  const rows = sql`SELECT o.competitor AS _key, o.competitor AS domain, o.common / ((SELECT count() FROM (${mine})) + o.theirs - o.common) AS similarity,
      o.common AS common_refdomains
    FROM (SELECT l.target_domain AS competitor, uniqExactIf(l.source_domain, l.source_domain GLOBAL IN (${mine})) AS common,
        uniqExact(l.source_domain) AS theirs
      FROM ${links} WHERE l.target_domain != ${domain} GROUP BY l.target_domain HAVING common > 0) AS o`;
  const where = sql`common_refdomains >= ${COMPETITOR_MIN_COMMON} AND similarity >= ${COMPETITOR_MIN_SIMILARITY}`;
  const result = await runList(entry, rows, where, page, { whole: true });
  return { total: result.total, rows: numbers(result.rows, ['domain'], ['similarity', 'common_refdomains']) };
}
