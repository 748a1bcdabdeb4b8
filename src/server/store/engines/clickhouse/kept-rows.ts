/**
 * The first rows of a large key's lists, kept by the load, on the ClickHouse cluster. ClickHouse
 * 18.16 cannot read a key's range in the order of a column other than its sort key, so an
 * unfiltered page sorts every row of the key (every link of a target, every one of its referring
 * domains): its work grows with the target. For each key with more rows in a list than the store
 * keeps (`keep`), the refresh writes the list's first `keep` rows in the list's default order
 * (the catalogue's `order_by`, the interface's default direction DESC, ties broken by the list's
 * key ascending as every read breaks them) into the list's kept table (`KEPT_TABLES`), under the
 * domain's new rollup version; a call without a filter, in that order, whose page ends within
 * them, reads them instead of the key's rows (`keptSources`), its total from the rollup counters.
 *
 * Kept by the same statement shape a read sorts by (ClickHouse sorts both), so the kept rows are
 * exactly the first rows of the list; a key the store keeps no rows of, or a page past them, is
 * read as without (`reads/reads.ts`). Only the default order is kept: each more order costs its
 * rows again for every large key. The sizes and the rows read: docs/design-store.md, "Kept rows".
 *
 * @module
 * @internal
 */
import { operations } from '../../../../catalogue/operations.js';
import { LINK_COLUMNS } from '../../inputs.js';
import { join, raw, sql, type Fragment } from '../../fragment.js';
import { LIST_SOURCES, type RelationSources } from '../../reads/relations.js';
import type { GroupedOperation, Page } from '../../store.js';
import type { ClickhouseShard } from './connection.js';
import { KEPT_TABLES, LINK_KEYS, ROLLUP_TABLES, versionsLacking } from './schema.js';

/** The rows of each list kept per large key, by default (ten pages of the default limit: a read-cache window). */
export const KEEP_ROWS = 1_000;

const LISTS = Object.keys(KEPT_TABLES) as GroupedOperation[];

/** The field a list's rows are kept in the order of: the catalogue's default `order_by`. */
const keptField = (operation: GroupedOperation): string => operations[operation].params.order_by.default;

/** The `ord` of a list's kept rows (the order's field and direction). */
const keptOrder = (operation: GroupedOperation): string => `${keptField(operation)} DESC`;

// A kept order must be a column of the list's source, which the kept rows copy and sort by as a read does.
for (const operation of LISTS) {
  const source = LIST_SOURCES[operation].table;
  const columns: readonly string[] = source === 'links' ? LINK_COLUMNS : ROLLUP_TABLES[source].columns.split(',').map((column) => column.trim().split(/\s+/)[0]!);
  if (!columns.includes(keptField(operation))) throw new TypeError(`the default order of ${operation} is not a column of ${source}: no rows can be kept in it`);
}

/** Domain versions per statement (their names and versions are literals of the statement). */
const PAIRS_PER_STATEMENT = 500;

/**
 * Where the links of some domains are read, as a `FROM` item aliased `l` (`linkRows` of
 * `spread.ts`): `names`, the domains as literals, all of them `spread` over every shard or none.
 */
export type KeptLinks = (names: Fragment, spread: boolean) => Fragment;

/**
 * Writes the kept rows of the given domains' rollup versions (written already, not yet recorded
 * in `r_versions_local`), their links read where `links` says (with `FINAL` where the links may
 * hold replaced rows, as the refresh reads them), the spread domains apart. {@link recordKept}
 * records them after.
 */
export async function writeKeptRows(
  shard: ClickhouseShard,
  pairs: readonly (readonly [domain: string, version: number])[],
  keep: number,
  spread: ReadonlySet<string>,
  links: KeptLinks,
): Promise<void> {
  for (const spreadOnes of [false, true]) {
    const some = pairs.filter(([domain]) => spread.has(domain) === spreadOnes);
    for (let i = 0; i < some.length; i += PAIRS_PER_STATEMENT) {
      const batch = some.slice(i, i + PAIRS_PER_STATEMENT);
      const domains = join(batch.map(([domain]) => sql`${domain}`), ', ');
      const versions = join(batch.map(([domain, version]) => sql`(${domain}, ${version})`), ', ');
      for (const operation of LISTS) await shard.run(keptStatement(operation, domains, versions, batch, keep, links(domains, spreadOnes)));
    }
  }
}

/** Records that the kept rows of these domain versions are written (a domain with no large key has none to write). */
export async function recordKept(shard: ClickhouseShard, pairs: readonly (readonly [domain: string, version: number])[]): Promise<void> {
  for (let i = 0; i < pairs.length; i += 50_000) {
    await shard.insert('kept_done_local', pairs.slice(i, i + 50_000).map(([tdomain, version]) => ({ tdomain, version })));
  }
}

