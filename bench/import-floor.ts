/**
 * The floor of SQLite's part of an import, for bench/RESULTS.md ("Why 50,000 links/s is out of reach"): the link rows of
 * a database that `bench/import-run.ts` left (its `--dir`), copied by SQLite itself (no JavaScript per row) into a fresh
 * database of the store's schema, then its secondary link indexes built.
 *
 *   node --import tsx bench/import-floor.ts /tmp/bq-import-bench/import-ndjson.db /tmp/bq-floor.db
 */
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { migrate } from '../src/server/store/engines/sqlite/schema.js';

const [from, to] = process.argv.slice(2) as [string, string];
if (!from || !to) throw new TypeError('usage: bench/import-floor.ts FROM.db TO.db');
for (const suffix of ['', '-wal', '-shm']) rmSync(`${to}${suffix}`, { force: true });
const db = new Database(to);
migrate(db);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = OFF');
db.pragma('cache_size = -1048576');
db.pragma('threads = 2');
const indexes = db
  .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'links' AND sql IS NOT NULL AND name <> 'links_identity'`)
  .all() as { name: string; sql: string }[];
for (const index of indexes) db.exec(`DROP INDEX "${index.name}"`);
db.prepare('ATTACH ? AS src').run(from);
let started = performance.now();
db.exec('BEGIN');
db.exec('INSERT INTO links SELECT * FROM src.links');
console.log(`rows copied by SQLite (with the identity index): ${((performance.now() - started) / 1000).toFixed(1)} s`);
started = performance.now();
for (const index of indexes) db.exec(index.sql);
db.exec('COMMIT');
console.log(`${indexes.length} secondary link indexes and the commit: ${((performance.now() - started) / 1000).toFixed(1)} s`);
db.close();
for (const suffix of ['', '-wal', '-shm']) rmSync(`${to}${suffix}`, { force: true });
