/**
 * The differential check: for a generated dataset and a batch of generated filters, the ids one
 * real engine returns for `toSql`'s WHERE clause must equal the ids the evaluator selects, and
 * the evaluator's two modes must agree with each other.
 *
 * @internal
 * @module
 */
import fc from 'fast-check';
import type { FilterNode } from '../../src/ast/nodes.js';
import { MAX_MATRIX_TARGETS, type FilterableOperation } from '../../src/catalogue/operations.js';
import { compilePredicate } from '../../src/evaluate/index.js';
import { printFilter } from '../../src/print/printer.js';
import { isUnsupportedError, toSql, type ArrayStorage, type DialectName } from '../../src/sql/index.js';
import { visit, type FilterVisitor } from '../../src/ast/visitor.js';
import { filterAstArbitrary } from '../../src/testing/filters.js';
import { datasetArbitrary, valuePools } from '../../src/testing/records.js';
import type { EngineSession } from '../helpers/engines.js';
import { countColumn, createRecordTable, emptyTable, insertRows, selectIds, type CountsStorage, type RecordTable } from '../helpers/engines-tables.js';
import { FILTERS_PER_DATASET } from './budget.js';
import { filterArbitrary, wellFormed } from './filter-arbitrary.js';

type Row = Readonly<Record<string, unknown>>;

/** One generated case: a dataset and the filters run over it. @internal */
export interface DifferentialCase {
  readonly rows: readonly Row[];
  readonly targets: number;
  readonly filters: readonly FilterNode[];
}

/**
 * The dialect each engine speaks. ClickHouse: the test server is Debian's 18.16, which has no
 * query parameters, so `clickhouse-literals` (every literal written into the SQL text by the
 * dialect's one escaping function, `parameters` empty); the injection suite proves that escaping
 * on the real engine. @internal
 */
export const DIALECT_OF: Readonly<Record<EngineSession['name'], DialectName>> = {
  sqlite: 'sqlite',
  postgres: 'postgres',
  mysql: 'mysql',
  duckdb: 'duckdb',
  clickhouse: 'clickhouse-literals',
};

/** Datasets of one operation with a batch of value-aware filters each. @internal */
export function caseArbitrary(operation: FilterableOperation): fc.Arbitrary<DifferentialCase> {
  const targets = operation === 'matrix' ? fc.integer({ min: 1, max: MAX_MATRIX_TARGETS }) : fc.constant(1);
  return targets.chain((n) =>
    datasetArbitrary(operation, { targets: n, minRows: 0, maxRows: 40 }).chain((rows) =>
      fc
        .array(filtersOver(operation, n, rows), {
          // A fixed batch keeps the case count exact; the report names the one filter that failed.
          minLength: FILTERS_PER_DATASET,
          maxLength: FILTERS_PER_DATASET,
        })
        .map((filters) => readable({ rows: rows as readonly Row[], targets: n, filters })),
    ),
  );
}

/**
 * Filters over a dataset from two generators, half each: the package's `filterAstArbitrary`
 * (broader default literals and tree shapes) and this suite's own (near misses of the dataset's
 * values: case flips, trailing spaces, cut characters, ±1 and ±0.5 around numbers, timestamp
 * neighbours). Both draw from the same value pools.
 *
 * @internal
 */
export function filtersOver(operation: FilterableOperation, targets: number, rows: readonly Row[]): fc.Arbitrary<FilterNode> {
  const pools = valuePools(rows);
  return fc.oneof(
    filterArbitrary(operation, { targets, pools }),
    filterAstArbitrary(operation, { targets, pools, maxDepth: 3, maxConditions: 8 }).filter(wellFormed),
  );
}

/** Makes fast-check print a case as filter text and rows instead of AST JSON. @internal */
function readable(testCase: DifferentialCase): DifferentialCase {
  return Object.defineProperty(testCase, fc.toStringMethod, {
    value: () =>
      [`targets: ${testCase.targets}`, 'filters:', ...testCase.filters.map((f) => `  ${printFilter(f)}`), 'rows:', ...testCase.rows.map((r, i) => `  #${i + 1} ${show(r)}`)].join('\n'),
  });
}

/** The storage option `toSql` gets for a table. @internal */
export function arrayStorageOf(storage: CountsStorage): ArrayStorage {
  return storage === 'array' ? { kind: 'array', column: 'backlinks_counts' } : { kind: 'columns', column: countColumn };
}

/** The ids the evaluator selects, after checking its code and closure modes agree. @internal */
export function evaluatorIds(filter: FilterNode, rows: readonly Row[]): number[] {
  const code = compilePredicate(filter, { mode: 'code' });
  const closure = compilePredicate(filter, { mode: 'closure' });
  const ids: number[] = [];
  rows.forEach((row, i) => {
    const a = code(row);
    const b = closure(row);
    if (a !== b) throw new Error(`evaluator modes disagree on row ${i + 1} (code ${a}, closure ${b}) for ${printFilter(filter)}\nrow: ${show(row)}`);
    if (a) ids.push(i + 1);
  });
  return ids;
}

