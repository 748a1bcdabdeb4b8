/**
 * Tables of an operation's record on a real engine: created from the catalogue (never a hand-kept
 * column list), filled with bound values, and queried with a lowered filter.
 *
 * Column types follow what a server would use, with each engine's default collation left in place
 * on purpose (MariaDB: utf8mb4_general_ci, which ignores case and trailing spaces), so the
 * lowering has to make text comparison binary itself. A session opened with the `linguistic`
 * collation goes further (see `LINGUISTIC` in engines.ts); on SQLite and PostgreSQL that includes
 * the collation declared on text columns here.
 *
 * @internal
 * @module
 */
import { operations, type OperationName } from '../../src/catalogue/operations.js';
import type { FieldType } from '../../src/catalogue/records.js';
import type { Collation, EngineName, EngineSession } from './engines.js';

/** How `backlinks_counts` is stored: one array column, or one column per target. @internal */
export type CountsStorage = 'array' | 'columns';

/** The engine-specific pieces of DDL and binding; shared code reads this table only. @internal */
interface EngineTraits {
  readonly types: Readonly<Record<Exclude<FieldType, 'string[]'>, string>>;
  readonly quote: (identifier: string) => string;
  readonly placeholder: (n: number) => string;
  /** Turns a JS row value into what the driver binds for the column type. */
  readonly bind: (value: unknown) => unknown;
  /** Array storage the engine offers natively. */
  readonly arrays: readonly CountsStorage[];
  /**
   * What a text column's type gains on a `linguistic` session, beyond the database's default: on
   * SQLite (no database-wide default) `NOCASE` for every text column; on PostgreSQL a
   * nondeterministic case-insensitive ICU collation for string columns (timestamps keep the
   * database's ICU `en-US`), the one kind of collation under which LIKE needs its own.
   */
  readonly linguisticText?: Partial<Readonly<Record<'string' | 'timestamp', string>>>;
}

const doubleQuote = (identifier: string): string => `"${identifier.replaceAll('"', '""')}"`;
const backtick = (identifier: string): string => `\`${identifier.replaceAll('`', '``')}\``;
const asIs = (value: unknown): unknown => value;

/** Per-engine column types and binding. @internal */
export const ENGINE_TRAITS: Readonly<Record<EngineName, EngineTraits>> = {
  sqlite: {
    types: { string: 'TEXT', timestamp: 'TEXT', integer: 'INTEGER', number: 'REAL', boolean: 'INTEGER', 'integer[]': 'TEXT' },
    quote: doubleQuote,
    placeholder: () => '?',
    // SQLite has no boolean type (0/1) and no array type (JSON text, read with json_extract).
    bind: (value) => (typeof value === 'boolean' ? Number(value) : Array.isArray(value) ? JSON.stringify(value) : value),
    arrays: ['array', 'columns'],
    linguisticText: { string: 'COLLATE NOCASE', timestamp: 'COLLATE NOCASE' },
  },
  postgres: {
    types: { string: 'text', timestamp: 'text', integer: 'bigint', number: 'double precision', boolean: 'boolean', 'integer[]': 'bigint[]' },
    quote: doubleQuote,
    placeholder: (n) => `$${n}`,
    bind: asIs,
    arrays: ['array', 'columns'],
    linguisticText: { string: 'COLLATE bq_nocase' },
  },
  mysql: {
    types: { string: 'LONGTEXT', timestamp: 'VARCHAR(19)', integer: 'BIGINT', number: 'DOUBLE', boolean: 'BOOLEAN', 'integer[]': 'JSON' },
    quote: backtick,
    placeholder: () => '?',
    bind: (value) => (Array.isArray(value) ? JSON.stringify(value) : value), // arrays are JSON documents
    arrays: ['array', 'columns'],
  },
  duckdb: {
    types: { string: 'VARCHAR', timestamp: 'VARCHAR', integer: 'BIGINT', number: 'DOUBLE', boolean: 'BOOLEAN', 'integer[]': 'BIGINT[]' },
    quote: doubleQuote,
    placeholder: (n) => `$${n}`,
    bind: asIs,
    arrays: ['array', 'columns'],
  },
};

/** Where one record table lives and how its array is stored. @internal */
export interface RecordTable {
  readonly name: string;
  readonly operation: OperationName;
  readonly targets: number;
  readonly storage: CountsStorage;
  /** Column of one field, `backlinks_counts_<n>` for per-target storage. */
  readonly columns: Readonly<Record<string, string>>;
}

