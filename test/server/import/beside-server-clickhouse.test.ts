/**
 * A load beside a running server on ClickHouse (issue 50), as beside-server.test.ts runs it on the
 * embedded store and SQLite: `import` into the cluster `serve` answers from while four streams of
 * calls run. ClickHouse has no transactions, so less holds than on the other stores (what a call
 * during a load may see: docs/importing.md, "Loading while the server runs"): no call fails, each
 * overview is the one before the load or the one after it (a domain's rollups switch whole, when
 * their new version is recorded), and the first call after the import sees all of it.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { AFTER, BEFORE, besideServer, expectEnoughCalls } from './beside-server-kit.js';

const { loadWhileServing, newDb } = besideServer('bq-import-beside-clickhouse-');

const databases: string[] = [];
afterAll(async () => {
  for (const url of inject('clickhouseClusterUrl')?.split(',') ?? []) {
    for (const name of databases) await fetch(`${url}/`, { method: 'POST', body: `DROP DATABASE IF EXISTS ${name}` });
  }
});

describe('import beside a running server (ClickHouse, two shards)', () => {
  it('no call fails, each overview is the one before or after the load, the first call after it sees all of it', async () => {
    const urls = inject('clickhouseClusterUrl');
    if (!urls) throw new Error('clickhouseClusterUrl was not provided: the global setup started no ClickHouse cluster (see test/setup/engine-selection.ts).');
    const database = `bq_beside_${Math.random().toString(36).slice(2, 10)}`;
    databases.push(database);
    const ledger = join(newDb(), '..', `${database}-ledger.db`);
    const { calls, first } = await loadWhileServing(['--database-url', `clickhouse://${urls.replaceAll('http://', '')}/${database}?ledger=${encodeURIComponent(ledger)}`]);
    expectEnoughCalls(calls);
    for (const { kind, seen } of calls) if (kind === 'overview') expect([BEFORE.overview, AFTER.overview]).toContain(seen);
    expect(first).toEqual(AFTER);
  });
});
