/**
 * The engine infrastructure itself: each real engine is reachable, on its default and (where it
 * has one) on its linguistic collation, and a record table created
 * from the catalogue gives back exactly the rows inserted into it (astral characters, trailing
 * spaces, case, 2^53-1, booleans, matrix counts), so a differential mismatch is never a storage
 * artefact. ClickHouse, which binds no parameters, refuses them in its session, takes rows as
 * JSONEachRow data, and gives back edge values (quotes, backslashes, NUL, emoji, floats, -0)
 * exactly; it has no linguistic collation to open.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, type FilterableOperation } from '../../src/catalogue/operations.js';
import type { FieldType } from '../../src/catalogue/records.js';
import { datasetArbitrary } from '../../src/testing/records.js';
import { ENGINE_NAMES, LINGUISTIC_ENGINES, openEngine, type Collation, type EngineName, type EngineSession } from '../helpers/engines.js';
import { countColumn, createRecordTable, createTable, ENGINE_TRAITS, insertRows, insertValues, type CountsStorage, type RecordTable } from '../helpers/engines-tables.js';

const FILTERABLE = (Object.keys(operations) as (keyof typeof operations)[]).filter(
  (name): name is FilterableOperation => operations[name].filter,
);

/** Reads a stored value back as the catalogue type says (drivers differ: bigint, strings, 0/1). */
function decode(type: FieldType, value: unknown): unknown {
  if (type === 'integer' || type === 'number') return Number(value);
  if (type === 'boolean') return Boolean(Number(value));
  if (type === 'integer[]') return (typeof value === 'string' ? (JSON.parse(value) as unknown[]) : (value as unknown[])).map(Number);
  return value;
}

/**
 * How text columns are read back. @duckdb/node-api decodes VARCHAR with a TextDecoder that drops
 * a leading U+FEFF (the value stored is right: `length` says 1), so DuckDB text is read behind a
 * one-character prefix that is cut off again.
 */
const READ_TEXT: Readonly<Record<EngineName, (column: string) => string>> = {
  sqlite: (column) => column,
  postgres: (column) => column,
  mysql: (column) => column,
  duckdb: (column) => `'|' || ${column}`,
  clickhouse: (column) => column,
};

async function readBack(session: EngineSession, table: RecordTable): Promise<Record<string, unknown>[]> {
  const { quote } = ENGINE_TRAITS[session.name];
  const record = operations[table.operation].record as Readonly<Record<string, { readonly type: FieldType }>>;
  const isText = (type: FieldType) => type === 'string' || type === 'timestamp';
  const select = Object.entries(record).map(([field, { type }]) =>
    isText(type) ? `${READ_TEXT[session.name](quote(field))} AS ${quote(`text_${field}`)}` : null,
  );
  const extra = select.filter((s) => s !== null).join(', ');
  const rows = (await session.query(`SELECT *${extra ? `, ${extra}` : ''} FROM ${quote(table.name)} ORDER BY id`, [])).map((row) => {
    const fixed = { ...row };
    const cut = session.name === 'duckdb' ? 1 : 0;
    for (const [field, { type }] of Object.entries(record)) if (isText(type)) fixed[field] = String(row[`text_${field}`]).slice(cut);
    return fixed;
  });
  return rows.map((stored) =>
    Object.fromEntries(
      Object.entries(record).map(([field, { type }]) => {
        if (type === 'integer[]' && table.storage === 'columns') {
          return [field, Array.from({ length: table.targets }, (_, i) => Number(stored[countColumn(i + 1)]))];
        }
        return [field, decode(type, stored[field])];
      }),
    ),
  );
}

const COLLATIONS_OF = (name: EngineName): readonly Collation[] => (LINGUISTIC_ENGINES.includes(name) ? ['default', 'linguistic'] : ['default']);