/** The statement that writes one list's kept rows for a batch of domain versions. */
function keptStatement(operation: GroupedOperation, domains: Fragment, versions: Fragment, batch: readonly (readonly [string, number])[], keep: number, from: Fragment): Fragment {
  const { table: source, key } = LIST_SOURCES[operation];
  const field = raw(keptField(operation));
  const ord = keptOrder(operation);
  const kept = raw(`${KEPT_TABLES[operation]}_local`);
  if (source !== 'links') {
    // The rows of keys with more than `keep` of them, the first `keep` of each in order.
    const table = raw(`${source}_local`);
    return sql`INSERT INTO ${kept} SELECT ${ord} AS ord, * FROM ${table} WHERE (tdomain, version) IN (${versions})
      AND tkey IN (SELECT tkey FROM ${table} WHERE (tdomain, version) IN (${versions}) GROUP BY tkey HAVING count() > ${keep})
      ORDER BY tkey, ${field} DESC, ${raw(key)} ASC LIMIT ${keep} BY tkey`;
  }
  // The links of keys with more than `keep` links: the first ids of each key chosen from narrow
  // rows (a large domain's links are millions), then those links copied whole, with their key
  // and their domain's new rollup version.
  const columns = raw(['id', ...LINK_COLUMNS].join(', '));
  const versionOf = sql`transform(target_domain, [${domains}], [${join(batch.map(([, version]) => sql`${version}`), ', ')}], toUInt64(0))`;
  const large = sql`SELECT tkey FROM r_targets_local WHERE (tdomain, version) IN (${versions}) AND backlinks_count > ${keep}`;
  const first = sql`SELECT tkey, id FROM (SELECT target_domain, target_host, target_path, id, ${field} FROM ${from})
    ARRAY JOIN ${LINK_KEYS} AS tkey WHERE tkey IN (${large}) ORDER BY tkey, ${field} DESC, id ASC LIMIT ${keep} BY tkey`;
  return sql`INSERT INTO ${kept} (ord, tkey, tdomain, ${columns}, version)
    SELECT ${ord}, tkey, target_domain, ${columns}, ${versionOf} FROM (SELECT * FROM ${from})
    ARRAY JOIN ${LINK_KEYS} AS tkey WHERE (tkey, id) IN (${first})`;
}

/**
 * Writes the kept rows a shard's current rollups lack: those of every domain whose current
 * version has none recorded in `kept_done_local` (rollups written before the tables existed, by
 * an earlier version of this package). Run at every open: one query of the shard's versions when
 * nothing is missing. A version is recorded after its kept rows, so a refresh running meanwhile is
 * not written twice.
 */
export async function fillKeptRows(shard: ClickhouseShard, keep: number, spread: ReadonlySet<string>, links: KeptLinks): Promise<void> {
  const missing = await shard.all<{ tdomain: string; v: string | number }>(versionsLacking('kept_done_local'));
  const pairs = missing.map((row) => [row.tdomain, Number(row.v)] as const);
  await writeKeptRows(shard, pairs, keep, spread, links);
  await recordKept(shard, pairs);
}

/**
 * The sources of a list's page read from its key's kept rows, or `undefined` where none are kept
 * for the call (a filter, another order, a page that ends past `keep`). `current`: the condition
 * on a table aliased `r` that keeps the rows of the target's current rollup version.
 */
export function keptSources(
  base: RelationSources,
  operation: GroupedOperation,
  page: Page,
  tkey: string,
  current: Fragment,
  keep: number,
): RelationSources | undefined {
  if (page.orderBy !== keptField(operation) || page.direction !== 'DESC' || page.offset + page.limit > keep) return undefined;
  const ord = keptOrder(operation);
  const table = raw(`${KEPT_TABLES[operation]}_local`);
  const source = LIST_SOURCES[operation].table;
  // One row per key of the list: two servers that open an older database at once may both fill its kept rows.
  const rows = sql`(SELECT * FROM ${table} AS r WHERE r.tkey = ${tkey} AND r.ord = ${ord} AND ${current} LIMIT 1 BY r.${raw(LIST_SOURCES[operation].key)})`;
  // The rows are the key's already: no scope condition.
  if (source === 'links') return { ...base, links: sql`${rows} AS l`, scope: () => raw('1 = 1') };
  return { ...base, rollup: (name) => (name === source ? sql`${rows} AS r` : base.rollup(name)) };
}
