/**
 * Times the forms a LIKE condition can take on the embedded store's column file (docs/design-store.md,
 * "Text conditions on the column side"): a page of 100 keys of a target's links with its count,
 * under `col LIKE $1 ESCAPE '!'` (what DuckDB runs for any bound pattern) and under
 * `contains(col, $1)` (what the `duckdb` dialect lowers `'%word%'` to), for ten words on each text
 * column, in turns; prints the mean wall and CPU time of a statement of each form.
 *
 *   node --import tsx bench/server/text-conditions-probe.ts --db DATA/embedded/links-1000000.db [--target example.com]
 */
import { DuckDBInstance } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { db: { type: 'string' }, target: { type: 'string', default: 'example.com' } } });
if (!values.db) throw new Error('--db DATA/embedded/links-1000000.db is required (npm run bench:server seeds it)');
const db = resolve(values.db);
const target = values.target!;
const COLUMNS = ['anchor', 'source_title', 'source_url'];
const ROUNDS = 5;

// Ten words of each column, from the target's own links.
const sqlite = new Database(db, { readonly: true });
const words = Object.fromEntries(
  COLUMNS.map((column) => {
    const rows = sqlite.prepare(`SELECT ${column} AS v FROM links WHERE target_domain = ? ORDER BY id LIMIT 2000`).all(target) as { v: string }[];
    const found = [...new Set(rows.flatMap((row) => row.v.split(/[^A-Za-z]+/)).filter((word) => word.length >= 4))];
    return [column, found.slice(0, 10)];
  }),
);
sqlite.close();

const duck = await DuckDBInstance.create(`${db}.duckdb`, { access_mode: 'READ_ONLY' });
const connection = await duck.connect();
const page = (condition: string) => `SELECT id, count(*) OVER () AS total FROM links WHERE target_domain = $1 AND ${condition} ORDER BY page_score DESC, id LIMIT 100`;
const forms = {
  "LIKE $1 ESCAPE '!'": (column: string, word: string) => [page(`${column} LIKE $2 ESCAPE '!'`), `%${word}%`] as const,
  'contains(col, $1)': (column: string, word: string) => [page(`contains(${column}, $2)`), word] as const,
};
console.log('| column | form | wall ms | CPU ms |');
console.log('| --- | --- | ---: | ---: |');
for (const column of COLUMNS) {
  for (const [name, form] of Object.entries(forms)) {
    // A first round unmeasured (the column's segments read), then the rounds timed.
    for (const measured of [false, true]) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      let statements = 0;
      for (let round = 0; round < (measured ? ROUNDS : 1); round++) {
        for (const word of words[column]!) {
          const [text, value] = form(column, word);
          await (await connection.run(text, [target, value])).getRows();
          statements++;
        }
      }
      if (!measured) continue;
      const used = process.cpuUsage(cpu);
      console.log(`| ${column} | \`${name}\` | ${((performance.now() - started) / statements).toFixed(2)} | ${((used.user + used.system) / 1000 / statements).toFixed(2)} |`);
    }
  }
}
connection.closeSync();
duck.closeSync();
