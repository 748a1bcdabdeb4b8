/**
 * The query plans of every default call (default order, no filter) of every list operation, on
 * SQLite (`EXPLAIN QUERY PLAN`) and PostgreSQL (`EXPLAIN`), read for the statements the store
 * actually runs: the server answers each call over its own routes while the store's connection
 * records what it is asked to run, and each recorded statement is explained, with its parameters,
 * on the same database. docs/design-store.md promises that a default call "reads the first `limit`
 * entries of one index range": each list table has an index in its operation's default order, tie
 * break included. An index whose tie-break runs the other way gives the same answers, but every
 * page then sorts the whole range; only a plan shows it.
 *
 * The data: the sample generator's links (5,000 over its 50 targets) and, in the same load,
 * wide.com, a target whose every list is long (6,000 links to www.wide.com from 2,000 referring
 * domains and 1,300 IPs, on 1,202 pages, under 1,100 anchors; a third of them to its home page,
 * whose lists are long too). The stores gather their own statistics after a load (SQLite
 * `PRAGMA optimize`, PostgreSQL `VACUUM (ANALYZE)` and `ANALYZE`); nothing is tuned here (no
 * `enable_seqscan`), so the planner's choice is the one a server makes.
 *
 * What fails, for the targets with a rollup key (ROOT_DOMAIN, SUBDOMAIN, PAGE; a folder below the
 * host is grouped from its links per call, a sort there is the work itself):
 *
 * - SQLite: a temporary B-tree for ORDER BY; a SCAN of a table (whole, or a whole index). SQLite
 *   plans by rules without regard to a range's length, so this holds for every default call.
 * - PostgreSQL: a Seq Scan under a Sort (a whole table sorted) or in a statement that reads a list
 *   in order; a Sort or Incremental Sort in a call whose list holds at least 1,000 rows (ten
 *   default pages; each of links, ref-domains, ref-ips, pages and anchors has such a call).
 *   PostgreSQL plans by cost: it sorts a short range when that is cheaper than reading it in index
 *   order, and it is right to (up to a couple of hundred rows in these tables: a target's months
 *   for summary, its 101 score buckets for score-profile, the sample's pages lists of at most 160),
 *   and it counts a range that is a good share of a small table by reading the table (wide.com
 *   holds a fifth of r_pages here, and over half of the links; a real target holds a sliver of
 *   them). SQLite's plans show that an index range serves those counts.
 * - Both: the page of links, ref-domains, ref-ips, pages and anchors is read through the index of
 *   its default order (links_by_domain / _host / _page, r_ref_domains_order, r_ref_ips_order,
 *   r_pages_order, r_anchors_order).
 *
 * competitors and matrix sort what each call computes (similarity, matches_count: no index can
 * hold them), so for those only the scans are checked: no table read whole but r_targets (one row
 * per target, which PostgreSQL may hash whole to join the overlap counts).
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadServerDeps } from '../../../src/server/deps.js';
import { seedSample } from '../../../src/server/sample/generate.js';
import { createServer } from '../../../src/server/server.js';
import type { DomainInput, LinkInput } from '../../../src/server/store/inputs.js';
import type { SqlConnection } from '../../../src/server/store/connection.js';
import type { Fragment } from '../../../src/server/store/fragment.js';
import type { Store } from '../../../src/server/store/store.js';
import { openSqliteStore } from '../../../src/server/store/engines/sqlite/sqlite-store.js';
import { KEYS, NOW } from '../support/fixture.js';
import { AUTH, BASE } from '../support/helpers.js';
import { freshPostgresDatabase } from '../support/postgres-database.js';

// ---- the data

// Counts prime to 3, so the home page's third of the links meets every referring domain, IP and anchor.
const WIDE = { links: 6_000, domains: 2_000, ips: 1_300, pages: 1_201, anchors: 1_100 };

/** Link i of wide.com: every third to the home page, the others over 1,201 more pages; domains, IPs and anchors in turn. */
function wideLink(i: number): LinkInput {
  const domain = `ref${i % WIDE.domains}.net`;
  const ip = i % WIDE.ips;
  const month = i % 36; // 2023-07 .. 2026-06
  const first = `${2023 + Math.floor((6 + month) / 12)}-${String(((6 + month) % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}T00:00:00`;
  return {
    source_url: `https://${domain}/post-${Math.floor(i / WIDE.domains)}`, target_url: `https://www.wide.com${i % 3 === 0 ? '/' : `/p/${i % WIDE.pages}`}`,
    anchor: `anchor ${i % WIDE.anchors}`, redirect_url: '', source_title: `Post ${i}`, target_title: '', image_url: '', image_alt: '',
    ip_address: `10.${Math.floor(ip / 250)}.${ip % 250}.1`, lang: 'en', source_size: 1_000 + (i % 500), external_links_count: i % 40,
    internal_links_count: i % 60, response_code: 200, page_score: i % 97, domain_score: (i * 7) % 101, first_seen_at: first,
    last_seen_at: '2026-06-01T00:00:00', source_domain: domain, is_nofollow: i % 5 === 0, is_ugc: false, is_sponsored: i % 17 === 0,
    is_form: false, is_frame: false, is_image: false, is_sitewide_main: false, is_lost: i % 11 === 0,
  };
}
const wideDomains = (): DomainInput[] =>
  Array.from({ length: WIDE.domains }, (_, d) => ({ domain: `ref${d}.net`, ip_address: `10.9.${d % 250}.${Math.floor(d / 250)}`, country: 'US', domain_score: d % 101 }));

