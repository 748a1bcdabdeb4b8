/**
 * A load beside a running server on PostgreSQL (issue 50), as beside-server.test.ts checks it on
 * the embedded store and SQLite: `import` into the database `serve` answers from while four
 * streams of calls run. A load is one transaction: no call fails, every answer is the data before
 * the load or after it (a list's count and its page of one state), once an answer shows the load
 * no later call shows the data before it, and the first call after the import shows all of it;
 * into an empty store as into one with links.
 */
import { describe, expect, inject, it } from 'vitest';
import { freshPostgresDatabase } from '../support/postgres-database.js';
import { AFTER, AFTER_EMPTY, besideServer, EMPTY, expectOneStateEach } from './beside-server-kit.js';

const { loadWhileServing } = besideServer('bq-import-beside-postgres-');

describe('import beside a running server (PostgreSQL)', () => {
  it('no call fails, each answer is the data before or after the load, the first after it sees all of it', async () => {
    const url = await freshPostgresDatabase(inject('postgresUrl'), 'beside');
    const { calls, first } = await loadWhileServing(['--database-url', url]);
    expectOneStateEach(calls);
    expect(first).toEqual(AFTER);
  });

  it('into an empty store (the links written to a table of the load, put in place at its commit): the same, no call waits for the load', async () => {
    const url = await freshPostgresDatabase(inject('postgresUrl'), 'beside_empty');
    const { calls, first } = await loadWhileServing(['--database-url', url], { empty: true });
    expectOneStateEach(calls, EMPTY, AFTER_EMPTY);
    expect(first).toEqual(AFTER_EMPTY);
  });
});
