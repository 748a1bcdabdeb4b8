/**
 * A load beside a running server (issue 50): `import` into the database `serve` answers from,
 * while a steady stream of calls runs against the server. No call fails; every answer is the
 * data as it was before the load or as it is after it, never half of it; once an answer shows the
 * load, no later call shows the data before it; and the first call after the import has ended
 * shows all of it. On the embedded store (the default) and on SQLite alone; PostgreSQL and
 * ClickHouse in beside-server-postgres.test.ts and beside-server-clickhouse.test.ts. The states,
 * counted by hand, and the streams: beside-server-kit.ts.
 */
import { describe, expect, it } from 'vitest';
import { AFTER, besideServer, expectOneStateEach } from './beside-server-kit.js';

const { loadWhileServing, newDb } = besideServer('bq-import-beside-server-');

describe('import beside a running server', () => {
  it('into the embedded store: no call fails, each answer is the data before or after the load, the first after it sees all of it', async () => {
    const { calls, first } = await loadWhileServing(['--db', newDb()]);
    expectOneStateEach(calls);
    expect(first).toEqual(AFTER);
  });

  it('into SQLite alone, the same', async () => {
    const { calls, first } = await loadWhileServing(['--database-url', `sqlite:${newDb()}`]);
    expectOneStateEach(calls);
    expect(first).toEqual(AFTER);
  });
});
