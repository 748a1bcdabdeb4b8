/**
 * The injection suite's fixture on one engine: a canary table that no statement may touch, and
 * record tables (of the `anchors` operation) under any name, with any column names.
 *
 * @internal
 * @module
 */
import { expect } from 'vitest';
import type { FilterNode } from '../../src/ast/nodes.js';
import type { RowOf } from '../../src/catalogue/types.js';
import { compilePredicate } from '../../src/evaluate/index.js';
import { toSql, type ColumnMapping } from '../../src/sql/index.js';
import { openEngine, type EngineName, type EngineSession } from '../helpers/engines.js';
import { countRows, createRecordTable, createTable, ENGINE_TRAITS, insertRows, insertValues, selectIds, type RecordTable } from '../helpers/engines-tables.js';
import { DIALECT_OF } from '../differential/harness.js';

/** An anchors row. @internal */
export type AnchorRow = RowOf<'anchors'>;

/** An anchors row with the given anchor text. @internal */
export const anchorRow = (anchor: string, i: number): AnchorRow => ({
  anchor,
  backlinks_count: i,
  domains_count: i % 3,
  first_seen_at: '2024-05-01T10:30:00',
  last_seen_at: `2024-05-${String((i % 28) + 1).padStart(2, '0')}T00:00:00`,
});

const CANARY_ROWS = [
  [1, 'canary one'],
  [2, "canary 'two'"],
  [3, 'canary three'],
] as const;

/** One engine with its canary. @internal */
export class InjectionFixture {
  private constructor(
    readonly session: EngineSession,
    readonly canary: string,
  ) {}

  static async open(engine: EngineName): Promise<InjectionFixture> {
    const session = await openEngine(engine);
    const canary = `bq_canary_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    // The engine's own DDL (ClickHouse: a MergeTree table) and its own way in for values (bound
    // parameters, or rows sent as data where the engine binds none).
    await createTable(session, canary, [['note', ENGINE_TRAITS[engine].types.string]]);
    await insertValues(session, canary, ['note'], CANARY_ROWS);
    return new InjectionFixture(session, canary);
  }

  /** Creates `name` holding `rows`, its fields in the columns `columns` names (default: field names). */
  async table(name: string, rows: readonly AnchorRow[], columns: Readonly<Record<string, string>> = {}): Promise<RecordTable> {
    const table: RecordTable = { name, operation: 'anchors', targets: 1, storage: 'columns', columns };
    await createRecordTable(this.session, table);
    await insertRows(this.session, table, rows);
    return table;
  }

  /** The ids the engine returns for the filter lowered with `mapping`, after checking nothing else moved. */
  async select(table: RecordTable, rows: readonly AnchorRow[], filter: FilterNode, mapping?: ColumnMapping): Promise<number[]> {
    const lowered = toSql(filter, { dialect: DIALECT_OF[this.session.name], operation: 'anchors', ...(mapping && { columns: mapping }) });
    const ids = await selectIds(this.session, table.name, lowered);
    await this.expectIntact(table, rows.length);
    return ids;
  }

  /** The data table still holds its rows, and the canary its three rows, unchanged. */
  async expectIntact(table: RecordTable, rowCount: number): Promise<void> {
    expect(await countRows(this.session, table.name)).toBe(rowCount);
    const { quote } = ENGINE_TRAITS[this.session.name];
    const canary = await this.session.query(`SELECT id, note FROM ${quote(this.canary)} ORDER BY id`, []);
    expect(canary.map((row) => [Number(row.id), row.note])).toEqual(CANARY_ROWS.map(([id, note]) => [id, note]));
  }

  async drop(name: string): Promise<void> {
    await this.session.exec(`DROP TABLE IF EXISTS ${ENGINE_TRAITS[this.session.name].quote(name)}`);
  }

  async close(): Promise<void> {
    await this.drop(this.canary);
    await this.session.close();
  }
}

/** The ids (1-based row numbers) the evaluator selects. @internal */
export function expectedIds(filter: FilterNode, rows: readonly AnchorRow[]): number[] {
  const keep = compilePredicate(filter);
  return rows.flatMap((row, i) => (keep(row) ? [i + 1] : []));
}
