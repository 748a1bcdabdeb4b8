import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, booleanLiteral, comparison, field, like, numberLiteral, or, stringLiteral } from '../../../src/ast/factories.js';
import { COMPARISON_OPERATORS, type FilterNode } from '../../../src/ast/nodes.js';
import { compilePredicate } from '../../../src/evaluate/index.js';
import { printFilter } from '../../../src/print/printer.js';
import { toSql, UnsupportedError } from '../../../src/sql/index.js';
import { parseFilter } from '../../../src/syntax/parse.js';
import { seeded } from '../../property/support.js';

const TEXTS = ['', 'a', 'A', 'a ', 'a_b', 'axb', 'a%b', "it's", 'back\\slash', '\uFFFF', '\uE000', '😀', '😀x', 'é', 'E', 'ab', 'abc', '[x]', '*', '?', 'Ab', 'b'];
const NUMBERS = [-3, 0, 1, 2, 5, 9007199254740991];
const rows = TEXTS.map((text, i) => ({
  anchor: text,
  domain: TEXTS[(i * 7) % TEXTS.length]!,
  domain_score: NUMBERS[i % NUMBERS.length]!,
  is_nofollow: i % 3 === 0,
  backlinks_counts: [NUMBERS[(i + 1) % NUMBERS.length]!, i],
}));

let db: Database.Database;
beforeAll(() => {
  db = new Database(':memory:');
  // `anchor` is NOCASE on purpose: the lowering must stay exact whatever the column's collation.
  db.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, anchor TEXT COLLATE NOCASE NOT NULL, domain TEXT NOT NULL,
    domain_score INTEGER NOT NULL, is_nofollow INTEGER NOT NULL, backlinks_counts TEXT NOT NULL,
    backlinks_counts_1 INTEGER NOT NULL, backlinks_counts_2 INTEGER NOT NULL)`);
  const insert = db.prepare('INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  rows.forEach((r, i) =>
    insert.run(i + 1, r.anchor, r.domain, r.domain_score, r.is_nofollow ? 1 : 0, JSON.stringify(r.backlinks_counts), ...r.backlinks_counts),
  );
});
afterAll(() => db.close());

function engineIds(filter: FilterNode, array: 'array' | 'columns'): number[] {
  const storage = array === 'array' ? ({ kind: 'array' } as const) : ({ kind: 'columns', column: (n: number) => `backlinks_counts_${n}` } as const);
  const { sql, parameters } = toSql(filter, { dialect: 'sqlite', array: storage });
  return (db.prepare(`SELECT id FROM t WHERE ${sql} ORDER BY id`).all(...parameters) as { id: number }[]).map((r) => r.id);
}

function evaluatorIds(filter: FilterNode): number[] {
  const keep = compilePredicate(filter);
  return rows.flatMap((r, i) => (keep(r) ? [i + 1] : []));
}

const operator = fc.constantFrom(...COMPARISON_OPERATORS);
const pattern = fc
  // A pattern holding U+FFFD to U+FFFF is refused by the dialect (identifiers-and-errors.test.ts).
  .array(fc.oneof(fc.constantFrom(...TEXTS.filter((text) => !/[\ufffd-\uffff]/.test(text))), fc.constantFrom('%', '_', '*', '?', '[', ']', '!', '\\')), { maxLength: 4 })
  .map((parts) => parts.join(''));
const condition: fc.Arbitrary<FilterNode> = fc.oneof(
  fc.tuple(fc.constantFrom('anchor', 'domain'), operator, fc.constantFrom(...TEXTS)).map(([f, op, v]) => comparison(field(f), op, stringLiteral(v))),
  fc.tuple(fc.constantFrom('anchor', 'domain'), pattern, fc.boolean()).map(([f, p, n]) => like(field(f), stringLiteral(p), n)),
  fc.tuple(operator, fc.oneof(fc.constantFrom(...NUMBERS), fc.constantFrom(2.5, -0.5, 1.0000001))).map(([op, v]) => comparison(field('domain_score'), op, numberLiteral(v))),
  fc.tuple(fc.integer({ min: 1, max: 2 }), operator, fc.constantFrom(0, 1, 2.5, 7)).map(([n, op, v]) => comparison(field('backlinks_counts', n), op, numberLiteral(v))),
  fc.tuple(fc.constantFrom('=', '!=' as const), fc.boolean()).map(([op, v]) => comparison(field('is_nofollow'), op, booleanLiteral(v))),
);
const filter = fc.oneof(
  condition,
  fc.array(condition, { minLength: 2, maxLength: 3 }).map((operands) => and(operands)),
  fc.array(condition, { minLength: 2, maxLength: 3 }).map((operands) => or(operands)),
);

describe('SQLite execution', () => {
  it('selects the rows the evaluator selects, for 1,500 generated filters (fixed seed) and both array storages', () => {
    fc.assert(
      fc.property(filter, fc.constantFrom('array' as const, 'columns' as const), (f, array) => {
        expect(engineIds(f, array), printFilter(f)).toEqual(evaluatorIds(f));
      }),
      // 1,500 runs: each of the 5 condition kinds in about 300 filters, alone and in AND/OR groups.
      seeded(1500),
    );
  });

  it.each([
    ["anchor = 'a'", [2]],
    ["anchor LIKE 'a_b'", [5]],
    ["anchor LIKE 'A%'", [3, 21]],
    ["anchor > '\uFFFF'", [12, 13]],
    ["anchor LIKE '[x]'", [18]],
    ["anchor LIKE '%\\\\%'", [9]],
  ])('%s selects %j', (text, ids) => {
    const f = parseFilter(text, { operation: 'links' });
    expect(evaluatorIds(f)).toEqual(ids);
    expect(engineIds(f, 'columns')).toEqual(ids);
  });

  it('runs with hostile column and table names without changing the statement', () => {
    const name = 'x"; DROP TABLE t; --';
    db.exec(`CREATE TABLE "${name.replaceAll('"', '""')}" ("${name.replaceAll('"', '""')}" TEXT)`);
    db.prepare(`INSERT INTO "${name.replaceAll('"', '""')}" VALUES (?)`).run("'; DELETE FROM t; --");
    const f = comparison(field('anchor'), '=', stringLiteral("'; DELETE FROM t; --"));
    const { sql, parameters } = toSql(f, { dialect: 'sqlite', columns: { anchor: { table: name, column: name } } });
    const found = db.prepare(`SELECT count(*) AS n FROM "${name.replaceAll('"', '""')}" WHERE ${sql}`).get(...parameters) as { n: number };
    expect(found.n).toBe(1);
    expect((db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n).toBe(rows.length);
  });
});

