/**
 * Floor B of the generated workload (issue 51) on the embedded store: each request's page read in
 * the bench process, on the files the server reads, with the least a store could do, hand-written
 * here (no code of the store):
 *
 * - links: the page's ids and the total from the column file (`FILE.duckdb`, read only) in one
 *   statement (`count(*) OVER ()` before the LIMIT; text orders by the `o_<field>` rank columns),
 *   then the page's rows by id from SQLite (`FILE`, read only), built into records in the page's
 *   order;
 * - ref-domains and anchors: the page's rows and the total in one statement on the column file's
 *   rollup table (`r_ref_domains`, `r_anchors`) at the target's key (`d:` domain, `h:` host,
 *   `p:` host and path); a SUBFOLDER below the host has no key, so the floor groups that folder's
 *   links of the column file itself (a referring domain's IP, country and score from its row at the
 *   registrable domain's key, which lists every domain linking to it);
 *
 * and the answer serialized as the server's is (`JSON.stringify`), all timed. The filter's WHERE is
 * the package's own `toSql(filter, { dialect: 'duckdb' })` on a relation whose columns are the
 * record's fields; the statement is built before the clock starts (as a hand-written one is written
 * before it runs). Every value is bound, none is in the SQL text.
 */
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import { performance } from 'node:perf_hooks';
import { operations } from '../../src/catalogue/operations.js';
import { backlinkRecord, type RecordSpec } from '../../src/catalogue/records.js';
import type { DomainParser } from '../../src/server/deps.js';
import { toTarget, type Target } from '../../src/server/target.js';
import { toSql } from '../../src/sql/to-sql.js';
import { parseFilter } from '../../src/syntax/parse.js';
import { LIMIT, type GeneratedOperation, type GeneratedRequest } from './generated.js';

/** One answer of the floor: the list's total and the page's records, and the time it took. */
export interface FloorAnswer {
  readonly total: number;
  readonly rows: readonly Record<string, unknown>[];
  readonly ms: number;
}

/** A request's statement on the column file, built once. */
interface Statement {
  readonly operation: GeneratedOperation;
  readonly sql: string;
  readonly params: DuckDBValue[];
  /** The count alone, for a page past the list's end (where no row carries the total). */
  readonly count: string;
  readonly countParams: DuckDBValue[];
}

/** The links' stored fields (the record's, without `is_new`, which depends on the clock), in the record's order. */
const LINK_FIELDS = Object.keys(backlinkRecord).filter((field) => field !== 'is_new');
const LINK_BOOLEANS = new Set(LINK_FIELDS.filter((field) => (backlinkRecord as RecordSpec)[field]!.type === 'boolean'));
/** Text fields of the links, which the column file sorts by their rank (`o_<field>`). */
const RANKED = new Set(Object.entries(backlinkRecord as RecordSpec).filter(([, spec]) => spec.type === 'string' || spec.type === 'timestamp').map(([field]) => field));

/** A DuckDB value as JSON has it (BIGINT arrives as bigint). */
const plain = (value: DuckDBValue): unknown => (typeof value === 'bigint' ? Number(value) : value);

/** Floor B on one embedded database file. */
export class FloorB {
  readonly #instance: DuckDBInstance;
  readonly #ducks: DuckDBConnection[];
  readonly #sqlites: Database.Database[];
  readonly #byId = new Map<Database.Database, Map<number, Database.Statement>>();
  readonly #statements = new Map<string, Statement>();
  readonly #parser: DomainParser;
  readonly #newSince: string;

  private constructor(instance: DuckDBInstance, ducks: DuckDBConnection[], sqlites: Database.Database[], parser: DomainParser, newSince: string) {
    this.#instance = instance;
    this.#ducks = ducks;
    this.#sqlites = sqlites;
    this.#parser = parser;
    this.#newSince = newSince;
  }

  /**
   * Opens `file` (SQLite, read only) and `file.duckdb` (DuckDB, READ_ONLY) with `connections`
   * connections each, one per concurrent loop. `newSince` is the server's clock's (`is_new`).
   */
  static async open(file: string, connections: number, parser: DomainParser, newSince: string): Promise<FloorB> {
    const instance = await DuckDBInstance.create(`${file}.duckdb`, { access_mode: 'READ_ONLY' });
    const ducks = await Promise.all(Array.from({ length: connections }, () => instance.connect()));
    const sqlites = Array.from({ length: connections }, () => new Database(file, { readonly: true }));
    return new FloorB(instance, ducks, sqlites, parser, newSince);
  }

