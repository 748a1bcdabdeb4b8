/**
 * Large targets spread over every shard. A registrable domain's links live on its domain's shard
 * (its home), unless the domain has more links than the store's threshold (`spreadAbove`): then each
 * of its links lives on the shard its link key names ({@link ownerOf}: the key is already a hash),
 * so that a filtered call over it scans every shard's share side by side. Its rollups, kept rows
 * and first-seen times stay on its home shard, computed from all its links.
 *
 * A domain is moved by the load that takes it past the threshold, inside the load's unmerged
 * window (readers use `FINAL`): its links are copied to the shards that own them (not its home's
 * own), the domain is recorded in `spread` (entry shard), and, once every reader has seen the
 * record (the load waits as long as readers trust a merge state they read), the copies left on the home shard are deleted. Until a
 * reader has seen the record it reads the home shard alone, which holds every link until the
 * delete; once it has, it reads the `Distributed` links table with the condition that each shard
 * keeps only the links it owns ({@link owned}), so a link is never read twice, whether the home's
 * copies are deleted yet or not. The design and its measurements: docs/design-store.md,
 * "Large targets spread over every shard".
 *
 * @module
 * @internal
 */
import { join, raw, sql, type Fragment } from '../../fragment.js';
import { StoreQueryError } from '../../errors.js';
import type { ClickhouseShard } from './connection.js';

/** The number a link key's first four bytes make (big-endian): the owner of the link is it modulo the shard count. */
const OWNER_KEY = (column: string) => `reinterpretAsUInt32(reverse(unhex(substring(${column}, 1, 8))))`;

/** The sharding key of `links_spread`, the `Distributed` table a move inserts through: each link to the shard that owns it. */
export const SPREAD_SHARDING_KEY = OWNER_KEY('link_key');

/** The shard that owns a link of a spread domain, from its link key (hex), as {@link owned} computes it on the server. */
export const ownerOf = (linkKey: string, shards: number): number => Number.parseInt(linkKey.slice(0, 8), 16) % shards;

/**
 * The condition that the shard running it owns a link (`column`: its link key, qualified as the
 * query needs): each shard evaluates it in its part of a distributed query, against its own number
 * in `self_local` (named with its database: a shard runs its part in its default one).
 */
export const owned = (database: string, shards: number, column = 'link_key'): Fragment =>
  raw(`toUInt32(${OWNER_KEY(column)} % ${shards}) IN (SELECT num FROM ${database}.self_local)`);

/**
 * Where a shard reads the links of some domains, as a `FROM` item aliased `alias`: its own table
 * for domains that live on it alone, the `Distributed` table with the links each shard owns for
 * spread ones. `names`: the domains, as literals; `final`: the links may hold replaced rows.
 */
export function linkRows(database: string, shards: number, names: Fragment, spread: boolean, final: boolean, alias: string): Fragment {
  const fin = raw(final ? ' FINAL' : '');
  return spread
    ? sql`(SELECT * FROM ${raw(database)}.links${fin} WHERE target_domain IN (${names}) AND ${owned(database, shards)}) AS ${raw(alias)}`
    : sql`(SELECT * FROM links_local${fin} WHERE target_domain IN (${names})) AS ${raw(alias)}`;
}

/**
 * Gives each shard its number in `self_local` (its place in the store's list of URLs, which is the
 * cluster's order of shards), or checks the one it has.
 *
 * @throws StoreQueryError (code `SHARD_ORDER`) when a shard holds another number: the URLs are not
 * listed in the order of the cluster's shards (or two stores share a database), and the links of
 * spread domains would be read from the wrong shards.
 */
export async function claimShardNumbers(shards: readonly ClickhouseShard[]): Promise<void> {
  await Promise.all(
    shards.map(async (shard, number) => {
      const [row] = await shard.all<{ n: number[] | string[] }>(raw('SELECT groupUniqArray(num) AS n FROM self_local'));
      const held = (row?.n ?? []).map(Number);
      if (held.length === 0) return shard.insert('self_local', [{ num: number }]);
      if (held.length !== 1 || held[0] !== number) {
        throw new StoreQueryError(
          `ClickHouse at ${shard.url} is shard ${held.map((n) => n + 1).join(' and ')} of this store, but is listed as shard ${number + 1}: list the URLs in the order of the cluster's shards.`,
          'SHARD_ORDER',
        );
      }
    }),
  );
}

/** The domains recorded spread. */
export async function readSpread(entry: ClickhouseShard): Promise<Set<string>> {
  return new Set((await entry.all<{ d: string }>(raw('SELECT DISTINCT tdomain AS d FROM spread'))).map((row) => row.d));
}

/**
 * Moves the domains of more links than `threshold` not spread yet, shard by shard (a domain's
 * links are counted on its home shard, which holds them all): copies its links to the shards that
 * own them (through `links_spread`, waiting for every shard's insert), then records the domain
 * spread. `homeOf`: the shard of each domain. Returns the moved domains by home shard, whose
 * copies {@link dropLeftovers} deletes.
 */
export async function spreadLarge(
  shards: readonly ClickhouseShard[],
  spread: ReadonlySet<string>,
  threshold: number,
  homeOf: (domains: readonly string[]) => Promise<number[]>,
  version: number,
): Promise<Map<number, string[]>> {
  const moved = new Map<number, string[]>();
  if (shards.length === 1 || !Number.isFinite(threshold)) return moved;
  const owner = (s: number) => raw(`toUInt32(${OWNER_KEY('link_key')} % ${shards.length}) != ${s}`);
  for (const [s, shard] of shards.entries()) {
    const counted = await shard.all<{ d: string }>(sql`SELECT target_domain AS d FROM links_local GROUP BY target_domain HAVING count() > ${threshold}`);
    const candidates = counted.map((row) => row.d).filter((domain) => !spread.has(domain));
    // A shard holds copies of a domain it is not the home of only while a move is under way.
    const homes = await homeOf(candidates);
    const mine = candidates.filter((_, i) => homes[i] === s);
    for (const domain of mine) {
      await shard.run(sql`INSERT INTO links_spread SELECT * FROM links_local FINAL WHERE target_domain = ${domain} AND ${owner(s)}`, {
        settings: { insert_distributed_sync: '1' },
      });
    }
    if (mine.length > 0) moved.set(s, mine);
  }
  const all = [...moved.values()].flat();
  if (all.length > 0) await shards[0]!.insert('spread', all.map((tdomain) => ({ tdomain, version })));
  return moved;
}

/** Deletes the copies of moved domains left on their home shards (an `ALTER ... DELETE`, carried out in the background). */
export async function dropLeftovers(shards: readonly ClickhouseShard[], moved: ReadonlyMap<number, readonly string[]>): Promise<void> {
  for (const [s, domains] of moved) {
    await shards[s]!.run(
      sql`ALTER TABLE links_local DELETE WHERE target_domain IN (${join(domains.map((domain) => sql`${domain}`), ', ')})
        AND ${raw(`toUInt32(${OWNER_KEY('link_key')} % ${shards.length}) != ${s}`)}`,
    );
  }
}
