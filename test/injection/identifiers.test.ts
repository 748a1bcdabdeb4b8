/**
 * Hostile column and table names in the column mapping never change a statement's structure: on
 * each real engine, a table whose name and columns hold quotes, backticks, brackets, comment
 * markers, semicolons and placeholders answers a lowered filter with exactly the evaluator's rows,
 * and the canary table is untouched. A NUL in a name, which no engine can hold, is refused by
 * `toSql` with an UnsupportedError before any SQL exists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparison, field, like, numberLiteral, or, stringLiteral } from '../../src/ast/factories.js';
import { isUnsupportedError, toSql } from '../../src/sql/index.js';
import { ENGINE_NAMES, type EngineName } from '../helpers/engines.js';
import { DIALECT_OF } from '../differential/harness.js';
import { anchorRow, expectedIds, InjectionFixture } from './fixture.js';
import { ENGINE_CANNOT_NAME, HOSTILE_IDENTIFIERS } from './hostile.js';

const ROWS = ['plain', 'PLAIN', 'a%b', "it's", 'other', ''].map(anchorRow);
const FILTERS = [
  or([comparison(field('anchor'), '=', stringLiteral('plain')), comparison(field('backlinks_count'), '>', numberLiteral(3))]),
  like(field('anchor'), stringLiteral('%a%')),
  comparison(field('first_seen_at'), '>=', stringLiteral('2024-05')),
];

describe.each(ENGINE_NAMES.map((name) => [name] as [EngineName]))('hostile identifiers on %s', (engine) => {
  let fixture: InjectionFixture;
  beforeAll(async () => {
    fixture = await InjectionFixture.open(engine);
  });
  afterAll(async () => fixture?.close());

  const names = HOSTILE_IDENTIFIERS.filter((name) => !ENGINE_CANNOT_NAME[engine](name));
  it.each(names.map((name, i) => [name, i] as const))('column and table named %j', async (name, i) => {
    const tableName = `bq_inj_${i}_${name}`;
    const table = await fixture.table(tableName, ROWS, { anchor: name, backlinks_count: `${name}_n` });
    const mapping = { anchor: { table: tableName, column: name }, backlinks_count: `${name}_n` };
    for (const filter of FILTERS) {
      expect(await fixture.select(table, ROWS, filter, mapping)).toEqual(expectedIds(filter, ROWS));
    }
    await fixture.drop(tableName);
  });

  it.each(['a\u0000b', '\u0000', '"\u0000; DROP TABLE canary; --'])('refuses NUL in the name %j', async (name) => {
    const attempt = () => toSql(FILTERS[0]!, { dialect: DIALECT_OF[engine], columns: { anchor: name } });
    expect(attempt).toThrow(/U\+0000/);
    try {
      attempt();
    } catch (error) {
      expect(isUnsupportedError(error)).toBe(true);
    }
    const table = await fixture.table(`bq_inj_nul_${process.pid}`, ROWS);
    await fixture.expectIntact(table, ROWS.length);
    await fixture.drop(table.name);
  });
});
