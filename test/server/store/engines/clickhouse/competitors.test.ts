/**
 * The ClickHouse store lists competitors from a graph it holds in memory (`competitor-graph.ts`).
 * It must stay exact: a write by this store, and a write by another store on the same cluster (as
 * another server process would), shows in the next call.
 *
 * The data is written here and the expectations by hand from the interface's definition
 * (similarity = shared referring domains / all referring domains of the two; listed from 5 shared
 * and similarity 0.01): a.test is linked from s1..s6.test, b.test from s1..s6.test, then c.test from
 * s1..s5.test and s9.test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { loadServerDeps } from '../../../../../src/server/deps.js';
import { openClickhouseStore, type ClickhouseStore } from '../../../../../src/server/store/engines/clickhouse/clickhouse-store.js';
import type { LinkInput } from '../../../../../src/server/store/inputs.js';
import { openLedgerAt } from '../../../../../src/server/store/open.js';
import type { Page } from '../../../../../src/server/store/store.js';
import * as fx from '../../../support/fixture.js';

const page: Page = { orderBy: 'similarity', direction: 'DESC', limit: 100, offset: 0 };
const database = `bq_competitors_${Math.random().toString(36).slice(2, 10)}`;
let urls: string[];
let dir: string;
let store: ClickhouseStore;
let other: ClickhouseStore;

/** One link from https://<source>/ to https://<target>/. */
const link = (source: string, target: string): LinkInput => ({
  ...fx.exampleLinks[0]!,
  source_url: `https://${source}/`,
  target_url: `https://${target}/`,
  source_domain: source,
});
const from = (target: string, sources: readonly number[]) => sources.map((s) => link(`s${s}.test`, target));

beforeAll(async () => {
  const cluster = inject('clickhouseClusterUrl');
  if (!cluster) throw new Error('clickhouseClusterUrl was not provided: the global setup started no ClickHouse cluster (see test/setup/engine-selection.ts).');
  urls = cluster.split(',');
  const { tldts } = await loadServerDeps();
  dir = mkdtempSync(join(tmpdir(), 'bq-competitors-ch-'));
  const open = async (ledger: string) => openClickhouseStore({ urls, database, parser: tldts, ledger: await openLedgerAt({ kind: 'sqlite', file: join(dir, ledger) }) });
  store = await open('a.db');
  other = await open('b.db');
}, 120_000);

afterAll(async () => {
  await Promise.all([store?.close(), other?.close()]);
  for (const url of urls ?? []) await fetch(`${url}/`, { method: 'POST', body: `DROP DATABASE IF EXISTS ${database}` });
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function write(into: ClickhouseStore, links: LinkInput[]): Promise<void> {
  const writer = await into.writer();
  await writer.links(links);
  await writer.finish();
}

describe('ClickHouse store: competitors from the graph in memory', () => {
  it('lists the competitors of the written links, and follows writes of this store and of another one', async () => {
    await write(store, [...from('a.test', [1, 2, 3, 4, 5, 6]), ...from('b.test', [1, 2, 3, 4, 5, 6])]);
    expect(await store.competitors({ domain: 'a.test', page })).toEqual({ total: 1, rows: [{ domain: 'b.test', similarity: 1, common_refdomains: 6 }] });
    expect(await store.competitors({ domain: 'nothing.test', page })).toEqual({ total: 0, rows: [] });

    // Another store (another process) writes c.test: 5 shared with a.test of 7 in all.
    await write(other, from('c.test', [1, 2, 3, 4, 5, 9]));
    expect(await store.competitors({ domain: 'a.test', page })).toEqual({
      total: 2,
      rows: [
        { domain: 'b.test', similarity: 1, common_refdomains: 6 },
        { domain: 'c.test', similarity: 5 / 7, common_refdomains: 5 },
      ],
    });

    // This store writes b.test's links from s7..s10 too: 6 shared of 10.
    await write(store, from('b.test', [7, 8, 9, 10]));
    expect(await store.competitors({ domain: 'a.test', page })).toEqual({
      total: 2,
      rows: [
        { domain: 'c.test', similarity: 5 / 7, common_refdomains: 5 },
        { domain: 'b.test', similarity: 6 / 10, common_refdomains: 6 },
      ],
    });
    // And the other store, whose graph was never read, agrees.
    expect(await other.competitors({ domain: 'c.test', page })).toEqual({
      total: 2,
      rows: [
        { domain: 'a.test', similarity: 5 / 7, common_refdomains: 5 },
        { domain: 'b.test', similarity: 6 / 10, common_refdomains: 6 },
      ],
    });
  });
});
