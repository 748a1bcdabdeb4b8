import { ParameterError } from '../../../src/errors/filter-error.js';
import { describe, expect, it } from 'vitest';
import { comparison, field, like, numberLiteral, stringLiteral } from '../../../src/ast/factories.js';
import {
  dialects,
  FilterCompiler,
  isUnsupportedError,
  toSql,
  UnsupportedError,
  type Dialect,
  type DialectName,
} from '../../../src/sql/index.js';

const DIALECTS = Object.keys(dialects) as DialectName[];
const hostile = ['a"b', 'a`b', "a'b", 'x"; DROP TABLE t; --', 'x` OR 1=1 -- ', 'a\\', '/* c */', 'é😀', ' space '];

describe('identifier quoting', () => {
  it.each(hostile)('quotes %j with embedded quotes doubled (ClickHouse: quote and backslash escaped with a backslash)', (name) => {
    const filter = comparison(field('domain_score'), '=', numberLiteral(1));
    const quote = { sqlite: '"', postgres: '"', mysql: '`', duckdb: '"', clickhouse: '"', 'clickhouse-literals': '"' } as const;
    for (const dialect of DIALECTS) {
      const q = quote[dialect];
      const inner = dialect.startsWith('clickhouse') ? name.replaceAll('\\', '\\\\').replaceAll(q, `\\${q}`) : name.replaceAll(q, q + q);
      const expected = `${q}${inner}${q}`;
      const { sql } = toSql(filter, { dialect, columns: { domain_score: { table: name, column: name } } });
      expect(sql.startsWith(`${expected}.${expected} `)).toBe(true);
    }
  });

  it('never puts a literal into the SQL text (but clickhouse-literals, whose point that is)', () => {
    const literal = "x' OR '1'='1'; --";
    for (const dialect of DIALECTS.filter((name) => name !== 'clickhouse-literals')) {
      const compare = toSql(comparison(field('anchor'), '=', stringLiteral(literal)), { dialect });
      const matching = toSql(like(field('anchor'), stringLiteral(`%${literal}%`)), { dialect });
      expect(compare.sql).not.toContain('1=');
      expect(matching.sql).not.toContain('1=');
      expect(compare.parameters).toEqual([literal]);
    }
  });

  it('refuses empty names and NUL in identifiers and trusted SQL', () => {
    const filter = comparison(field('anchor'), '=', stringLiteral('a'));
    for (const dialect of DIALECTS) {
      expect(() => toSql(filter, { dialect, columns: { anchor: '' } })).toThrow(ParameterError);
      expect(() => toSql(filter, { dialect, columns: { anchor: 'a\u0000b' } })).toThrow(UnsupportedError);
      expect(() => toSql(filter, { dialect, columns: { anchor: { sql: 'x\u0000' } } })).toThrow(UnsupportedError);
    }
  });

  it('ignores inherited properties of the mapping object', () => {
    const { sql } = toSql(comparison(field('toString'), '=', stringLiteral('a')), { dialect: 'sqlite', columns: {} });
    expect(sql).toBe('"toString" COLLATE BINARY = ?');
  });
});

describe('UnsupportedError', () => {
  it.each([
    ['postgres', comparison(field('anchor'), '=', stringLiteral('a\u0000b'))],
    ['postgres', like(field('anchor'), stringLiteral('%\u0000%'))],
    ['sqlite', like(field('anchor'), stringLiteral('%\u0000%'))],
    ['sqlite', like(field('anchor'), stringLiteral('%\ufffd%'))],
    ['sqlite', like(field('anchor'), stringLiteral('a\ufffe'))],
    ['sqlite', like(field('anchor'), stringLiteral('\uffff%'))],
    ['postgres', comparison(field('anchor'), '=', stringLiteral('a\ud800'))],
    ['mysql', like(field('anchor'), stringLiteral('%\udc00'))],
    ['duckdb', comparison(field('anchor'), '<', stringLiteral('\ud83d'))],
    ['sqlite', comparison(field('anchor'), '>', stringLiteral('x\udfff'))],
  ] as const)('%s cannot express %j exactly', (dialect, filter) => {
    let caught: unknown;
    try {
      toSql(filter, { dialect });
    } catch (error) {
      caught = error;
    }
    expect(isUnsupportedError(caught)).toBe(true);
    expect(caught).toBeInstanceOf(UnsupportedError);
    expect((caught as UnsupportedError).code).toBe('unsupported');
    expect((caught as UnsupportedError).dialect).toBe(dialect);
  });

  it('lets an engine that stores NUL compare it', () => {
    expect(toSql(comparison(field('anchor'), '=', stringLiteral('a\u0000b')), { dialect: 'sqlite' }).parameters).toEqual(['a\u0000b']);
    expect(toSql(like(field('anchor'), stringLiteral('%\u0000%')), { dialect: 'mysql' }).parameters).toEqual(['%\u0000%']);
  });

  it('is recognised across realms by its brand, not its prototype', () => {
    const foreign = { [Symbol.for('backlink-query.UnsupportedError')]: true, message: 'x' };
    expect(isUnsupportedError(foreign)).toBe(true);
    expect(isUnsupportedError(new Error('x'))).toBe(false);
    expect(isUnsupportedError(null)).toBe(false);
  });
});

describe('custom dialects', () => {
  it('override only the hooks that differ', () => {
    class NamedParameters extends FilterCompiler {
      protected override placeholder(index: number): string {
        return `:p${index}`;
      }
    }
    const dialect: Dialect = { name: 'named', createCompiler: () => new NamedParameters('named') };
    const filter = comparison(field('domain_score'), '>', numberLiteral(3));
    expect(toSql(filter, { dialect })).toEqual({ sql: '"domain_score" > :p1', parameters: [3] });
  });
});