describe('SQLite indexes survive the lowering', () => {
  beforeAll(() => {
    db.exec('CREATE INDEX t_domain ON t (domain); CREATE INDEX t_score ON t (domain_score)');
  });
  const plan = (text: string): string => {
    const { sql, parameters } = toSql(parseFilter(text, { operation: 'ref-domains' }), { dialect: 'sqlite' });
    return (db.prepare(`EXPLAIN QUERY PLAN SELECT id FROM t WHERE ${sql}`).all(...parameters) as { detail: string }[]).map((r) => r.detail).join('; ');
  };

  it.each([
    ["domain = 'ab'", 't_domain'],
    ["domain >= 'ab'", 't_domain'],
    ["domain LIKE 'ab%'", 't_domain'],
    ['domain_score > 2.5', 't_score'],
    ['domain_score = 5', 't_score'],
  ])('%s searches with %s', (text, index) => {
    expect(plan(text)).toMatch(new RegExp(`SEARCH .*INDEX ${index}`));
  });
});

describe('SQLite pattern length', () => {
  it('runs a pattern at SQLite\'s 50,000-byte limit and refuses a longer one before it reaches SQLite', () => {
    const fits = like(field('anchor'), stringLiteral(`%${'x'.repeat(49_998)}%`));
    expect(engineIds(fits, 'columns')).toEqual(evaluatorIds(fits));
    const tooLong = like(field('anchor'), stringLiteral(`%${'x'.repeat(49_999)}%`));
    expect(() => toSql(tooLong, { dialect: 'sqlite' })).toThrow(UnsupportedError);
  });
});