/** The sample (5,000 links) with wide.com's links written in the same load, so the statistics a load gathers see both. */
async function load(store: Store): Promise<string> {
  const { tldts } = await loadServerDeps();
  const withWide: Store = {
    ...store,
    writer: async () => {
      const writer = await store.writer();
      return {
        ...writer,
        finish: async (options) => {
          await writer.domains(wideDomains());
          for (let i = 0; i < WIDE.links; i += 2_000) await writer.links(Array.from({ length: 2_000 }, (_, j) => wideLink(i + j)));
          return writer.finish(options);
        },
      };
    },
  };
  return (await seedSample(withWide, tldts, { links: 5_000, seed: 5, now: NOW })).topTarget;
}

// ---- the calls and their statements

/** Every list operation's default calls: only the target (no order, direction, limit or filter). */
function defaultCalls(top: string): { label: string; operation: string; query: Record<string, string> }[] {
  const calls: { label: string; operation: string; query: Record<string, string> }[] = [];
  const targets: [string, string][] = [['wide.com', 'ROOT_DOMAIN'], ['www.wide.com', 'SUBDOMAIN'], ['www.wide.com/', 'PAGE'], [top, 'ROOT_DOMAIN'], [`www.${top}`, 'SUBDOMAIN'], [`${top}/`, 'PAGE']];
  for (const operation of ['links', 'ref-domains', 'ref-ips', 'pages', 'anchors', 'summary', 'score-profile']) {
    for (const [url, scope] of targets) calls.push({ label: `${operation} ${scope} ${url}`, operation, query: { url, scope } });
  }
  for (const domain of ['wide.com', top]) calls.push({ label: `competitors ${domain}`, operation: 'competitors', query: { domain } });
  for (const scope of ['ROOT_DOMAIN', 'SUBDOMAIN']) {
    const urls = scope === 'ROOT_DOMAIN' ? `wide.com,${top}` : `www.wide.com,www.${top}`;
    calls.push({ label: `comparison ${scope} ${urls}`, operation: 'comparison', query: { urls, scope } });
    calls.push({ label: `matrix ${scope} ${urls}`, operation: 'matrix', query: { urls, scope } });
  }
  return calls;
}

/** The index each grouped list's page must be read through, by operation and scope. */
const ORDER_INDEX: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  links: { ROOT_DOMAIN: 'links_by_domain', SUBDOMAIN: 'links_by_host', PAGE: 'links_by_page' },
  'ref-domains': { ROOT_DOMAIN: 'r_ref_domains_order', SUBDOMAIN: 'r_ref_domains_order', PAGE: 'r_ref_domains_order' },
  'ref-ips': { ROOT_DOMAIN: 'r_ref_ips_order', SUBDOMAIN: 'r_ref_ips_order', PAGE: 'r_ref_ips_order' },
  pages: { ROOT_DOMAIN: 'r_pages_order', SUBDOMAIN: 'r_pages_order', PAGE: 'r_pages_order' },
  anchors: { ROOT_DOMAIN: 'r_anchors_order', SUBDOMAIN: 'r_anchors_order', PAGE: 'r_anchors_order' },
};
const COMPUTED_ORDER = new Set(['competitors', 'matrix']);

interface Explained {
  readonly sql: string;
  readonly plan: string[];
}
interface CallPlans {
  readonly label: string;
  readonly operation: string;
  readonly scope: string;
  readonly total: number;
  readonly statements: Explained[];
}

/**
 * Records the statements the store runs on `connection` during each default call (the live
 * connection object the store holds: its `all` is wrapped, nothing else changes) and explains each.
 */
