/**
 * The rows of the list operations as SQL: one SELECT per operation whose columns are exactly the
 * record's fields (plus a hidden `_key`, unique per row, for the tie-break), so that the filter
 * lowered by `toSql` applies to the rows the caller sees. Column lists come from the catalogue.
 *
 * @module
 * @internal
 */
import { operations } from '../../../catalogue/operations.js';
import type { Clock, GroupedOperation } from '../store.js';
import type { Target } from '../../target.js';
import { ident, join, raw, sql, type Fragment } from './fragment.js';
import { scopeCondition } from './scope-sql.js';

/** Expressions per field; fields not listed read the same-named column of `l` (links). */
type Expressions = (clock: Clock) => Readonly<Record<string, Fragment>>;

interface GroupedSpec {
  readonly key: Fragment;
  readonly expressions: Expressions;
  readonly from: Fragment;
  readonly groupBy: Fragment | null;
}

const firstLast = { first_seen_at: raw('min(l.first_seen_at)'), last_seen_at: raw('max(l.last_seen_at)') };
const domainJoin = raw('links l LEFT JOIN domains d ON d.domain = l.source_domain');

const SPECS: Readonly<Record<GroupedOperation, GroupedSpec>> = {
  links: {
    key: raw('l.id'),
    expressions: (clock) => ({ is_new: sql`(l.first_seen_at >= ${clock.newSince})` }),
    from: raw('links l'),
    groupBy: null,
  },
  'ref-domains': {
    key: raw('l.source_domain'),
    expressions: (clock) => ({
      domain: raw('l.source_domain'),
      ip_address: raw(`coalesce(min(d.ip_address), '')`),
      country: raw(`coalesce(min(d.country), '')`),
      backlinks_count: raw('count(*)'),
      domain_score: raw('coalesce(min(d.domain_score), 0)'),
      ...firstLast,
      is_follow: raw('max(l.is_nofollow = 0)'),
      is_new: sql`(min(l.first_seen_at) >= ${clock.newSince})`,
      is_lost: raw('min(l.is_lost)'),
    }),
    from: domainJoin,
    groupBy: raw('l.source_domain'),
  },
  'ref-ips': {
    key: raw('l.ip_address'),
    expressions: () => ({
      ip_address: raw('l.ip_address'),
      country: raw(`coalesce(min(d.country), '')`),
      backlinks_count: raw('count(*)'),
      domains_count: raw('count(DISTINCT l.source_domain)'),
      ...firstLast,
    }),
    from: domainJoin,
    groupBy: raw('l.ip_address'),
  },
  pages: {
    key: raw('l.target_host || l.target_path'),
    expressions: () => ({
      source_url: raw('coalesce(min(p.url), min(l.target_url))'),
      source_title: raw(`coalesce(min(p.title), '')`),
      response_code: raw('coalesce(min(p.response_code), 200)'),
      backlinks_count: raw('count(*)'),
      domains_count: raw('count(DISTINCT l.source_domain)'),
      external_links_count: raw('coalesce(min(p.external_links_count), 0)'),
      internal_links_count: raw('coalesce(min(p.internal_links_count), 0)'),
      ...firstLast,
    }),
    from: raw('links l LEFT JOIN target_pages p ON p.host = l.target_host AND p.path = l.target_path'),
    groupBy: raw('l.target_host, l.target_path'),
  },
  anchors: {
    key: raw('l.anchor'),
    expressions: () => ({
      anchor: raw('l.anchor'),
      backlinks_count: raw('count(*)'),
      domains_count: raw('count(DISTINCT l.source_domain)'),
      ...firstLast,
    }),
    from: raw('links l'),
    groupBy: raw('l.anchor'),
  },
};

/**
 * The SELECT producing an operation's rows for one target, columns named as the record's fields.
 *
 * @example
 * ```ts
 * groupedRows('anchors', target, clock); // SELECT l.anchor AS _key, l.anchor AS "anchor", count(*) AS ...
 * ```
 */
export function groupedRows(operation: GroupedOperation, target: Target, clock: Clock): Fragment {
  const spec = SPECS[operation];
  const expressions = spec.expressions(clock);
  const columns = Object.keys(operations[operation].record).map((field) => {
    const expression = expressions[field] ?? raw(`l.${field}`);
    return sql`${expression} AS ${ident(field)}`;
  });
  const select = join([sql`${spec.key} AS _key`, ...columns], ', ');
  const groupBy = spec.groupBy ? sql` GROUP BY ${spec.groupBy}` : raw('');
  return sql`SELECT ${select} FROM ${spec.from} WHERE ${scopeCondition(target)}${groupBy}`;
}
