import { Kysely, PostgresDialect, sql, type Generated } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compilePredicate } from '../../../src/evaluate/index.js';
import { filterToKysely } from '../../../src/kysely/index.js';
import { parseFilter } from '../../../src/syntax/parse.js';
import { engineUrl } from '../../helpers/engines.js';

interface MatrixTable {
  id: number;
  domain: string;
  domain_score: number;
  backlinks_counts: number[];
}
interface LinkTable {
  id: Generated<number>;
  anchor: string;
  domain_score: number;
  is_nofollow: boolean;
}

const links = [
  { id: 1, anchor: 'Best SEO tips', domain_score: 62, is_nofollow: false },
  { id: 2, anchor: 'best seo tips', domain_score: 40, is_nofollow: true },
  { id: 3, anchor: 'a_b', domain_score: 7, is_nofollow: false },
  { id: 4, anchor: 'axb', domain_score: 90, is_nofollow: true },
  { id: 5, anchor: '😀', domain_score: 0, is_nofollow: false },
  { id: 6, anchor: '\uFFFF', domain_score: 100, is_nofollow: false },
  { id: 7, anchor: 'B', domain_score: 1, is_nofollow: false },
];
const matrix = [
  { id: 1, domain: 'a.com', domain_score: 5, backlinks_counts: [0, 3] },
  { id: 2, domain: 'B.com', domain_score: 50, backlinks_counts: [2, 0] },
  { id: 3, domain: 'c.com', domain_score: 70, backlinks_counts: [9, 9] },
];

let db: Kysely<{ bq_kysely_links: LinkTable; bq_kysely_matrix: MatrixTable }>;
beforeAll(async () => {
  db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: engineUrl('postgresUrl'), max: 2 }) }) });
  await db.schema.dropTable('bq_kysely_links').ifExists().execute();
  await db.schema.dropTable('bq_kysely_matrix').ifExists().execute();
  await db.schema
    .createTable('bq_kysely_links')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('anchor', 'text', (c) => c.notNull())
    .addColumn('domain_score', 'bigint', (c) => c.notNull())
    .addColumn('is_nofollow', 'boolean', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('bq_kysely_matrix')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('domain_score', 'bigint', (c) => c.notNull())
    .addColumn('backlinks_counts', sql`bigint[]`, (c) => c.notNull())
    .execute();
  await db.insertInto('bq_kysely_links').values(links).execute();
  await db.insertInto('bq_kysely_matrix').values(matrix).execute();
});
afterAll(async () => {
  await db.schema.dropTable('bq_kysely_links').ifExists().execute();
  await db.schema.dropTable('bq_kysely_matrix').ifExists().execute();
  await db.destroy();
});

describe('filterToKysely on PostgreSQL', () => {
  it.each([
    "anchor LIKE '%SEO%'",
    "anchor LIKE 'a_b'",
    "anchor > '\uFFFF'",
    "anchor < 'a'",
    'domain_score > 39.5 AND is_nofollow = true',
    "anchor NOT LIKE '%tips' AND domain_score <= 7.5",
  ])('links: %s selects the rows the evaluator selects', async (text) => {
    const filter = parseFilter(text, { operation: 'links' });
    const keep = compilePredicate(filter);
    const expected = links.filter(keep).map((r) => r.id);
    const got = await db
      .selectFrom('bq_kysely_links')
      .select('id')
      .where(filterToKysely(filter, { dialect: 'postgres' }))
      .orderBy('id')
      .execute();
    expect(got.map((r) => r.id)).toEqual(expected);
  });

  it.each(['backlinks_counts[2] > 0', 'backlinks_counts[1] >= 1.5 AND domain < \'a\'', "domain LIKE '%.com' AND backlinks_counts[2] = 9"])(
    'matrix: %s selects the rows the evaluator selects',
    async (text) => {
      const filter = parseFilter(text, { operation: 'matrix', targets: 2 });
      const keep = compilePredicate(filter);
      const expected = matrix.filter(keep).map((r) => r.id);
      const got = await db
        .selectFrom('bq_kysely_matrix')
        .select('id')
        .where(filterToKysely(filter, { dialect: 'postgres', array: { kind: 'array' } }))
        .orderBy('id')
        .execute();
      expect(got.map((r) => r.id)).toEqual(expected);
    },
  );

  it('numbers its parameters after the ones before it', () => {
    const filter = parseFilter("anchor = 'x' OR domain_score > 5", { operation: 'links' });
    const query = db.selectFrom('bq_kysely_links').select('id').where('id', '>', 0).where(filterToKysely(filter, { dialect: 'postgres' })).compile();
    expect(query.sql).toBe('select "id" from "bq_kysely_links" where "id" > $1 and ("anchor" COLLATE "C" = $2 OR "domain_score" > $3)');
    expect(query.parameters).toEqual([0, 'x', 5]);
  });
});