async function planCalls(store: Store, connection: SqlConnection, explain: (query: Fragment) => Promise<string[]>, top: string): Promise<CallPlans[]> {
  const all = connection.all.bind(connection);
  let recording: Fragment[] | undefined;
  (connection as { all: SqlConnection['all'] }).all = (query) => (recording?.push(query), all(query));
  // The store stays open when the server closes: the caller closes it.
  const app: FastifyInstance = await createServer({ store, keys: KEYS, now: () => NOW, rateLimits: { perSecond: 1_000_000, concurrent: 1_000_000 }, closeStore: false });
  const out: CallPlans[] = [];
  try {
    for (const call of defaultCalls(top)) {
      recording = [];
      const response = await app.inject({ method: 'GET', url: `${BASE}/${call.operation}`, query: call.query, headers: AUTH });
      const statements = recording;
      recording = undefined;
      expect(response.statusCode, `${call.label}: ${response.body}`).toBe(200);
      const total = Number((response.json() as { meta: { total?: number } }).meta.total ?? 0);
      const explained: Explained[] = [];
      // The key's balance, read once per key for the admission check, is no part of the list.
      for (const query of statements.filter((q) => !/FROM api_keys\b/.test(q.sql))) explained.push({ sql: query.sql, plan: await explain(query) });
      expect(explained.length, `${call.label}: no statement recorded`).toBeGreaterThan(0);
      out.push({ label: call.label, operation: call.operation, scope: call.query['scope'] ?? 'ROOT_DOMAIN', total, statements: explained });
    }
  } finally {
    await app.close();
    (connection as { all: SqlConnection['all'] }).all = all;
  }
  return out;
}

const show = (call: CallPlans) => call.statements.map((s) => `${s.sql.replace(/\s+/g, ' ').slice(0, 300)}\n  ${s.plan.join('\n  ')}`).join('\n');

/** Tables and their aliases named in a statement (`FROM links l`, `JOIN r_ref_domains r`). */
function tableNames(text: string, tables: ReadonlySet<string>): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(/\b(?:FROM|JOIN)\s+([a-z_]+)(?:\s+(?:AS\s+)?([a-z_]+))?/gi)) {
    if (!tables.has(match[1]!)) continue;
    names.add(match[1]!);
    if (match[2] && !/^(WHERE|ON|JOIN|LEFT|INNER|GROUP|ORDER|LIMIT|USING)$/i.test(match[2])) names.add(match[2]);
  }
  return names;
}

// ---- SQLite

describe('query plans of the default calls: SQLite', () => {
  let plans: CallPlans[];
  /** The lines of a plan that scan a table of the statement (whole, or a whole index of it). */
  let scans: (statement: Explained) => string[];
  beforeAll(async () => {
    const store = await openSqliteStore();
    try {
      const top = await load(store);
      const { connection } = store;
      plans = await planCalls(store, connection, async (query) =>
        (await connection.all<{ detail: string }>({ sql: `EXPLAIN QUERY PLAN ${query.sql}`, params: query.params })).map((row) => row.detail), top);
      const tables = new Set((await connection.all<{ name: string }>({ sql: "SELECT name FROM sqlite_master WHERE type = 'table'", params: [] })).map((row) => row.name));
      scans = (statement) => {
        const names = tableNames(statement.sql, tables);
        return statement.plan.filter((line) => {
          const scanned = /^SCAN (\S+)/.exec(line)?.[1];
          return scanned !== undefined && names.has(scanned);
        });
      };
    } finally {
      await store.close();
    }
  }, 300_000);

  it('no default call sorts (competitors and matrix aside) or scans a table', () => {
    const faults: string[] = [];
    for (const call of plans) {
      for (const statement of call.statements) {
        const sorts = statement.plan.filter((line) => /USE TEMP B-TREE FOR .*ORDER BY/.test(line));
        if (sorts.length > 0 && !COMPUTED_ORDER.has(call.operation)) faults.push(`${call.label} sorts: ${sorts.join('; ')}\n${show(call)}`);
        const scanned = scans(statement);
        if (scanned.length > 0) faults.push(`${call.label} scans: ${scanned.join('; ')}\n${show(call)}`);
      }
    }
    expect(faults).toEqual([]);
  });

  it("each list's page is read through the index of its default order", () => {
    const faults: string[] = [];
    for (const call of plans.filter((c) => ORDER_INDEX[c.operation])) {
      const index = ORDER_INDEX[call.operation]![call.scope]!;
      if (!call.statements.some((s) => s.plan.some((line) => new RegExp(`^SEARCH \\S+ USING (COVERING )?INDEX ${index} \\(`).test(line)))) faults.push(`${call.label}: not through ${index}\n${show(call)}`);
    }
    expect(faults).toEqual([]);
  });
});

