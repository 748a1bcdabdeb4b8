/**
 * ClickHouse stops the query of an abandoned call: the request is dropped and the query killed by
 * its id (`KILL QUERY`), on the real server of the test cluster (Debian's 18.16), so it no longer
 * shows in `system.processes`. The query runs inside `forCall`, as the routes run it.
 */
import { describe, expect, inject, it } from 'vitest';
import { forCall, QueryCancelledError } from '../../src/server/store/call-signal.js';
import { ClickhouseShard } from '../../src/server/store/clickhouse/connection.js';
import { raw } from '../../src/server/store/sql/fragment.js';

describe('ClickHouse', () => {
  it('kills the running query of an abandoned call', async () => {
    const cluster = inject('clickhouseClusterUrl');
    if (!cluster) throw new Error('clickhouseClusterUrl was not provided: the global setup started no ClickHouse cluster (see test/setup/engine-selection.ts).');
    const url = cluster.split(',')[0]!;
    const shard = new ClickhouseShard({ url, database: 'default', timeoutMs: 120_000 });
    const watcher = new ClickhouseShard({ url, database: 'default' });
    // A query that reads numbers for as long as it is let run; marked so the watcher finds it.
    const running = () => watcher.all<{ n: number }>(raw(`SELECT count() AS n FROM system.processes WHERE query LIKE '%bq-cancel-test-mark%' AND query NOT LIKE '%system.processes%'`));
    const call = new AbortController();
    const pending = forCall(call.signal, () => shard.all(raw(`SELECT sum(number) AS s, 'bq-cancel-test-mark' AS m FROM system.numbers`)));
    pending.catch(() => undefined);
    await expect.poll(async () => (await running())[0]!.n, { timeout: 10_000 }).toBe(1);
    call.abort();
    await expect(pending).rejects.toBeInstanceOf(QueryCancelledError);
    await expect.poll(async () => (await running())[0]!.n, { timeout: 10_000 }).toBe(0);
  });
});
