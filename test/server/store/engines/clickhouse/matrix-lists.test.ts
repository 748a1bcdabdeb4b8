/**
 * The matrix on the ClickHouse cluster from each target's referring-domain list, kept by the
 * read-cache while the target domain's rollup version stays the same: a load by another process
 * (another store on the same database) changes the next answer at once.
 *
 * By hand, from the fixture (test/server/support/fixture.ts): example.com's referring domains are
 * alpha.org (2 links), beta.net, gamma.io (2), delta.de and epsilon.fr; rival.com's alpha.org,
 * beta.net, gamma.io, delta.de, epsilon.fr and zeta.com, one link each. So the matrix of the two,
 * by domain, is alpha.org [2, 1], beta.net [1, 1], delta.de [1, 1], epsilon.fr [1, 1], gamma.io
 * [2, 1], zeta.com [0, 1]; a load of a link from iota.com to example.com adds iota.com [1, 0].
 *
 * On the real two-shard test cluster (scripts/engines/clickhouse.sh).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadServerDeps, type DomainParser } from '../../../../../src/server/deps.js';
import { openClickhouseStore, type ClickhouseStore } from '../../../../../src/server/store/engines/clickhouse/clickhouse-store.js';
import { openLedgerAt } from '../../../../../src/server/store/open.js';
import { toTarget } from '../../../../../src/server/target.js';
import { linkDefaults, loadFixture } from '../../../support/fixture.js';

const database = `bq_matrix_${Math.random().toString(36).slice(2, 10)}`;
let urls: string[];
let dir: string;
let parser: DomainParser;
const stores: ClickhouseStore[] = [];

const open = async (name: string, rollups = true) => {
  const store = await openClickhouseStore({ urls, database, parser, rollups, ledger: await openLedgerAt({ kind: 'sqlite', file: join(dir, `${name}.db`) }) });
  stores.push(store);
  return store;
};

beforeAll(async () => {
  const cluster = inject('clickhouseClusterUrl');
  if (!cluster) throw new Error('clickhouseClusterUrl was not provided: the global setup started no ClickHouse cluster (see test/setup/engine-selection.ts).');
  urls = cluster.split(',');
  parser = (await loadServerDeps()).tldts;
  dir = mkdtempSync(join(tmpdir(), 'bq-matrix-ch-'));
  await loadFixture(await open('loader'));
}, 120_000);

afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  for (const url of urls ?? []) await fetch(`${url}/`, { method: 'POST', body: `DROP DATABASE IF EXISTS ${database}` });
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const query = () => ({
  targets: [toTarget('example.com', 'ROOT_DOMAIN', parser)!, toTarget('rival.com', 'ROOT_DOMAIN', parser)!],
  page: { orderBy: 'domain', direction: 'ASC' as const, limit: 100, offset: 0 },
  filter: null,
});
const shape = async (store: ClickhouseStore) => (await store.matrix(query())).rows.map((row) => `${row.domain} ${row.backlinks_counts.join(',')} ${row.matches_count}`);

describe('the matrix from kept lists on the cluster', () => {
  it('answers from the lists as counted by hand, and again after another process loads', async () => {
    const reader = await open('reader');
    const before = ['alpha.org 2,1 2', 'beta.net 1,1 2', 'delta.de 1,1 2', 'epsilon.fr 1,1 2', 'gamma.io 2,1 2', 'zeta.com 0,1 1'];
    expect(await shape(reader)).toEqual(before);
    // Kept: the same answer again.
    expect(await shape(reader)).toEqual(before);

    const other = await open('other');
    const writer = await other.writer();
    await writer.links([{ ...linkDefaults, source_url: 'https://iota.com/', target_url: 'https://example.com/', anchor: 'link', source_domain: 'iota.com' }]);
    await writer.finish();
    const after = ['alpha.org 2,1 2', 'beta.net 1,1 2', 'delta.de 1,1 2', 'epsilon.fr 1,1 2', 'gamma.io 2,1 2', 'iota.com 1,0 1', 'zeta.com 0,1 1'];
    expect(await shape(reader)).toEqual(after);
    // The links grouped per call agree.
    expect(await (await open('links', false)).matrix(query())).toEqual(await reader.matrix(query()));
  }, 120_000);
});
