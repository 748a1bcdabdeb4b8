/**
 * The store's typed errors where they are thrown: a database newer than the code (StoreError
 * `schema_too_new`), a record that cannot be stored (`invalid_record`), and a statement a SQLite
 * worker thread refused (StoreQueryError with SQLite's own code, as better-sqlite3 gives it on the
 * calling thread).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { isStoreError, isStoreQueryError } from '../../../../src/server/store/errors.js';
import { linkRow } from '../../../../src/server/store/inputs.js';
import { sql } from '../../../../src/server/store/fragment.js';
import { isStoreUnavailable } from '../../../../src/server/store/connection.js';
import { workerConnection } from '../../../../src/server/store/engines/sqlite/connection.js';
import { migrate, MIGRATIONS } from '../../../../src/server/store/engines/sqlite/schema.js';
import { exampleLinks } from '../../../server/support/fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'bq-store-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rejection = (promise: Promise<unknown>) => promise.then(() => expect.unreachable('it succeeded'), (error: unknown) => error);

describe('the store errors', () => {
  it('a database migrated by a newer version: StoreError schema_too_new', () => {
    const db = new Database(':memory:');
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    let error: unknown;
    try {
      migrate(db);
    } catch (e) {
      error = e;
    } finally {
      db.close();
    }
    expect(isStoreError(error) && [error.code, error.message]).toEqual([
      'schema_too_new',
      `The database schema (version ${MIGRATIONS.length + 1}) is newer than this server knows (${MIGRATIONS.length}).`,
    ]);
  });

  it('a link whose target URL has no host: StoreError invalid_record', () => {
    let error: unknown;
    try {
      linkRow({ ...exampleLinks[0]!, target_url: 'no host here' }, { getDomain: () => null });
    } catch (e) {
      error = e;
    }
    expect(isStoreError(error) && [error.code, error.message]).toEqual(['invalid_record', 'Not a URL with a host: no host here']);
  });

  it("a statement a SQLite worker refused: StoreQueryError with SQLite's code", async () => {
    const file = join(dir, 'worker.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (x INTEGER PRIMARY KEY)');
    db.close();
    const connection = await workerConnection(file, { readers: 1 });
    try {
      await connection.write(sql`INSERT INTO t (x) VALUES (${1})`);
      const duplicate = await rejection(connection.write(sql`INSERT INTO t (x) VALUES (${1})`));
      expect(isStoreQueryError(duplicate) && [duplicate.code, duplicate.name]).toEqual(['SQLITE_CONSTRAINT_PRIMARYKEY', 'StoreQueryError']);
      expect(isStoreUnavailable(duplicate)).toBe(false);
      const unknown = await rejection(connection.all(sql`SELECT * FROM missing`));
      expect(isStoreQueryError(unknown) && [unknown.code, unknown.message]).toEqual(['SQLITE_ERROR', 'no such table: missing']);
    } finally {
      await connection.close();
    }
  });
});
