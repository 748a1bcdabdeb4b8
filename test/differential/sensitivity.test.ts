/**
 * The differential check can fail. Two wrong lowerings must be caught, each with a report naming
 * the filter and the rows:
 *
 * - a naive one (the engine's own `=`, `<` and `LIKE`, no collation, no escaping), on every engine
 *   with a linguistic default collation, and on SQLite, MariaDB and ClickHouse with their
 *   out-of-the-box one (SQLite's LIKE ignores ASCII case and `_` is a wildcard; MariaDB's
 *   utf8mb4_general_ci ignores case and trailing spaces; ClickHouse's LIKE takes `_` as a wildcard
 *   and `\` as its escape);
 * - the real dialect with its collation clause taken out (`COLLATE "C"`, `COLLATE BINARY`,
 *   `COLLATE "binary"`, `CAST(? AS BINARY)`), on every engine with a linguistic collation: the
 *   mutant a test cluster created with `--locale=C.UTF-8` cannot see. ClickHouse has no
 *   collation (LINGUISTIC in test/helpers/engines.ts), so it has no such mutant.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { FilterNode } from '../../src/ast/nodes.js';
import { visit, type FilterVisitor } from '../../src/ast/visitor.js';
import type { FilterCompiler } from '../../src/sql/compiler.js';
import { DuckdbCompiler } from '../../src/sql/dialects/duckdb.js';
import { MysqlCompiler } from '../../src/sql/dialects/mysql.js';
import { PostgresCompiler } from '../../src/sql/dialects/postgres.js';
import { clickhouseLiteral } from '../../src/sql/dialects/clickhouse.js';
import { SqliteCompiler } from '../../src/sql/dialects/sqlite.js';
import { toSql, type Dialect } from '../../src/sql/index.js';
import { LINGUISTIC_ENGINES, openEngine, type Collation, type EngineName, type EngineSession } from '../helpers/engines.js';
import { ENGINE_TRAITS } from '../helpers/engines-tables.js';
import { caseArbitrary, checkCase, TablePool, type Lowering } from './harness.js';

/**
 * What a hurried implementation writes: the engine's defaults for everything. On an engine
 * without bound parameters (ClickHouse 18.16) its values are written in by the dialect's own
 * escaping function, so only the defaults are naive, not the quoting.
 */
function naiveLowering(engine: EngineName): Lowering {
  const { quote, placeholder, boundParameters } = ENGINE_TRAITS[engine];
  return (filter) => {
    const parameters: unknown[] = [];
    const bind = (value: unknown) => {
      if (!boundParameters) return clickhouseLiteral(value);
      parameters.push(typeof value === 'boolean' ? Number(value) : value);
      return placeholder(parameters.length);
    };
    const naive: FilterVisitor<string> = {
      Or: (node) => `(${node.operands.map((o) => visit(naive, o)).join(' OR ')})`,
      And: (node) => `(${node.operands.map((o) => visit(naive, o)).join(' AND ')})`,
      Comparison: (node) => `${quote(node.field.name)} ${node.operator} ${bind(node.value.value)}`,
      Like: (node) => `${quote(node.field.name)} ${node.negated ? 'NOT LIKE' : 'LIKE'} ${bind(node.pattern.value)}`,
    };
    return { sql: visit(naive, filter as FilterNode), parameters };
  };
}

// The shipped compilers with the collation clause removed, and nothing else changed.
class PostgresWithoutCollate extends PostgresCompiler {
  protected override compareText(left: string, operator: string, right: string): string {
    return `${left} ${operator} ${right}`;
  }
  protected override like(left: string, pattern: string, negated: boolean): string {
    return `${left} ${negated ? 'NOT LIKE' : 'LIKE'} ${pattern}`;
  }
}
class MysqlWithoutBinary extends MysqlCompiler {
  protected override compareText(left: string, operator: string, right: string): string {
    return `${left} ${operator} ${right}`;
  }
  protected override like(left: string, pattern: string, negated: boolean): string {
    return `${left} ${negated ? 'NOT LIKE' : 'LIKE'} ${pattern} ESCAPE '${this.likeEscape}'`;
  }
}
class SqliteWithoutBinary extends SqliteCompiler {
  protected override compareText(left: string, operator: string, right: string): string {
    return `${left} ${operator} ${right}`;
  }
}
class DuckdbWithoutBinary extends DuckdbCompiler {
  protected override compareText(left: string, operator: string, right: string): string {
    return `${left} ${operator} ${right}`;
  }
}
const WITHOUT_COLLATION: Readonly<Partial<Record<EngineName, () => FilterCompiler>>> = {
  sqlite: () => new SqliteWithoutBinary('sqlite'),
  postgres: () => new PostgresWithoutCollate('postgres'),
  mysql: () => new MysqlWithoutBinary('mysql'),
  duckdb: () => new DuckdbWithoutBinary('duckdb'),
};

function withoutCollation(engine: EngineName): Lowering {
  const createCompiler = WITHOUT_COLLATION[engine];
  if (!createCompiler) throw new Error(`${engine} has no collation clause to take out`);
  const dialect: Dialect = { name: engine, createCompiler };
  return (filter, options) => toSql(filter, { ...options, dialect });
}

const CASES: [EngineName, Collation, 'naive' | 'without its collation clause'][] = [
  ['sqlite', 'default', 'naive'],
  ['mysql', 'default', 'naive'],
  ['clickhouse', 'default', 'naive'],
  ...LINGUISTIC_ENGINES.flatMap((engine): [EngineName, Collation, 'naive' | 'without its collation clause'][] => [
    [engine, 'linguistic', 'naive'],
    [engine, 'linguistic', 'without its collation clause'],
  ]),
];

describe('the differential check catches a wrong lowering', () => {
  const sessions: EngineSession[] = [];
  afterAll(async () => {
    for (const session of sessions) await session.close();
  });

  it.each(CASES)('on %s, %s collation: the %s lowering', async (engine, collation, kind) => {
    const session = await openEngine(engine, collation);
    sessions.push(session);
    const tables = new TablePool(session, `bq_sense_${process.pid}_${collation}`);
    const lowering = kind === 'naive' ? naiveLowering(engine) : withoutCollation(engine);
    const property = fc.asyncProperty(caseArbitrary('anchors'), async (testCase) => {
      await checkCase(session, tables, 'anchors', 'columns', testCase, lowering);
    });
    // endOnFailure: the first failing case is the proof; shrinking it would only re-run cases (on
    // ClickHouse, where each reload is a TRUNCATE and an insert, for minutes).
    const failure = await fc.assert(property, { numRuns: 200, seed: 42, endOnFailure: true }).then(
      () => undefined,
      (error: unknown) => error as Error & { cause?: Error },
    );
    // fast-check reports the seed and the shrunk case; the cause is the harness's report: rows
    // that differ, or SQL the engine refused (the naive lowering binds numbers as they come;
    // PostgreSQL refuses LIKE on a nondeterministic collation unless the query names its own).
    expect(failure?.message).toMatch(/seed: 42/);
    // (`[^]+`: an unshrunk filter may hold a newline in a string literal.)
    expect(failure?.cause?.message).toMatch(/^\w+ (and the evaluator disagree on:|rejected the lowered SQL for) [^]+?\nsql: /);
    await tables.dropAll();
  });
});