  close(): void {
    for (const db of this.#sqlites) db.close();
    for (const connection of this.#ducks) connection.closeSync();
    this.#instance.closeSync();
  }

  /** The statement of a request's page at `offset` (built once per page, outside the timing). */
  statement(request: GeneratedRequest, offset: number): Statement {
    const key = `${request.id}@${offset}`;
    let statement = this.#statements.get(key);
    if (!statement) this.#statements.set(key, (statement = this.#build(request, offset)));
    return statement;
  }

  /** Floor B's answer to a request's page at `offset`, on the `at`-th connections; the statement is built first, untimed. */
  async answer(request: GeneratedRequest, offset: number, at: number): Promise<FloorAnswer> {
    const statement = this.statement(request, offset);
    const started = performance.now();
    const result = await this.#ducks[at]!.runAndReadAll(statement.sql, statement.params);
    const found = result.getRowObjects();
    const total =
      found.length > 0
        ? Number(found[0]!['_total'])
        : offset === 0
          ? 0
          : Number((await this.#ducks[at]!.runAndReadAll(statement.count, statement.countParams)).getRowObjects()[0]!['n']);
    let rows: Record<string, unknown>[];
    if (statement.operation === 'links') rows = this.#links(found.map((row) => Number(row['id'])), at);
    else {
      const fields = Object.keys(operations[statement.operation].record);
      rows = found.map((row) => Object.fromEntries(fields.map((field) => [field, plain(row[field]!)])));
    }
    // Serialized as an answer is, and timed with it.
    JSON.stringify({ meta: { request_id: 'floor', status_code: 200, success: true, total }, data: rows });
    return { total, rows, ms: performance.now() - started };
  }

  /** The links of `ids` from SQLite, as records, in the order of `ids`. */
  #links(ids: readonly number[], at: number): Record<string, unknown>[] {
    if (ids.length === 0) return [];
    const db = this.#sqlites[at]!;
    let statements = this.#byId.get(db);
    if (!statements) this.#byId.set(db, (statements = new Map()));
    let byId = statements.get(ids.length);
    if (!byId) statements.set(ids.length, (byId = db.prepare(`SELECT id, ${LINK_FIELDS.join(', ')} FROM links WHERE id IN (${ids.map(() => '?').join(', ')})`)));
    const position = new Map(ids.map((id, i) => [id, i]));
    const found = (byId.all(...ids) as Record<string, unknown>[]).sort((a, b) => position.get(a['id'] as number)! - position.get(b['id'] as number)!);
    return found.map((row) => {
      const record: Record<string, unknown> = {};
      for (const field of Object.keys(backlinkRecord)) {
        record[field] = field === 'is_new' ? (row['first_seen_at'] as string) >= this.#newSince : LINK_BOOLEANS.has(field) ? row[field] === 1 : row[field];
      }
      return record;
    });
  }

  #build(request: GeneratedRequest, offset: number): Statement {
    const { operation } = request;
    const target = toTarget(request.url, request.scope, this.#parser);
    if (!target) throw new Error(`The floor cannot read the target ${request.url} (${request.scope}).`);
    const compiled = toSql(parseFilter(request.filter, { operation }), { dialect: 'duckdb', operation });
    const params: DuckDBValue[] = [...(compiled.parameters as DuckDBValue[])];
    const bind = (value: DuckDBValue) => {
      params.push(value);
      return `$${params.length}`;
    };
    const direction = request.direction === 'ASC' ? 'ASC' : 'DESC';
    let sql: string;
    let relation: string;
    if (operation === 'links') {
      const sort = RANKED.has(request.orderBy) ? `o_${request.orderBy}` : request.orderBy;
      relation = `SELECT *, first_seen_at >= ${bind(this.#newSince)} AS is_new FROM links l WHERE l.target_domain = ${bind(target.domain)} AND ${scopeOf(target, bind)}`;
      sql = `SELECT id, count(*) OVER () AS _total FROM (${relation}) x WHERE ${compiled.sql} ORDER BY ${sort} ${direction}, id ASC`;
    } else {
      const key = rollupKey(target);
      relation = key === undefined ? grouped(operation, target, bind, this.#newSince) : rollup(operation, target.domain, key, bind, this.#newSince);
      const tieBreak = operation === 'ref-domains' ? 'domain' : 'anchor';
      sql = `SELECT *, count(*) OVER () AS _total FROM (${relation}) x WHERE ${compiled.sql} ORDER BY ${request.orderBy} ${direction}, ${tieBreak} ASC`;
    }
    const count = `SELECT count(*) AS n FROM (${relation}) x WHERE ${compiled.sql}`;
    const countParams = [...params];
    sql += ` LIMIT ${bind(BigInt(LIMIT))} OFFSET ${bind(BigInt(offset))}`;
    return { operation, sql, params, count, countParams };
  }
}

type Bind = (value: DuckDBValue) => string;

/** The scope's condition on the links aliased `l` (beside `l.target_domain = domain`): the host, the page, or the folder and what lies below it. */
function scopeOf(target: Target, bind: Bind): string {
  switch (target.scope) {
    case 'ROOT_DOMAIN':
      return 'true';
    case 'SUBDOMAIN':
      return `l.target_host = ${bind(target.host)}`;
    case 'PAGE':
      return `l.target_host = ${bind(target.host)} AND l.target_path = ${bind(target.path)}`;
    case 'SUBFOLDER': {
      const host = `l.target_host = ${bind(target.host)}`;
      if (target.folder === '') return host;
      // The folder itself, the paths below it (`folder/...`), and the folder with a query (`folder?...`).
      const f = target.folder;
      return `${host} AND (l.target_path = ${bind(f)} OR starts_with(l.target_path, ${bind(`${f}/`)}) OR starts_with(l.target_path, ${bind(`${f}?`)}))`;
    }
  }
}

/**
 * A target's key in the rollup tables, or `undefined` for a folder below its host: written here
 * apart from the store's (`reads/relations.ts`), so that a mistake there shows as a difference.
 */
function rollupKey(target: Target): string | undefined {
  switch (target.scope) {
    case 'ROOT_DOMAIN':
      return `d:${target.domain}`;
    case 'SUBDOMAIN':
      return `h:${target.host}`;
    case 'PAGE':
      return `p:${target.host}${target.path}`;
    case 'SUBFOLDER':
      return target.folder === '' ? `h:${target.host}` : undefined;
  }
}

/** The records of a rollup table at one key, columns named as the record's fields. */
function rollup(operation: Exclude<GeneratedOperation, 'links'>, domain: string, key: string, bind: Bind, newSince: string): string {
  const at = `WHERE tdomain = ${bind(domain)} AND tkey = ${bind(key)}`;
  if (operation === 'anchors') return `SELECT anchor, backlinks_count, domains_count, first_seen_at, last_seen_at FROM r_anchors ${at}`;
  return (
    'SELECT source_domain AS domain, ip_address, country, backlinks_count, domain_score, first_seen_at, last_seen_at, ' +
    `follow_links > 0 AS is_follow, first_seen_at >= ${bind(newSince)} AS is_new, lost_links = backlinks_count AS is_lost FROM r_ref_domains ${at}`
  );
}

/** The records grouped from a folder's links (no rollup key). */
function grouped(operation: Exclude<GeneratedOperation, 'links'>, target: Target, bind: Bind, newSince: string): string {
  const where = `l.target_domain = ${bind(target.domain)} AND ${scopeOf(target, bind)}`;
  if (operation === 'anchors') {
    return (
      'SELECT l.anchor AS anchor, count(*) AS backlinks_count, count(DISTINCT l.source_domain) AS domains_count, min(l.first_seen_at) AS first_seen_at, ' +
      `max(l.last_seen_at) AS last_seen_at FROM links l WHERE ${where} GROUP BY l.anchor`
    );
  }
  return (
    "SELECT l.source_domain AS domain, coalesce(min(r.ip_address), '') AS ip_address, coalesce(min(r.country), '') AS country, count(*) AS backlinks_count, " +
    'coalesce(min(r.domain_score), 0) AS domain_score, min(l.first_seen_at) AS first_seen_at, max(l.last_seen_at) AS last_seen_at, ' +
    `bool_or(NOT l.is_nofollow) AS is_follow, min(l.first_seen_at) >= ${bind(newSince)} AS is_new, bool_and(l.is_lost) AS is_lost ` +
    `FROM links l LEFT JOIN r_ref_domains r ON r.tdomain = l.target_domain AND r.tkey = ${bind(`d:${target.domain}`)} AND r.source_domain = l.source_domain ` +
    `WHERE ${where} GROUP BY l.source_domain`
  );
}