/** JSON with the characters that matter made visible. @internal */
export function show(value: unknown): string {
  return JSON.stringify(value, null, 0).replace(/[^\x20-\x7e]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

/** A lowering under test: `toSql` itself, or a deliberately wrong one in the sensitivity test. @internal */
export type Lowering = (filter: FilterNode, options: { dialect: DialectName; array: ArrayStorage; operation: string }) => {
  readonly sql: string;
  readonly parameters: readonly unknown[];
};

/** Holds one table per record shape on a session, emptied and refilled for each case. @internal */
export class TablePool {
  readonly #created = new Set<string>();
  constructor(
    private readonly session: EngineSession,
    private readonly prefix: string,
  ) {}

  /** A table for the case's shape, holding exactly its rows. */
  async load(operation: FilterableOperation, storage: CountsStorage, testCase: DifferentialCase): Promise<RecordTable> {
    const targets = operation === 'matrix' ? testCase.targets : 1;
    const name = `${this.prefix}_${operation.replace('-', '_')}_${storage}_${targets}`;
    const table: RecordTable = { name, operation, targets, storage, columns: {} };
    if (!this.#created.has(name)) {
      await createRecordTable(this.session, table);
      this.#created.add(name);
    } else {
      await emptyTable(this.session, name); // DELETE, or TRUNCATE TABLE on ClickHouse (ENGINE_TRAITS)
    }
    await insertRows(this.session, table, testCase.rows);
    return table;
  }

  async dropAll(): Promise<void> {
    for (const name of this.#created) await this.session.exec(`DROP TABLE IF EXISTS ${name}`);
    this.#created.clear();
  }
}

/**
 * Whether docs/sql.md says the dialect refuses this filter: a LIKE pattern with U+0000 (SQLite,
 * PostgreSQL) or with U+FFFD to U+FFFF (SQLite's GLOB cannot tell them apart), or any string with
 * U+0000 on PostgreSQL, or a lone surrogate anywhere.
 *
 * @internal
 */
export function documentedRefusal(dialect: DialectName, filter: FilterNode): boolean {
  const texts: { value: string; like: boolean }[] = [];
  const strings: FilterVisitor<void> = {
    Or: (n) => n.operands.forEach((o) => visit(strings, o)),
    And: (n) => n.operands.forEach((o) => visit(strings, o)),
    Comparison: (n) => void (n.value.kind === 'String' && texts.push({ value: n.value.value, like: false })),
    Like: (n) => void texts.push({ value: n.pattern.value, like: true }),
  };
  visit(strings, filter);
  return texts.some(({ value, like }) =>
    /\p{Cs}/u.test(value) ||
    (dialect === 'sqlite' ? like && /[\u0000\ufffd-\uffff]/.test(value) : dialect === 'postgres' && value.includes('\u0000')),
  );
}

/**
 * Runs every filter of a case on the engine and throws a readable report on the first mismatch.
 * Returns how many filters ran on the engine and how many the dialect refused as documented.
 *
 * @internal
 */
export async function checkCase(
  session: EngineSession,
  tables: TablePool,
  operation: FilterableOperation,
  storage: CountsStorage,
  testCase: DifferentialCase,
  lower: Lowering = toSql,
): Promise<{ ran: number; refused: number }> {
  const table = await tables.load(operation, storage, testCase);
  let refused = 0;
  for (const filter of testCase.filters) {
    const expected = evaluatorIds(filter, testCase.rows);
    let lowered: ReturnType<Lowering>;
    try {
      lowered = lower(filter, { dialect: DIALECT_OF[session.name], array: arrayStorageOf(storage), operation });
    } catch (error) {
      // A documented refusal is the right answer; any other refusal is a failure.
      if (isUnsupportedError(error) && documentedRefusal(DIALECT_OF[session.name], filter)) {
        refused++;
        continue;
      }
      throw error;
    }
    let actual: number[];
    try {
      actual = await selectIds(session, table.name, lowered);
    } catch (error) {
      throw new Error(`${session.name} rejected the lowered SQL for ${printFilter(filter)}\nsql: ${lowered.sql}\nparameters: ${show(lowered.parameters)}\n${String(error)}`);
    }
    if (show(actual) !== show(expected)) throw new Error(mismatchReport(session.name, filter, lowered, expected, actual, testCase.rows));
  }
  return { ran: testCase.filters.length - refused, refused };
}

function mismatchReport(
  engine: string,
  filter: FilterNode,
  lowered: { sql: string; parameters: readonly unknown[] },
  expected: number[],
  actual: number[],
  rows: readonly Row[],
): string {
  const only = (a: number[], b: number[]) => a.filter((id) => !b.includes(id));
  const rowsOf = (ids: number[]) => ids.map((id) => `  #${id} ${show(rows[id - 1])}`).join('\n');
  return [
    `${engine} and the evaluator disagree on: ${printFilter(filter)}`,
    `sql: ${lowered.sql}`,
    `parameters: ${show(lowered.parameters)}`,
    `selected by the evaluator only:\n${rowsOf(only(expected, actual)) || '  (none)'}`,
    `selected by ${engine} only:\n${rowsOf(only(actual, expected)) || '  (none)'}`,
  ].join('\n');
}
