import { describe, expect, it } from 'vitest';
import type { FilterNode } from '../../../src/ast/nodes.js';
import { toSql, type DialectName, type SqlOptions } from '../../../src/sql/index.js';
import { parseFilter } from '../../../src/syntax/parse.js';

type Expected = Readonly<Record<DialectName, { sql: string; parameters: readonly unknown[] }>>;

/** One filter, the SQL and parameters of every dialect (Kysely's `testSql`). */
function testSql(filter: FilterNode, expected: Expected, options: Omit<SqlOptions, 'dialect'> = {}): void {
  for (const dialect of Object.keys(expected) as DialectName[]) {
    const compiled = toSql(filter, { ...options, dialect });
    expect({ dialect, sql: compiled.sql, parameters: compiled.parameters }).toEqual({ dialect, ...expected[dialect] });
    expect(Object.isFrozen(compiled)).toBe(true);
    expect(Object.isFrozen(compiled.parameters)).toBe(true);
  }
}

const links = (text: string): FilterNode => parseFilter(text, { operation: 'links' });
const matrix = (text: string): FilterNode => parseFilter(text, { operation: 'matrix', targets: 3 });

describe('toSql', () => {
  it('lowers a number comparison', () => {
    testSql(links('domain_score > 50'), {
      sqlite: { sql: '"domain_score" > ?', parameters: [50] },
      postgres: { sql: '"domain_score" > $1', parameters: [50] },
      mysql: { sql: '`domain_score` > ?', parameters: [50] },
      duckdb: { sql: '"domain_score" > $1', parameters: [50] },
      clickhouse: { sql: '"domain_score" > {p1:Int64}', parameters: [50] },
      'clickhouse-literals': { sql: '"domain_score" > 50', parameters: [] },
    });
  });

  it('rewrites an integer field against a decimal literal into an integer comparison', () => {
    testSql(links('domain_score > 50.5 AND page_score <= -0.5 AND response_code = 200.5 OR response_code != 1.5'), {
      sqlite: { sql: '(("domain_score" >= ? AND "page_score" <= ? AND (1 = 0)) OR (1 = 1))', parameters: [51, -1] },
      postgres: { sql: '(("domain_score" >= $1 AND "page_score" <= $2 AND (1 = 0)) OR (1 = 1))', parameters: [51, -1] },
      mysql: { sql: '((`domain_score` >= ? AND `page_score` <= ? AND (1 = 0)) OR (1 = 1))', parameters: [51, -1] },
      duckdb: { sql: '(("domain_score" >= $1 AND "page_score" <= $2 AND (1 = 0)) OR (1 = 1))', parameters: [51, -1] },
      clickhouse: { sql: '(("domain_score" >= {p1:Int64} AND "page_score" <= {p2:Int64} AND (1 = 0)) OR (1 = 1))', parameters: [51, -1] },
      'clickhouse-literals': { sql: '(("domain_score" >= 51 AND "page_score" <= (-1) AND (1 = 0)) OR (1 = 1))', parameters: [] },
    });
  });

  it('keeps a decimal literal for an expression of unknown type, cast where the engine needs it', () => {
    const options = { columns: { domain_score: { sql: 'score / 10.0' } } };
    testSql(
      links('domain_score > 5.5'),
      {
        sqlite: { sql: '(score / 10.0) > ?', parameters: [5.5] },
        postgres: { sql: '(score / 10.0) > CAST($1 AS double precision)', parameters: [5.5] },
        mysql: { sql: '(score / 10.0) > ?', parameters: [5.5] },
        duckdb: { sql: '(score / 10.0) > $1', parameters: [5.5] },
        clickhouse: { sql: '(score / 10.0) > {p1:Float64}', parameters: [5.5] },
        'clickhouse-literals': { sql: '(score / 10.0) > 5.5', parameters: [] },
      },
      options,
    );
  });

  it('compares text by code point, case-sensitively', () => {
    testSql(links("anchor >= 'Seo' AND first_seen_at < '2024-05'"), {
      sqlite: { sql: '("anchor" COLLATE BINARY >= ? AND "first_seen_at" COLLATE BINARY < ?)', parameters: ['Seo', '2024-05'] },
      postgres: { sql: '("anchor" COLLATE "C" >= $1 AND "first_seen_at" COLLATE "C" < $2)', parameters: ['Seo', '2024-05'] },
      mysql: { sql: '(`anchor` >= CAST(? AS BINARY) AND `first_seen_at` < CAST(? AS BINARY))', parameters: ['Seo', '2024-05'] },
      duckdb: { sql: '("anchor" COLLATE "binary" >= $1 AND "first_seen_at" COLLATE "binary" < $2)', parameters: ['Seo', '2024-05'] },
      clickhouse: { sql: '("anchor" >= {p1:String} AND "first_seen_at" < {p2:String})', parameters: ['Seo', '2024-05'] },
      'clickhouse-literals': { sql: `("anchor" >= 'Seo' AND "first_seen_at" < '2024-05')`, parameters: [] },
    });
  });

  it('lowers LIKE so that only % is a wildcard', () => {
    testSql(links("anchor LIKE '%50_off!*?[x]\\\\%' OR anchor NOT LIKE 'a%'"), {
      sqlite: { sql: '("anchor" GLOB ? OR "anchor" NOT GLOB ?)', parameters: ['*50_off![*][?][[]x]\\*', 'a*'] },
      postgres: { sql: '("anchor" COLLATE "C" LIKE $1 OR "anchor" COLLATE "C" NOT LIKE $2)', parameters: ['%50\\_off!*?[x]\\\\%', 'a%'] },
      mysql: {
        sql: "(`anchor` LIKE CAST(? AS BINARY) ESCAPE '!' OR `anchor` NOT LIKE CAST(? AS BINARY) ESCAPE '!')",
        parameters: ['%50!_off!!*?[x]\\%', 'a%'],
      },
      duckdb: { sql: `(contains("anchor", $1) OR NOT (starts_with("anchor", $2)))`, parameters: ['50_off!*?[x]\\', 'a'] },
      // The backslash is ClickHouse's one LIKE escape; written into a string literal, each is doubled again.
      clickhouse: { sql: '("anchor" LIKE {p1:String} OR "anchor" NOT LIKE {p2:String})', parameters: [String.raw`%50\_off!*?[x]\\%`, 'a%'] },
      'clickhouse-literals': { sql: String.raw`("anchor" LIKE '%50\\_off!*?[x]\\\\%' OR "anchor" NOT LIKE 'a%')`, parameters: [] },
    });
  });

  // DuckDB plans a statement before its values are bound, so a bound LIKE pattern runs the general
  // matcher; a pattern whose only % are at its ends is the string function that matches it.
  it('lowers a LIKE of a simple shape to a string function on DuckDB, and any other as LIKE', () => {
    const cases: readonly [string, string, readonly unknown[]][] = [
      ["anchor LIKE '%seo%'", 'contains("anchor", $1)', ['seo']],
      ["anchor LIKE 'seo%'", 'starts_with("anchor", $1)', ['seo']],
      ["anchor LIKE '%seo'", 'suffix("anchor", $1)', ['seo']],
      ["anchor LIKE 'seo'", '"anchor" COLLATE "binary" = $1', ['seo']],
      ["anchor LIKE ''", '"anchor" COLLATE "binary" = $1', ['']],
      ["anchor NOT LIKE '%s%'", 'NOT (contains("anchor", $1))', ['s']],
      ["anchor LIKE '%_%'", 'contains("anchor", $1)', ['_']],
      // A % inside, or no text between the %: the general matcher.
      ["anchor LIKE '%'", `"anchor" LIKE $1 ESCAPE '!'`, ['%']],
      ["anchor LIKE '%%'", `"anchor" LIKE $1 ESCAPE '!'`, ['%%']],
      ["anchor LIKE '%%%'", `"anchor" LIKE $1 ESCAPE '!'`, ['%%%']],
      ["anchor LIKE '%a%%'", `"anchor" LIKE $1 ESCAPE '!'`, ['%a%%']],
      ["anchor LIKE 'a%b'", `"anchor" LIKE $1 ESCAPE '!'`, ['a%b']],
      ["anchor NOT LIKE '%a%b%'", `"anchor" NOT LIKE $1 ESCAPE '!'`, ['%a%b%']],
    ];
    for (const [filter, sql, parameters] of cases) {
      const compiled = toSql(links(filter), { dialect: 'duckdb' });
      expect({ filter, sql: compiled.sql, parameters: compiled.parameters }).toEqual({ filter, sql, parameters });
    }
  });

  it('binds booleans as the engine stores them', () => {
    testSql(links('is_nofollow = true AND is_new != false'), {
      sqlite: { sql: '("is_nofollow" = ? AND "is_new" <> ?)', parameters: [1, 0] },
      postgres: { sql: '("is_nofollow" = $1 AND "is_new" <> $2)', parameters: [true, false] },
      mysql: { sql: '(`is_nofollow` = ? AND `is_new` <> ?)', parameters: [1, 0] },
      duckdb: { sql: '("is_nofollow" = $1 AND "is_new" <> $2)', parameters: [true, false] },
      clickhouse: { sql: '("is_nofollow" = {p1:Int64} AND "is_new" <> {p2:Int64})', parameters: [1, 0] },
      'clickhouse-literals': { sql: '("is_nofollow" = 1 AND "is_new" <> 0)', parameters: [] },
    });
  });

  it('parenthesizes OR inside AND and AND inside OR', () => {
    testSql(links("domain_score > 1 AND (anchor = 'a' OR anchor = 'b') OR domain_score < 0"), {
      sqlite: {
        sql: '(("domain_score" > ? AND ("anchor" COLLATE BINARY = ? OR "anchor" COLLATE BINARY = ?)) OR "domain_score" < ?)',
        parameters: [1, 'a', 'b', 0],
      },
      postgres: {
        sql: '(("domain_score" > $1 AND ("anchor" COLLATE "C" = $2 OR "anchor" COLLATE "C" = $3)) OR "domain_score" < $4)',
        parameters: [1, 'a', 'b', 0],
      },
      mysql: {
        sql: '((`domain_score` > ? AND (`anchor` = CAST(? AS BINARY) OR `anchor` = CAST(? AS BINARY))) OR `domain_score` < ?)',
        parameters: [1, 'a', 'b', 0],
      },
      duckdb: {
        sql: '(("domain_score" > $1 AND ("anchor" COLLATE "binary" = $2 OR "anchor" COLLATE "binary" = $3)) OR "domain_score" < $4)',
        parameters: [1, 'a', 'b', 0],
      },
      clickhouse: {
        sql: '(("domain_score" > {p1:Int64} AND ("anchor" = {p2:String} OR "anchor" = {p3:String})) OR "domain_score" < {p4:Int64})',
        parameters: [1, 'a', 'b', 0],
      },
      'clickhouse-literals': { sql: `(("domain_score" > 1 AND ("anchor" = 'a' OR "anchor" = 'b')) OR "domain_score" < 0)`, parameters: [] },
    });
  });

  it('reads backlinks_counts[n] from an array column at the dialect position', () => {
    testSql(matrix('backlinks_counts[1] > 0 AND backlinks_counts[3] = 7'), {
      sqlite: { sql: `(json_extract("backlinks_counts", '$[0]') > ? AND json_extract("backlinks_counts", '$[2]') = ?)`, parameters: [0, 7] },
      postgres: { sql: '(("backlinks_counts")[1] > $1 AND ("backlinks_counts")[3] = $2)', parameters: [0, 7] },
      mysql: {
        sql: "(CAST(JSON_EXTRACT(`backlinks_counts`, '$[0]') AS SIGNED) > ? AND CAST(JSON_EXTRACT(`backlinks_counts`, '$[2]') AS SIGNED) = ?)",
        parameters: [0, 7],
      },
      duckdb: { sql: '(("backlinks_counts")[1] > $1 AND ("backlinks_counts")[3] = $2)', parameters: [0, 7] },
      clickhouse: { sql: '(("backlinks_counts")[1] > {p1:Int64} AND ("backlinks_counts")[3] = {p2:Int64})', parameters: [0, 7] },
      'clickhouse-literals': { sql: '(("backlinks_counts")[1] > 0 AND ("backlinks_counts")[3] = 7)', parameters: [] },
    });
  });

  it('reads backlinks_counts[n] from one column per target', () => {
    const array = { kind: 'columns', column: (n: number) => `counts_${n}` } as const;
    testSql(
      matrix('backlinks_counts[2] >= 2.5'),
      {
        sqlite: { sql: '"counts_2" >= ?', parameters: [3] },
        postgres: { sql: '"counts_2" >= $1', parameters: [3] },
        mysql: { sql: '`counts_2` >= ?', parameters: [3] },
        duckdb: { sql: '"counts_2" >= $1', parameters: [3] },
        clickhouse: { sql: '"counts_2" >= {p1:Int64}', parameters: [3] },
        'clickhouse-literals': { sql: '"counts_2" >= 3', parameters: [] },
      },
      { array },
    );
  });

  it('maps fields to columns, qualified columns and trusted expressions', () => {
    const columns = {
      domain: 'host',
      domain_score: { table: 'm', column: 'score' },
      backlinks_counts: { table: 'm', column: 'counts' },
      country: { sql: 'upper(cc)' },
    };
    testSql(
      matrix("domain = 'x' AND domain_score > 1 AND backlinks_counts[2] < 3 AND country = 'DE'"),
      {
        sqlite: {
          sql: `("host" COLLATE BINARY = ? AND "m"."score" > ? AND json_extract("m"."counts", '$[1]') < ? AND (upper(cc)) COLLATE BINARY = ?)`,
          parameters: ['x', 1, 3, 'DE'],
        },
        postgres: {
          sql: '("host" COLLATE "C" = $1 AND "m"."score" > $2 AND ("m"."counts")[2] < $3 AND (upper(cc)) COLLATE "C" = $4)',
          parameters: ['x', 1, 3, 'DE'],
        },
        mysql: {
          sql: "(`host` = CAST(? AS BINARY) AND `m`.`score` > ? AND CAST(JSON_EXTRACT(`m`.`counts`, '$[1]') AS SIGNED) < ? AND (upper(cc)) = CAST(? AS BINARY))",
          parameters: ['x', 1, 3, 'DE'],
        },
        duckdb: {
          sql: '("host" COLLATE "binary" = $1 AND "m"."score" > $2 AND ("m"."counts")[2] < $3 AND (upper(cc)) COLLATE "binary" = $4)',
          parameters: ['x', 1, 3, 'DE'],
        },
        clickhouse: {
          sql: '("host" = {p1:String} AND "m"."score" > {p2:Int64} AND ("m"."counts")[2] < {p3:Int64} AND (upper(cc)) = {p4:String})',
          parameters: ['x', 1, 3, 'DE'],
        },
        'clickhouse-literals': { sql: `("host" = 'x' AND "m"."score" > 1 AND ("m"."counts")[2] < 3 AND (upper(cc)) = 'DE')`, parameters: [] },
      },
      { columns },
    );
  });

  it('takes an array column name from the storage option, keeping the mapped table', () => {
    const compiled = toSql(matrix('backlinks_counts[1] = 1'), {
      dialect: 'postgres',
      columns: { backlinks_counts: { table: 'm', column: 'ignored' } },
      array: { kind: 'array', column: 'per_target' },
    });
    expect(compiled.sql).toBe('("m"."per_target")[1] = $1');
  });

  it('uses the named operation to know which fields are integers', () => {
    // `similarity` is a double in the competitors record; without an operation the name is unknown.
    const filter = parseFilter('domain_score > 1.5', { operation: 'links' });
    expect(toSql(filter, { dialect: 'postgres', operation: 'ref-domains' }).parameters).toEqual([2]);
    expect(() => toSql(filter, { dialect: 'postgres', operation: 'nope' })).toThrow(/Unknown operation/);
  });

  it('numbers placeholders in the order they appear', () => {
    const { sql, parameters } = toSql(links("anchor = 'a' OR anchor = 'b' OR anchor = 'c'"), { dialect: 'postgres' });
    expect(sql.match(/\$\d+/g)).toEqual(['$1', '$2', '$3']);
    expect(parameters).toEqual(['a', 'b', 'c']);
  });

  it('rejects an unknown dialect name', () => {
    expect(() => toSql(links('domain_score > 1'), { dialect: 'oracle' as DialectName })).toThrow(/Unknown dialect/);
  });
});
