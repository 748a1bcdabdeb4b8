/**
 * Tables of an operation's record on a real engine: created from the catalogue (never a hand-kept
 * column list), filled with bound values (or, on ClickHouse, which has no bound parameters, rows
 * sent as JSONEachRow data), and queried with a lowered filter.
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
  /** The placeholder of the n-th bound parameter; throws on an engine without bound parameters. */
  readonly placeholder: (n: number) => string;
  /** Whether the engine binds parameters (ClickHouse 18.16 does not: its session refuses them). */
  readonly boundParameters: boolean;
  /**
   * How rows go in: `bound`, an `INSERT ... VALUES` of placeholders with bound values; `data`,
   * rows sent as data through `session.insertData` (ClickHouse). Never values in SQL text.
   */
  readonly insert: 'bound' | 'data';
  /** `CREATE TABLE` of a quoted name with an `id` key and the given column definitions. */
  readonly createTable: (quotedName: string, columns: readonly string[]) => string;
  /** One column definition of a quoted name and a type. */
  readonly column: (quotedName: string, type: string) => string;
  /** The statement that empties a table between cases (DELETE, or TRUNCATE where there is no DELETE). */
  readonly empty: (quotedName: string) => string;
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

/** The escapes ClickHouse reads inside a quoted identifier, beside `\\` and the quote. */
const CLICKHOUSE_CONTROL: Readonly<Record<string, string>> = { '\0': '\\0', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
/**
 * A ClickHouse identifier in double quotes. ClickHouse reads backslash escapes inside quoted
 * identifiers (so a backslash must be escaped too) and, on 18.16, doubled quotes as well; this
 * writes `\"` and `\\`, and control characters as escapes so the name stays on one line.
 */
const clickhouseQuote = (identifier: string): string =>
  `"${[...identifier]
    .map((c) => (c === '"' || c === '\\' ? `\\${c}` : c < ' ' || c === '\u007f' ? (CLICKHOUSE_CONTROL[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`) : c))
    .join('')}"`;

/** The DDL of the four SQL engines with bound parameters. */
const sqlTables = {
  boundParameters: true,
  insert: 'bound',
  createTable: (name: string, columns: readonly string[]) => `CREATE TABLE ${name} (id INTEGER PRIMARY KEY, ${columns.join(', ')})`,
  column: (name: string, type: string) => `${name} ${type} NOT NULL`,
  empty: (name: string) => `DELETE FROM ${name}`,
} as const;

