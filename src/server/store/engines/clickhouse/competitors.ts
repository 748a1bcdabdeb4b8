/**
 * Competitors on the ClickHouse cluster: the graph of registrable domains and their referring
 * domains held in the server's memory as a {@link CompetitorIndex} (the embedded store's), read
 * from `r_graph`, which a refresh writes beside the other rollups: per domain and rollup version,
 * its referring domains (those of its domain-level `r_ref_domains` rows) as integer ids. The ids
 * are exact (one per referring domain, never a hash): `r_graph_ids` on the entry shard holds them,
 * and a writer ({@link GraphIds}) reads it and adds the domains it has not seen, before the graph
 * rows that use them. The graph is read in `RowBinary`, a few bytes per pair.
 *
 * Exact across processes: each call first asks the cluster for the identity of the current
 * rollup versions (one small `GROUP BY` over `r_versions`, a hash of every domain's latest
 * version); the read-cache keeps the graph under that identity, and reads it anew before the call
 * is answered when it differs. A refresh between the question and the read makes the next call
 * read it again. A load of a process whose read-cache holds the graph reads it again as it
 * finishes (`create-store.ts`), so that the next call does not wait for it.
 *
 * A domain whose current version has no graph row (rollups written by an earlier version of this
 * package) is filled at open ({@link fillCompetitorGraph}); one written by such a process after
 * the open makes the read fall back to the graph of the `r_ref_domains` rows themselves
 * ({@link readGraphOfRollups}), slower and as exact.
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
import { StoreQueryError } from '../../errors.js';
import { join, raw, sql, type Fragment } from '../../fragment.js';
import { numbers } from '../../reads/graph.js';
import { runList } from '../../reads/run-list.js';
import type { Page, RowsResult } from '../../store.js';
import type { ClickhouseShard } from './connection.js';
import { versionsLacking } from './schema.js';

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
export async function competitorVersions(entry: Pick<SqlConnection, 'all'>): Promise<string> {
  const [row] = await entry.all<{ h: string; n: number }>(VERSIONS);
  return `${row?.h ?? ''}/${row?.n ?? 0}`;
}

/**
 * The competitor graph read from the domain-level `r_ref_domains` rows themselves (every such row
 * of the cluster, its referring domain as text): where `r_graph` lacks a domain.
 */
