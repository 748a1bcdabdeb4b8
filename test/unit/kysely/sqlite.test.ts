import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, type Generated } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compilePredicate } from '../../../src/evaluate/index.js';
import { filterToKysely } from '../../../src/kysely/index.js';
import { parseFilter } from '../../../src/syntax/parse.js';

interface LinkTable {
  id: Generated<number>;
  anchor: string;
  domain_score: number;
  is_nofollow: number;
  first_seen_at: string;
}

const rows = [
  { anchor: 'Best SEO tips', domain_score: 62, is_nofollow: false, first_seen_at: '2024-05-01T10:30:00' },
  { anchor: 'best seo tips', domain_score: 40, is_nofollow: true, first_seen_at: '2024-04-30T23:59:59' },
  { anchor: 'a_b', domain_score: 7, is_nofollow: false, first_seen_at: '2024-05-01T00:00:00' },
  { anchor: 'axb', domain_score: 90, is_nofollow: true, first_seen_at: '2023-01-01T00:00:00' },
  { anchor: '😀', domain_score: 0, is_nofollow: false, first_seen_at: '2024-05-02T00:00:00' },
  { anchor: '\uFFFF', domain_score: 100, is_nofollow: false, first_seen_at: '2024-05-02T00:00:00' },
];

let db: Kysely<{ links: LinkTable }>;
beforeAll(async () => {
  db = new Kysely({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
  await db.schema
    .createTable('links')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('anchor', 'text', (c) => c.notNull())
    .addColumn('domain_score', 'integer', (c) => c.notNull())
    .addColumn('is_nofollow', 'integer', (c) => c.notNull())
    .addColumn('first_seen_at', 'text', (c) => c.notNull())
    .execute();
  await db
    .insertInto('links')
    .values(rows.map((r) => ({ ...r, is_nofollow: r.is_nofollow ? 1 : 0 })))
    .execute();
});
afterAll(async () => db.destroy());

describe('filterToKysely on SQLite', () => {
  it.each([
    "anchor LIKE '%SEO%'",
    "anchor LIKE 'a_b'",
    "anchor > '\uFFFF'",
    'domain_score > 39.5 AND is_nofollow = true',
    "first_seen_at > '2024-05-01' OR domain_score < 1",
    "anchor NOT LIKE '%tips' AND (domain_score >= 50 OR first_seen_at LIKE '2023%')",
  ])('%s selects the rows the evaluator selects', async (text) => {
    const filter = parseFilter(text, { operation: 'links' });
    const keep = compilePredicate(filter);
    const expected = rows.flatMap((r, i) => (keep(r) ? [i + 1] : []));
    const got = await db.selectFrom('links').select('id').where(filterToKysely(filter, { dialect: 'sqlite' })).orderBy('id').execute();
    expect(got.map((r) => r.id)).toEqual(expected);
  });

  it('binds literals as parameters and combines with other conditions', () => {
    const hostile = "x' OR 1=1 --";
    const filter = parseFilter(`anchor = "${hostile}" OR domain_score > 5`, { operation: 'links' });
    const query = db.selectFrom('links').select('id').where('id', '>', 0).where(filterToKysely(filter, { dialect: 'sqlite' })).compile();
    expect(query.sql).toBe('select "id" from "links" where "id" > ? and ("anchor" COLLATE BINARY = ? OR "domain_score" > ?)');
    expect(query.parameters).toEqual([0, hostile, 5]);
  });

  it('runs a hostile literal as data', async () => {
    const filter = parseFilter(`anchor = "x' OR 1=1 --"`, { operation: 'links' });
    const got = await db.selectFrom('links').select('id').where(filterToKysely(filter, { dialect: 'sqlite' })).execute();
    expect(got).toEqual([]);
  });
});
