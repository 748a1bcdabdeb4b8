/**
 * The Kysely adapter (`backlink-query/kysely`): a filter AST as a Kysely expression for `.where()`,
 * with the exact meaning `toSql` gives it and every literal bound by Kysely as a parameter. Kysely
 * is an optional peer dependency, needed only by this entry point; without it, importing the entry
 * throws an error whose message says `npm install kysely`.
 *
 * @example
 * ```ts
 * import { filterToKysely } from 'backlink-query/kysely';
 * const filter = parseFilter("domain_score > 50 AND anchor LIKE '%seo%'", { operation: 'links' });
 * const rows = await db.selectFrom('links').selectAll().where(filterToKysely(filter, { dialect: 'sqlite' })).execute();
 * ```
 *
 * @module
 */
import type { RawBuilder, SqlBool } from 'kysely';
import type { FilterNode } from '../ast/nodes.js';
import { toSqlFragments, type SqlOptions } from '../sql/to-sql.js';
import { kysely } from './optional-peer.js';

/**
 * Options of {@link filterToKysely}: the same as `toSql`'s. `dialect` decides the meaning (binary
 * text order, LIKE, booleans, arrays) and must name the engine the Kysely instance talks to; the
 * placeholders are Kysely's own.
 *
 * @example
 * ```ts
 * const options: KyselyFilterOptions = { dialect: 'postgres', columns: { anchor: 'anchor_text' } };
 * ```
 */
export type KyselyFilterOptions = SqlOptions;

/**
 * Turns a filter AST into a Kysely boolean expression, usable in `.where(...)`, `.having(...)` or
 * combined with `eb.and([...])`. Throws `UnsupportedError` when the dialect cannot express the
 * filter exactly.
 *
 * @example
 * ```ts
 * const where = filterToKysely(parseFilter('is_new = true', { operation: 'links' }), { dialect: 'postgres' });
 * await db.selectFrom('links').select('source_url').where(where).execute();
 * // select "source_url" from "links" where "is_new" = $1   -- parameters: [true]
 * ```
 */
export function filterToKysely(filter: FilterNode, options: KyselyFilterOptions): RawBuilder<SqlBool> {
  const { fragments, parameters } = toSqlFragments(filter, options);
  // Kysely's `sql` tag takes the strings of a template; each parameter becomes a bound value.
  const strings = Object.assign([...fragments], { raw: [...fragments] }) as unknown as TemplateStringsArray;
  return kysely.sql<SqlBool>(strings, ...parameters);
}
