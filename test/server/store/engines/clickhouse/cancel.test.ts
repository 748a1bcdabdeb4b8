/**
 * ClickHouse stops the queries of an abandoned call, and of a call past its time bound: the
 * request is dropped and the query killed by its id (`KILL QUERY`), on the real servers of the
 * test cluster (Debian's 18.16), so that it no longer shows in `system.processes` on any shard.
 * The queries run inside `forCall`, as the routes run them. Each query carries a number found
 * nowhere else, so the watcher finds its parts on every shard (a shard's part of a distributed
 * query has its own id and text, with the same condition).
 */
import { describe, expect, inject, it } from 'vitest';
import { forCall, QueryCancelledError } from '../../../../../src/server/store/call-signal.js';
import { ClickhouseShard } from '../../../../../src/server/store/engines/clickhouse/connection.js';
import { StoreUnavailableError } from '../../../../../src/server/store/connection.js';
import { raw } from '../../../../../src/server/store/fragment.js';

function clusterUrls(): string[] {
  const cluster = inject('clickhouseClusterUrl');
  if (!cluster) throw new Error('clickhouseClusterUrl was not provided: the global setup started no ClickHouse cluster (see test/setup/engine-selection.ts).');
  return cluster.split(',');
}

/** How many queries whose text holds `mark` run on each shard (the watcher's own query left out). */
function running(urls: readonly string[], mark: number): Promise<number[]> {
  return Promise.all(
    urls.map(async (url) => {
      const watcher = new ClickhouseShard({ url, database: 'default' });
      const [row] = await watcher.all<{ n: number }>(raw(`SELECT count() AS n FROM system.processes WHERE query LIKE '%${mark}%' AND query NOT LIKE '%system.processes%'`));
      return Number(row!.n);
    }),
  );
}

describe('ClickHouse', () => {
  /** Runs `query` for a call, waits until `started` says it runs, abandons the call, and expects it cancelled and gone on every shard. */
  async function abandon(urls: readonly string[], query: string, mark: number, started: (running: number[]) => boolean): Promise<void> {
    const shard = new ClickhouseShard({ url: urls[0]!, database: 'default', timeoutMs: 120_000 });
    const call = new AbortController();
    const pending = forCall(call.signal, () => shard.all(raw(query)));
    pending.catch(() => undefined);
    await expect.poll(async () => started(await running(urls, mark)), { timeout: 10_000 }).toBe(true);
    call.abort();
    await expect(pending).rejects.toBeInstanceOf(QueryCancelledError);
    await expect.poll(() => running(urls, mark), { timeout: 10_000 }).toEqual([0, 0]);
  }

  it('kills the running query of an abandoned call', async () => {
    const mark = 918273645;
    await abandon(clusterUrls(), `SELECT sum(number) AS s FROM system.numbers WHERE number != ${mark}`, mark, ([first]) => first === 1);
  });

  it('kills every shard\'s part of an abandoned distributed query', async () => {
    const mark = 827364519;
    // Shard 1 runs the query and its own part; shard 2 its part.
    await abandon(clusterUrls(), `SELECT sum(number) AS s FROM cluster('bq_cluster', system, numbers) WHERE number != ${mark}`, mark, (n) => n.every((x) => x > 0));
  });

  it('kills a query that outlives its time bound, when the server does not stop it itself', async () => {
    const urls = clusterUrls();
    const shard = new ClickhouseShard({ url: urls[0]!, database: 'default', timeoutMs: 1_000 });
    const mark = 736451928;
    // The query lifts the server's own time limit, which the connection sets from the bound: only the client's bound is left.
    const pending = shard.all(raw(`SELECT sum(number) AS s FROM system.numbers WHERE number != ${mark} SETTINGS max_execution_time = 0`));
    await expect(pending).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect.poll(() => running(urls, mark), { timeout: 10_000 }).toEqual([0, 0]);
  });
});
