/**
 * The engine infrastructure itself: each real engine is reachable, on its default and on its
 * linguistic collation, and a record table created
 * from the catalogue gives back exactly the rows inserted into it (astral characters, trailing
 * spaces, case, 2^53-1, booleans, matrix counts), so a differential mismatch is never a storage
 * artefact.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, type FilterableOperation } from '../../src/catalogue/operations.js';
import type { FieldType } from '../../src/catalogue/records.js';
import { datasetArbitrary } from '../../src/testing/records.js';
import { ENGINE_NAMES, openEngine, type Collation, type EngineName, type EngineSession } from '../helpers/engines.js';
import { countColumn, createRecordTable, ENGINE_TRAITS, insertRows, type CountsStorage, type RecordTable } from '../helpers/engines-tables.js';

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

describe.each(ENGINE_NAMES.flatMap((name) => (['default', 'linguistic'] as const).map((collation) => [name, collation] as [EngineName, Collation])))('engine %s, %s collation', (engine, collation) => {
  let session: EngineSession;
  const prefix = `bq_setup_${process.pid}_${collation}`;
  beforeAll(async () => {
    session = await openEngine(engine, collation);
  });
  afterAll(async () => session?.close());

  it('answers a query with bound parameters', async () => {
    const { placeholder } = ENGINE_TRAITS[engine];
    const rows = await session.query(`SELECT ${placeholder(1)} AS v`, ['\u{1f600} it\'s']);
    expect(rows[0]?.v).toBe('\u{1f600} it\'s');
  });

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