export async function readGraphOfRollups(bulk: ClickhouseShard, current: Fragment): Promise<CompetitorIndex> {
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

/** The store's condition for the rows of the current rollup versions (on `r`), of the given domains or of all. */
export type CurrentRollups = (domains?: readonly string[]) => Fragment;

/** A domain's graph row: its rollup version and its referring domains' ids. */
interface GraphRow {
  readonly version: bigint;
  readonly sources: Int32Array;
}

/**
 * The competitor graph of the current rollups, read on `bulk` (no time bound: it grows with the
 * store): every domain's current version, then every current row of `r_graph` in one query; from
 * the rollups ({@link readGraphOfRollups}) when a domain's current version has no row, or when
 * `r_graph_ids` gives two domains one id or one domain two (written by two writers at once), so
 * that the graph is never wrong. Each row read is of a version at least as new as the one asked
 * before it.
 */
export async function readCompetitorGraph(bulk: ClickhouseShard, current: CurrentRollups): Promise<CompetitorIndex> {
  const versions = await currentVersions(bulk);
  const rows = new Map<string, GraphRow>();
  const binary = new RowBinary(await bulk.binary(sql`SELECT r.tdomain, r.version, r.sources FROM r_graph AS r WHERE ${current()}`));
  while (!binary.done) {
    const domain = binary.string();
    const version = binary.uint64();
    const count = binary.varint();
    const from = binary.skip(4 * count);
    const sources = new Int32Array(count);
    for (let i = 0; i < count; i++) sources[i] = binary.bytes.readUInt32LE(from + 4 * i);
    if ((rows.get(domain)?.version ?? -1n) < version) rows.set(domain, { version, sources });
  }
  for (const [domain, version] of versions) {
    if ((rows.get(domain)?.version ?? -1n) < version) return readGraphOfRollups(bulk, current());
  }
  if (await idsClash(bulk)) return readGraphOfRollups(bulk, current());
  return graphOf(rows);
}

/** Whether `r_graph_ids` gives two domains one id, or one domain two ids (two writers at once). */
async function idsClash(bulk: ClickhouseShard): Promise<boolean> {
  // In one pass: each domain has one id and each id one domain exactly when there are as many
  // distinct pairs as distinct domains and as distinct ids.
  const [row] = await bulk.all<{ p: number | string; d: number | string; i: number | string }>(
    raw('SELECT uniqExact(domain, id) AS p, uniqExact(domain) AS d, uniqExact(id) AS i FROM r_graph_ids'),
  );
  return Number(row?.p) !== Number(row?.d) || Number(row?.p) !== Number(row?.i);
}

/** Every domain's current rollup version, on the cluster. */
async function currentVersions(bulk: ClickhouseShard): Promise<Map<string, bigint>> {
  const rows = new RowBinary(await bulk.binary(raw('SELECT tdomain, max(version) FROM r_versions GROUP BY tdomain')));
  const versions = new Map<string, bigint>();
  while (!rows.done) versions.set(rows.string(), rows.uint64());
  return versions;
}

/** The graph of the rows of `r_graph`, by domain. */
function graphOf(rows: ReadonlyMap<string, GraphRow>): CompetitorIndex {
  let pairs = 0;
  for (const row of rows.values()) pairs += row.sources.length;
  const names: string[] = [];
  const targets = new Int32Array(pairs);
  const sources = new Int32Array(pairs);
  let next = 0;
  let referrers = 0;
  for (const [domain, row] of rows) {
    const t = names.push(domain) - 1;
    targets.fill(t, next, next + row.sources.length);
    sources.set(row.sources, next);
    next += row.sources.length;
    for (const id of row.sources) if (id >= referrers) referrers = id + 1;
  }
  return new CompetitorIndex(targets, sources, names, referrers);
}

/**
 * The ids of referring domains in `r_graph` (`r_graph_ids` on the entry shard, one per domain,
 * 0, 1, 2, ...), for one writer: read at its first use, the domains it has not seen given the next
 * ids, written by {@link flush} (before any graph row that uses them is written). One writer at a
 * time, as loads are (see `createLoad`): two would give different domains the same id.
 */
export class GraphIds {
  #known: Promise<Map<string, number>> | undefined;
  #next = 0;
  #added: { domain: string; id: number }[] = [];

  constructor(private readonly entry: ClickhouseShard) {}

  /** The ids of these domains, new ones assigned. */
  async of(domains: readonly string[]): Promise<number[]> {
    const known = await (this.#known ??= this.#read());
    return domains.map((domain) => {
      let id = known.get(domain);
      if (id === undefined) {
        known.set(domain, (id = this.#next++));
        this.#added.push({ domain, id });
      }
      return id;
    });
  }

  /** Writes the ids assigned since the last flush. */
  async flush(): Promise<void> {
    const added = this.#added;
    this.#added = [];
    for (let i = 0; i < added.length; i += IDS_PER_INSERT) await this.entry.insert('r_graph_ids', added.slice(i, i + IDS_PER_INSERT));
  }

  async #read(): Promise<Map<string, number>> {
    const rows = new RowBinary(await this.entry.binary(raw('SELECT domain, id FROM r_graph_ids')));
    const known = new Map<string, number>();
    while (!rows.done) {
      const domain = rows.string();
      const id = rows.uint32();
      if (known.has(domain)) throw new StoreQueryError(`r_graph_ids holds ${JSON.stringify(domain)} twice (written by two loads at once): open the store again, which writes the graph's ids anew, then load.`);
      known.set(domain, id);
      if (id >= this.#next) this.#next = id + 1;
    }
    return known;
  }
}

/** Ids written per INSERT. */
const IDS_PER_INSERT = 50_000;

/** The referring domains of a domain's graph row: those of its domain-level `r_ref_domains` rows (`rollupRows`' tuples: key, referring domain, ...). */
export function graphSources(domain: string, refDomains: readonly (readonly unknown[])[]): string[] {
  const key = `d:${domain}`;
  return refDomains.filter((row) => row[0] === key).map((row) => row[1] as string);
}

/** Domains a fill of `r_graph` reads per query. */
const FILL_DOMAINS = 1_000;

/**
 * Writes the `r_graph` rows the shards' current rollups lack: those of every domain whose current
 * version has none (rollups written before the table existed, by an earlier version of this
 * package), from its domain-level `r_ref_domains` rows, as a refresh writes them. Run at every
 * open: one query per shard when nothing is missing (the ids are read only when something is).
 * Each group of domains is looked at again before it is read, so a load running meanwhile is not
 * filled twice. Where `r_graph_ids` clashes (two writers at once gave two domains one id, or one
 * domain two), the graph and its ids are written again from nothing (reads meanwhile fall back to
 * the rollups, see {@link readCompetitorGraph}).
 */
export async function fillCompetitorGraph(shards: readonly ClickhouseShard[]): Promise<void> {
  // Ids that clash (two writers at once) are written again from nothing: every row, every id.
  if (await idsClash(shards[0]!)) {
    for (const shard of shards) await shard.run(raw('TRUNCATE TABLE r_graph_local'));
    await shards[0]!.run(raw('TRUNCATE TABLE r_graph_ids'));
  }
  const ids = new GraphIds(shards[0]!);
  const missing = (domains?: Fragment) => versionsLacking('r_graph_local', domains);
  for (const shard of shards) {
    const domains = (await shard.all<{ tdomain: string }>(sql`SELECT tdomain FROM (${missing()})`)).map((row) => row.tdomain);
    for (let i = 0; i < domains.length; i += FILL_DOMAINS) {
      const names = join(domains.slice(i, i + FILL_DOMAINS).map((domain) => sql`${domain}`), ', ');
      const versions = await shard.all<{ tdomain: string; v: string | number }>(missing(names));
      const sources = new Map<string, string[]>();
      await shard.each<{ t: string; s: string[] }>(
        sql`SELECT r.tdomain AS t, groupArray(r.source_domain) AS s FROM r_ref_domains_local AS r
          WHERE r.tdomain IN (${names}) AND r.tkey = concat('d:', r.tdomain) AND (r.tdomain, r.version) IN (${missing(names)}) GROUP BY r.tdomain`,
        (rows) => rows.forEach((row) => sources.set(row.t, row.s)),
      );
      const rows: Record<string, unknown>[] = [];
      for (const { tdomain, v } of versions) rows.push({ tdomain, sources: await ids.of(sources.get(tdomain) ?? []), version: v });
      await ids.flush();
      await shard.insert('r_graph_local', rows);
    }
  }
}

/**
 * A reader of `RowBinary` bytes (ClickHouse's own row format: strings as a LEB128 length and their
 * bytes, integers little-endian, arrays as a LEB128 count and their items).
 *
 * @throws StoreQueryError (from its reads) when the bytes end inside a value: not the answer asked for.
 */
class RowBinary {
  #at = 0;
  constructor(readonly bytes: Buffer) {}

  get done(): boolean {
    return this.#at >= this.bytes.length;
  }

  varint(): number {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = this.bytes[this.#at++];
      if (byte === undefined || shift > 49) throw this.#cut();
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  }

  string(): string {
    const length = this.varint();
    return this.bytes.toString('utf8', this.#at, this.skip(length) + length);
  }

  uint32(): number {
    return this.bytes.readUInt32LE(this.skip(4));
  }

  uint64(): bigint {
    return this.bytes.readBigUInt64LE(this.skip(8));
  }

  /** Moves past `length` bytes; returns where they start. */
  skip(length: number): number {
    const at = this.#at;
    if (at + length > this.bytes.length) throw this.#cut();
    this.#at += length;
    return at;
  }

  #cut(): StoreQueryError {
    return new StoreQueryError('ClickHouse answered a RowBinary read with bytes that end inside a value.');
  }
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