/** Column name of `backlinks_counts[n]` when stored one column per target. @internal */
export const countColumn = (n: number): string => `backlinks_counts_${n}`;

/** The table's columns as `[column, type, field, index]`, from the catalogue. @internal */
function tableColumns(engine: EngineName, table: RecordTable, collation: Collation = 'default'): [string, string, string, number | null][] {
  const traits = ENGINE_TRAITS[engine];
  const record = operations[table.operation].record as Readonly<Record<string, { readonly type: FieldType }>>;
  const text = (type: 'string' | 'timestamp') => {
    const extra = collation === 'linguistic' ? traits.linguisticText?.[type] : undefined;
    return extra ? `${traits.types[type]} ${extra}` : traits.types[type];
  };
  return Object.entries(record).flatMap(([field, spec]): [string, string, string, number | null][] => {
    if (spec.type === 'string[]') throw new Error(`${table.operation}.${field}: string[] fields are not filterable`);
    const column = table.columns[field] ?? field;
    if (spec.type === 'string' || spec.type === 'timestamp') return [[column, text(spec.type), field, null]];
    if (spec.type !== 'integer[]') return [[column, traits.types[spec.type], field, null]];
    if (!traits.arrays.includes(table.storage)) throw new Error(`${engine} cannot store ${field} as ${table.storage}`);
    if (table.storage === 'array') return [[column, traits.types['integer[]'], field, null]];
    return Array.from({ length: table.targets }, (_, i) => [countColumn(i + 1), traits.types.integer, field, i]);
  });
}

/**
 * Creates the table (dropping an older one of the same name) with an `id` primary key.
 *
 * @internal
 */
export async function createRecordTable(session: EngineSession, table: RecordTable): Promise<void> {
  const { quote } = ENGINE_TRAITS[session.name];
  const columns = tableColumns(session.name, table, session.collation).map(([column, type]) => `${quote(column)} ${type} NOT NULL`);
  await session.exec(`DROP TABLE IF EXISTS ${quote(table.name)}`);
  await session.exec(`CREATE TABLE ${quote(table.name)} (id INTEGER PRIMARY KEY, ${columns.join(', ')})`);
}

/**
 * Inserts rows with bound values; row `i` gets id `i + 1`. Rows go in batches so a statement stays
 * under every engine's parameter limit.
 *
 * @internal
 */
export async function insertRows(session: EngineSession, table: RecordTable, rows: readonly Readonly<Record<string, unknown>>[]): Promise<void> {
  const traits = ENGINE_TRAITS[session.name];
  const columns = tableColumns(session.name, table);
  const batch = Math.max(1, Math.floor(900 / (columns.length + 1)));
  for (let start = 0; start < rows.length; start += batch) {
    const slice = rows.slice(start, start + batch);
    const parameters: unknown[] = [];
    const tuples = slice.map((row, i) => {
      parameters.push(start + i + 1);
      const marks = [traits.placeholder(parameters.length)];
      for (const [, , field, index] of columns) {
        const value = index === null ? row[field] : (row[field] as readonly number[])[index];
        parameters.push(traits.bind(value));
        marks.push(traits.placeholder(parameters.length));
      }
      return `(${marks.join(', ')})`;
    });
    const names = ['id', ...columns.map(([column]) => traits.quote(column))].join(', ');
    await session.query(`INSERT INTO ${traits.quote(table.name)} (${names}) VALUES ${tuples.join(', ')}`, parameters);
  }
}

/**
 * Runs `SELECT id FROM table WHERE <where> ORDER BY id` and returns the ids as numbers.
 *
 * @internal
 */
export async function selectIds(session: EngineSession, tableName: string, where: { readonly sql: string; readonly parameters: readonly unknown[] }): Promise<number[]> {
  const { quote } = ENGINE_TRAITS[session.name];
  const rows = await session.query(`SELECT id FROM ${quote(tableName)} WHERE ${where.sql} ORDER BY id`, where.parameters);
  return rows.map((row) => Number(row.id));
}

/**
 * Counts the rows of a table (the injection suite's "still there, still whole" check).
 *
 * @internal
 */
export async function countRows(session: EngineSession, tableName: string): Promise<number> {
  const rows = await session.query(`SELECT COUNT(*) AS n FROM ${ENGINE_TRAITS[session.name].quote(tableName)}`, []);
  return Number(rows[0]?.n);
}