// ---- PostgreSQL

/** A list this long is read in index order by every plan PostgreSQL would choose: ten default pages. */
const LONG_LIST = 1_000;
/** A sort node of an `EXPLAIN` plan (not its `Sort Key:` or `Presorted Key:` lines). */
const SORT_NODE = /^\s*(->\s+)?(Incremental )?Sort\b(?! Key)/;

/** The Seq Scans of a plan with a Sort above them: a whole table read and sorted. */
function seqScansUnderSort(plan: readonly string[]): string[] {
  const found: string[] = [];
  const open: { indent: number; sort: boolean }[] = [];
  for (const line of plan) {
    const node = /^(\s*)(?:->\s+)?(.*)$/.exec(line)!;
    if (!/^\s*->/.test(line) && open.length > 0 && !SORT_NODE.test(line) && !/^\S/.test(line)) continue; // a detail line (Filter:, Index Cond:, ...)
    const indent = node[1]!.length;
    while (open.length > 0 && open[open.length - 1]!.indent >= indent) open.pop();
    if (/^Seq Scan on /.test(node[2]!) && open.some((n) => n.sort)) found.push(node[2]!.trim());
    open.push({ indent, sort: SORT_NODE.test(line) });
  }
  return found;
}

describe('query plans of the default calls: PostgreSQL', () => {
  let plans: CallPlans[];
  beforeAll(async () => {
    const { openPostgresStore } = await import('../../../src/server/store/engines/postgres/postgres-store.js');
    const { tldts } = await loadServerDeps();
    const store = await openPostgresStore({ url: await freshPostgresDatabase(inject('postgresUrl'), 'plans'), parser: tldts });
    try {
      const top = await load(store);
      const { connection } = store;
      plans = await planCalls(store, connection, async (query) =>
        (await connection.all<{ 'QUERY PLAN': string }>({ sql: `EXPLAIN (COSTS OFF) ${query.sql}`, params: query.params })).map((row) => row['QUERY PLAN']), top);
    } finally {
      await store.close();
    }
  }, 300_000);

  it('every list operation has a default call of at least 1,000 rows (so the rule below is not empty)', () => {
    const long = new Set(plans.filter((c) => c.total >= LONG_LIST).map((c) => c.operation));
    expect([...Object.keys(ORDER_INDEX)].filter((operation) => !long.has(operation))).toEqual([]);
  });

  it('no default call reads a list in order from a Seq Scan, sorts a list of 1,000 rows or more, or sorts what a Seq Scan read', () => {
    const faults: string[] = [];
    for (const call of plans.filter((c) => !COMPUTED_ORDER.has(c.operation))) {
      for (const statement of call.statements) {
        const seq = statement.plan.filter((line) => /Seq Scan on /.test(line));
        if (seq.length > 0 && /\bORDER BY\b/.test(statement.sql)) faults.push(`${call.label} reads its list from: ${seq.map((l) => l.trim()).join('; ')}\n${show(call)}`);
        const sorts = statement.plan.filter((line) => SORT_NODE.test(line));
        if (sorts.length > 0 && call.total >= LONG_LIST) faults.push(`${call.label} (${call.total} rows) sorts\n${show(call)}`);
        const full = seqScansUnderSort(statement.plan);
        if (full.length > 0) faults.push(`${call.label} sorts a whole table: ${full.join('; ')}\n${show(call)}`);
      }
    }
    expect(faults).toEqual([]);
  });

  it('competitors and matrix read the referring domains by key: no Seq Scan of links or a list rollup', () => {
    const faults: string[] = [];
    for (const call of plans.filter((c) => COMPUTED_ORDER.has(c.operation))) {
      for (const statement of call.statements) {
        const seq = statement.plan.filter((line) => /Seq Scan on (links|r_ref_domains|r_ref_ips|r_pages|r_anchors)\b/.test(line));
        if (seq.length > 0) faults.push(`${call.label} scans: ${seq.map((l) => l.trim()).join('; ')}\n${show(call)}`);
      }
    }
    expect(faults).toEqual([]);
  });

  it("each long list's page is read through the index of its default order", () => {
    const faults: string[] = [];
    for (const call of plans.filter((c) => ORDER_INDEX[c.operation] && c.total >= LONG_LIST)) {
      const index = ORDER_INDEX[call.operation]![call.scope]!;
      if (!call.statements.some((s) => s.plan.some((line) => line.includes(`Index Scan using ${index} on`) || line.includes(`Index Only Scan using ${index} on`)))) {
        faults.push(`${call.label}: not through ${index}\n${show(call)}`);
      }
    }
    expect(faults).toEqual([]);
  });
});