describe.each(ENGINE_NAMES.flatMap((name) => COLLATIONS_OF(name).map((collation) => [name, collation] as [EngineName, Collation])))('engine %s, %s collation', (engine, collation) => {
  let session: EngineSession;
  const prefix = `bq_setup_${process.pid}_${collation}`;
  beforeAll(async () => {
    session = await openEngine(engine, collation);
  });
  afterAll(async () => session?.close());

  if (ENGINE_TRAITS[engine].boundParameters) {
    it('answers a query with bound parameters', async () => {
      const { placeholder } = ENGINE_TRAITS[engine];
      const rows = await session.query(`SELECT ${placeholder(1)} AS v`, ['\u{1f600} it\'s']);
      expect(rows[0]?.v).toBe('\u{1f600} it\'s');
    });
  } else {
    it('refuses bound parameters (the engine has none) and answers a query without', async () => {
      await expect(session.query('SELECT 1 AS v', ['\u{1f600} it\'s'])).rejects.toThrow(/no server-side bound parameters/);
      expect(await session.query('SELECT 1 AS v', [])).toEqual([{ v: 1 }]);
    });
  }

  const storages = ENGINE_TRAITS[engine].arrays;
  it.each(FILTERABLE.flatMap((op) => (op === 'matrix' ? storages : ['columns' as CountsStorage]).map((s) => [op, s] as const)))(
    'stores %s records exactly (%s)',
    async (operation, storage) => {
      await fc.assert(
        fc.asyncProperty(datasetArbitrary(operation, { minRows: 1, maxRows: 30 }), async (rows) => {
          const targets = operation === 'matrix' ? (rows[0] as { backlinks_counts: number[] }).backlinks_counts.length : 1;
          const table: RecordTable = { name: `${prefix}_${operation.replace('-', '_')}_${storage}`, operation, targets, storage, columns: {} };
          await createRecordTable(session, table);
          await insertRows(session, table, rows);
          expect(await readBack(session, table)).toEqual(rows);
          await session.exec(`DROP TABLE ${ENGINE_TRAITS[engine].quote(table.name)}`);
        }),
        { numRuns: 15, seed: 20_261_122 },
      );
    },
  );
});

describe('engine clickhouse: edge values and what it does not have', () => {
  let session: EngineSession;
  const name = `bq_setup_${process.pid}_edges`;
  beforeAll(async () => {
    session = await openEngine('clickhouse');
  });
  afterAll(async () => {
    await session?.exec(`DROP TABLE IF EXISTS ${ENGINE_TRAITS.clickhouse.quote(name)}`);
    await session?.close();
  });

  it('has no linguistic collation to open', async () => {
    await expect(openEngine('clickhouse', 'linguistic')).rejects.toThrow(/strings are bytes compared byte by byte .* no column, database or session collation/);
  });

  const STRINGS = ["it's", "''", 'back\\slash', "\\'", 'a\u0000b', '\u0000', '\u{1f600} emoji', '"', '`', '', ' trailing ', 'x\ny\tz\r', '\ufeffbom', '\uffff', '\u{10ffff}', "'; DROP TABLE canary; --", '%_\\%'];
  const FLOATS = [0.1, 1e300, -0, -1e-300, 0.30000000000000004, 2 ** 53 - 1, 1.7976931348623157e308, 1e-310, -2.5, 0];
  const INTEGERS = [0, -1, 2 ** 31, 2 ** 53 - 1, -(2 ** 53 - 1)];
  const ARRAYS = [[], [0], [-1, 9_007_199_254_740_991, -9_007_199_254_740_991, 2_147_483_648]];
  const rows = STRINGS.map((text, i) => ({
    s: text,
    f: FLOATS[i % FLOATS.length]!,
    n: INTEGERS[i % INTEGERS.length]!,
    b: i % 2 === 0,
    a: ARRAYS[i % ARRAYS.length]!,
  }));

  it('gives back strings, floats (0.1, 1e300, -0), integers to 2^53-1, booleans and arrays exactly', async () => {
    const { types, bind, quote } = ENGINE_TRAITS.clickhouse;
    await createTable(session, name, [['s', types.string], ['f', types.number], ['n', types.integer], ['b', types.boolean], ['a', types['integer[]']]]);
    await insertValues(session, name, ['s', 'f', 'n', 'b', 'a'], rows.map((row, i) => [i + 1, ...[row.s, row.f, row.n, row.b, row.a].map(bind)]));
    const back = await session.query(`SELECT s, f, n, b, a, length(s) AS bytes FROM ${quote(name)} ORDER BY id`, []);
    expect(back.map((row) => ({ s: row.s, f: row.f, n: row.n, b: row.b === 1, a: row.a }))).toEqual(rows);
    back.forEach((row, i) => {
      expect(Object.is(row.f, rows[i]!.f), `float of row ${i + 1}: ${String(row.f)}`).toBe(true);
      expect(row.bytes, `UTF-8 length of row ${i + 1}`).toBe(Buffer.byteLength(rows[i]!.s));
    });
  });
});
