/**
 * The rollup differential suite on ClickHouse: a fresh database on the two-shard test cluster,
 * answered from the rollups (their current version per domain) and from the links grouped per call.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { loadServerDeps } from '../../../../../src/server/deps.js';
import { openClickhouseStore } from '../../../../../src/server/store/engines/clickhouse/clickhouse-store.js';
import { openLedgerAt } from '../../../../../src/server/store/open.js';
import { rollupSuite } from '../../loads/rollup-suite.js';

rollupSuite('ClickHouse (two shards)', async () => {
  const urls = inject('clickhouseClusterUrl');
  if (!urls) throw new Error('clickhouseClusterUrl was not provided: the global setup started no ClickHouse cluster (see test/setup/engine-selection.ts).');
  const { tldts } = await loadServerDeps();
  const dir = mkdtempSync(join(tmpdir(), 'bq-rollups-ch-'));
  const database = `bq_rollups_${Math.random().toString(36).slice(2, 10)}`;
  const options = { urls: urls.split(','), database, parser: tldts };
  // Three rows kept per list: the generated targets' unfiltered pages in the default order read kept rows too.
  // Domains of more than three links spread over both shards, moved by the loads (the rollups side
  // writes): both sides read them where they live, the links side told by the store's record.
  const rollups = await openClickhouseStore({ ...options, keepRows: 3, spreadAbove: 3, ledger: await openLedgerAt({ kind: 'sqlite', file: join(dir, 'a.db') }) });
  // The links side also reads pages of links in one query and counts a filtered list in a query of
  // its own; the rollups side reads keys first and takes the count from the page's query: the suite
  // compares the two ways.
  const links = await openClickhouseStore({ ...options, rollups: false, pagesByKeys: false, totalsWithPages: false, ledger: await openLedgerAt({ kind: 'sqlite', file: join(dir, 'b.db') }) });
  return {
    rollups,
    links,
    close: async () => {
      await Promise.all([rollups.close(), links.close()]);
      for (const url of urls.split(',')) await fetch(`${url}/`, { method: 'POST', body: `DROP DATABASE IF EXISTS ${database}` });
      rmSync(dir, { recursive: true, force: true });
    },
  };
  // Every call is an HTTP round trip to two shards: 4 generated cases per operation and target (not
  // SQLite's 25) keep it under a minute, most of it the writes; ROLLUP_RUNS=25 runs them all.
}, { timeoutMs: 600_000, runs: 4 });