/** Per-engine column types and binding. @internal */
export const ENGINE_TRAITS: Readonly<Record<EngineName, EngineTraits>> = {
  sqlite: {
    ...sqlTables,
    types: { string: 'TEXT', timestamp: 'TEXT', integer: 'INTEGER', number: 'REAL', boolean: 'INTEGER', 'integer[]': 'TEXT' },
    quote: doubleQuote,
    placeholder: () => '?',
    // SQLite has no boolean type (0/1) and no array type (JSON text, read with json_extract).
    bind: (value) => (typeof value === 'boolean' ? Number(value) : Array.isArray(value) ? JSON.stringify(value) : value),
    arrays: ['array', 'columns'],
    linguisticText: { string: 'COLLATE NOCASE', timestamp: 'COLLATE NOCASE' },
  },
  postgres: {
    ...sqlTables,
    types: { string: 'text', timestamp: 'text', integer: 'bigint', number: 'double precision', boolean: 'boolean', 'integer[]': 'bigint[]' },
    quote: doubleQuote,
    placeholder: (n) => `$${n}`,
    bind: asIs,
    arrays: ['array', 'columns'],
    linguisticText: { string: 'COLLATE bq_nocase' },
  },
  mysql: {
    ...sqlTables,
    types: { string: 'LONGTEXT', timestamp: 'VARCHAR(19)', integer: 'BIGINT', number: 'DOUBLE', boolean: 'BOOLEAN', 'integer[]': 'JSON' },
    quote: backtick,
    placeholder: () => '?',
    bind: (value) => (Array.isArray(value) ? JSON.stringify(value) : value), // arrays are JSON documents
    arrays: ['array', 'columns'],
  },
  duckdb: {
    ...sqlTables,
    types: { string: 'VARCHAR', timestamp: 'VARCHAR', integer: 'BIGINT', number: 'DOUBLE', boolean: 'BOOLEAN', 'integer[]': 'BIGINT[]' },
    quote: doubleQuote,
    placeholder: (n) => `$${n}`,
    bind: asIs,
    arrays: ['array', 'columns'],
  },
  // ClickHouse 18.16: no bound parameters (rows go in as JSONEachRow data, filters are lowered by
  // the literal dialect), no NOT NULL (columns are not Nullable unless declared so), no DELETE
  // (TRUNCATE TABLE empties a MergeTree table), no boolean type (UInt8 0/1), 1-based arrays.
  clickhouse: {
    types: { string: 'String', timestamp: 'String', integer: 'Int64', number: 'Float64', boolean: 'UInt8', 'integer[]': 'Array(Int64)' },
    quote: clickhouseQuote,
    placeholder: () => {
      throw new Error('ClickHouse 18.16 has no bound parameters: rows go in through insertData, filters through the clickhouse-literals dialect');
    },
    boundParameters: false,
    insert: 'data',
    bind: (value) => (typeof value === 'boolean' ? Number(value) : value),
    arrays: ['array', 'columns'],
    createTable: (name, columns) => `CREATE TABLE ${name} (id Int64, ${columns.join(', ')}) ENGINE = MergeTree() ORDER BY id`,
    column: (name, type) => `${name} ${type}`,
    empty: (name) => `TRUNCATE TABLE ${name}`,
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
 * Creates a table (dropping an older one of the same name) with an `id` key and the given
 * `[column, type]` pairs, in the engine's own DDL.
 *
 * @internal
 */
export async function createTable(session: EngineSession, name: string, columns: readonly (readonly [string, string])[]): Promise<void> {
  const traits = ENGINE_TRAITS[session.name];
  await session.exec(`DROP TABLE IF EXISTS ${traits.quote(name)}`);
  await session.exec(traits.createTable(traits.quote(name), columns.map(([column, type]) => traits.column(traits.quote(column), type))));
}

/**
 * Creates the record table (dropping an older one of the same name) with an `id` primary key.
 *
 * @internal
 */
export async function createRecordTable(session: EngineSession, table: RecordTable): Promise<void> {
  await createTable(session, table.name, tableColumns(session.name, table, session.collation).map(([column, type]) => [column, type] as const));
}

/** Empties a table (the engine's DELETE, or TRUNCATE on ClickHouse). @internal */
export async function emptyTable(session: EngineSession, name: string): Promise<void> {
  const traits = ENGINE_TRAITS[session.name];
  await session.exec(traits.empty(traits.quote(name)));
}

/**
 * Inserts rows given as `[id, ...values]` in the order of `columns` (the names after `id`),
 * values as the driver takes them: bound parameters in batches under every engine's parameter
 * limit, or, on an engine without bound parameters, one batch of rows sent as data. Never values
 * in SQL text.
 *
 * @internal
 */
export async function insertValues(session: EngineSession, tableName: string, columns: readonly string[], rows: readonly (readonly unknown[])[]): Promise<void> {
  const traits = ENGINE_TRAITS[session.name];
  if (rows.length === 0) return;
  if (traits.insert === 'data') {
    if (!session.insertData) throw new Error(`${session.name}: ENGINE_TRAITS says rows go in as data, but the session has no insertData`);
    const names = ['id', ...columns];
    await session.insertData(traits.quote(tableName), rows.map((row) => Object.fromEntries(names.map((name, i) => [name, row[i]]))));
    return;
  }
  const batch = Math.max(1, Math.floor(900 / (columns.length + 1)));
  const names = ['id', ...columns.map((column) => traits.quote(column))].join(', ');
  for (let start = 0; start < rows.length; start += batch) {
    const parameters: unknown[] = [];
    const tuples = rows.slice(start, start + batch).map((row) => {
      const marks = row.map((value) => {
        parameters.push(value);
        return traits.placeholder(parameters.length);
      });
      return `(${marks.join(', ')})`;
    });
    await session.query(`INSERT INTO ${traits.quote(tableName)} (${names}) VALUES ${tuples.join(', ')}`, parameters);
  }
}

/**
 * Inserts a dataset's rows; row `i` gets id `i + 1`.
 *
 * @internal
 */
export async function insertRows(session: EngineSession, table: RecordTable, rows: readonly Readonly<Record<string, unknown>>[]): Promise<void> {
  const traits = ENGINE_TRAITS[session.name];
  const columns = tableColumns(session.name, table);
  const values = rows.map((row, i) => [
    i + 1,
    ...columns.map(([, , field, index]) => traits.bind(index === null ? row[field] : (row[field] as readonly number[])[index])),
  ]);
  await insertValues(session, table.name, columns.map(([column]) => column), values);
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
