/**
 * Pinned cases: the traps each engine falls into by default, written out by hand with the rows
 * the language page says they select, run on every engine against both the page and the
 * evaluator. The generated suites find new traps; these keep the known ones from coming back
 * whatever the seed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FilterableOperation } from '../../src/catalogue/operations.js';
import { parseFilter } from '../../src/syntax/parse.js';
import { ENGINE_NAMES, openEngine, type EngineName, type EngineSession } from '../helpers/engines.js';
import { ENGINE_TRAITS, type CountsStorage } from '../helpers/engines-tables.js';
import { anchorRow } from '../injection/fixture.js';
import { toSql } from '../../src/sql/index.js';
import { checkCase, evaluatorIds, TablePool, type Lowering } from './harness.js';

const ANCHORS = ['abc', 'ABC', 'abc ', 'a_c', 'aXc', '', 'ß', 'ss', 'SS', 'é', 'e\u0301', '\uffff', '\u{10000}', 'a\\b', 'a%b', "it's", '\ue000', '\ufffd', '\ufffe'];
const TIMES = ['2024-05-01T00:00:00', '2024-05-01T10:30:00', '2024-04-30T23:59:59', '2024-05-02T00:00:00'];
const anchors = ANCHORS.map((anchor, i) => ({ ...anchorRow(anchor, i), first_seen_at: TIMES[i % TIMES.length]! }));
const ids = (...values: string[]) => values.map((v) => ANCHORS.indexOf(v) + 1).sort((a, b) => a - b);

const byTime = (keep: (t: string) => boolean) => anchors.flatMap((row, i) => (keep(row.first_seen_at) ? [i + 1] : []));

/** `[filter, ids the language page says it selects]` over {@link anchors}. */
const ANCHOR_CASES: [string, number[]][] = [
  ["anchor = 'abc'", ids('abc')], // not ABC (case), not 'abc ' (trailing space)
  ["anchor LIKE 'a_c'", ids('a_c')], // `_` is not a wildcard
  ["anchor LIKE 'ABC%'", ids('ABC')], // LIKE is case-sensitive
  ["anchor LIKE 'abc%'", ids('abc', 'abc ')],
  ["anchor NOT LIKE '%'", []],
  ["anchor LIKE ''", ids('')],
  ["anchor > 'abc'", ids('abc ', 'ß', 'ss', 'é', 'e\u0301', '\uffff', '\u{10000}', "it's", '\ue000', '\ufffd', '\ufffe')],
  ["anchor = 'ß'", ids('ß')],
  ["anchor = 'é'", ids('é')], // not e + U+0301
  ["anchor > '\uffff'", ids('\u{10000}')], // code point order, not UTF-16
  ["anchor LIKE '%\uffff%'", ids('\uffff')], // not U+FFFD or U+FFFE (SQLite's GLOB cannot tell them apart: refused there)
  ["anchor = '\ufffe'", ids('\ufffe')],
  ["anchor < '\ue000'", ANCHORS.filter((a) => !['\ue000', '\ufffd', '\ufffe', '\uffff', '\u{10000}'].includes(a)).map((a) => ids(a)[0]!).sort((a, b) => a - b)],
  ["anchor = 'a\\\\b'", ids('a\\b')], // a backslash is an ordinary character
  ["anchor LIKE 'a\\\\%'", ids('a\\b')],
  ["anchor LIKE 'it\\'%'", ids("it's")],
  // A longer text with the same start sorts after it: 2024-05-01T00:00:00 > '2024-05-01'.
  ["first_seen_at > '2024-05-01'", byTime((t) => t !== '2024-04-30T23:59:59')],
  ["first_seen_at LIKE '2024-05-01%'", byTime((t) => t.startsWith('2024-05-01'))],
  ['backlinks_count > 2.5', ANCHORS.map((_, i) => i + 1).filter((id) => id - 1 > 2.5)],
  ['backlinks_count = 2.5', []],
  ['backlinks_count != 2.5', ANCHORS.map((_, i) => i + 1)],
  ['backlinks_count <= -0.5 OR backlinks_count >= 9007199254740991', []],
];

/**
 * Number cases again with `backlinks_count` mapped to a SQL expression (`columns: { backlinks_count:
 * { sql } }`): the lowering cannot know the expression is an integer, so it cannot use the integer
 * rewrite, and a decimal must still compare as a decimal against the engine's bigint.
 */
const EXPRESSION_CASES = ANCHOR_CASES.filter(([text]) => text.startsWith('backlinks_count'));

const matrix = [
  [0, 5, 0],
  [3, 0, 9_007_199_254_740_991],
  [2_147_483_648, 1, 1],
].map((counts, i) => ({
  domain: `d${i}`,
  domain_score: 50,
  ip_address: '',
  country: 'DE',
  matches_count: counts.filter((n) => n > 0).length,
  backlinks_counts: counts,
}));

const MATRIX_CASES: [string, number[]][] = [
  ['backlinks_counts[1] > 0', [2, 3]],
  ['backlinks_counts[2] = 0 OR backlinks_counts[3] >= 9007199254740991', [2]],
  ['backlinks_counts[1] > 2147483647.5 AND matches_count = 3', [3]],
];

describe.each(ENGINE_NAMES.map((name) => [name] as [EngineName]))('pinned cases on %s', (engine) => {
  let session: EngineSession;
  let tables: TablePool;
  beforeAll(async () => {
    session = await openEngine(engine);
    tables = new TablePool(session, `bq_pinned_${process.pid}`);
  });
  afterAll(async () => {
    await tables?.dropAll();
    await session?.close();
  });

  const run = async (operation: FilterableOperation, storage: CountsStorage, rows: object[], text: string, expected: number[]) => {
    const filter = parseFilter(text, { operation, targets: 3 });
    expect(evaluatorIds(filter, rows as never[]), `evaluator: ${text}`).toEqual(expected);
    const result = await checkCase(session, tables, operation, storage, { rows: rows as never[], targets: 3, filters: [filter] });
    // Only SQLite refuses, and only a LIKE pattern holding U+FFFD to U+FFFF (docs/sql.md).
    const refusedHere = engine === 'sqlite' && /LIKE '[^']*[\ufffd-\uffff]/.test(text) ? 1 : 0;
    expect(result).toEqual({ ran: 1 - refusedHere, refused: refusedHere });
  };

  it.each(ANCHOR_CASES)('anchors: %s', (text, expected) => run('anchors', 'columns', anchors, text, expected));
  it.each(EXPRESSION_CASES)('anchors, backlinks_count as a SQL expression: %s', async (text, expected) => {
    const filter = parseFilter(text, { operation: 'anchors' });
    expect(evaluatorIds(filter, anchors as never[]), `evaluator: ${text}`).toEqual(expected);
    const expression: Lowering = (f, options) => toSql(f, { ...options, columns: { backlinks_count: { sql: `(${ENGINE_TRAITS[engine].quote('backlinks_count')})` } } });
    const result = await checkCase(session, tables, 'anchors', 'columns', { rows: anchors as never[], targets: 1, filters: [filter] }, expression);
    expect(result).toEqual({ ran: 1, refused: 0 });
  });
  it.each(ENGINE_TRAITS[engine].arrays.flatMap((storage) => MATRIX_CASES.map(([t, e]) => [storage, t, e] as const)))(
    'matrix (%s): %s',
    (storage, text, expected) => run('matrix', storage, matrix, text, [...expected]),
  );
});
