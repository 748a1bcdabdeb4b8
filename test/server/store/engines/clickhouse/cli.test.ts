/**
 * The ClickHouse store as users select it: `seed` and `serve` with `--database-url clickhouse://...`
 * on the two-shard test cluster, checked against the sample's known numbers and against a count
 * taken straight from the cluster's links; and the URL's parts (`clickhouseLocation`), by hand.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { clickhouseLocation, storeLocation } from '../../../../../src/cli/server/location.js';
import { spawnCli, waitFor } from '../../../support/cli-process.js';
import { BASE } from '../../../support/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'bq-clickhouse-cli-'));
const database = `bq_cli_${Math.random().toString(36).slice(2, 10)}`;

function cluster(): string[] {
  const urls = inject('clickhouseClusterUrl');
  if (!urls) throw new Error('clickhouseClusterUrl was not provided: the global setup started no ClickHouse cluster (see test/setup/engine-selection.ts).');
  return urls.split(',');
}

afterAll(async () => {
  for (const url of inject('clickhouseClusterUrl')?.split(',') ?? []) await fetch(`${url}/`, { method: 'POST', body: `DROP DATABASE IF EXISTS ${database}` });
  rmSync(dir, { recursive: true, force: true });
});

describe('--database-url clickhouse://', () => {
  it('seed fills the cluster; serve answers from it and exits 0 on SIGTERM', async () => {
    const url = `clickhouse://${cluster().map((u) => u.replace('http://', '')).join(',')}/${database}?ledger=${encodeURIComponent(join(dir, 'ledger.db'))}`;
    const seed = spawnCli(['seed', '--links', '1500', '--seed', '3', '--database-url', url, '--now', '2026-06-15']);
    expect(await seed.exit, seed.err()).toBe(0);
    expect(seed.err()).toMatch(/Sample data ready in [\d.]+ s: 1,500 links/);

    const serve = spawnCli(['serve', '--port', '0', '--database-url', url, '--now', '2026-06-15', '--quiet'], { BACKLINK_QUERY_KEYS: 'ci:ci-key-123456:1000' });
    const [, base] = await waitFor(serve.out, /listening on (http:\/\/127\.0\.0\.1:\d+)/, serve.exit);
    const response = await fetch(`${base}${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`, { headers: { authorization: 'Apikey ci-key-123456' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-units-remaining')).toBe('955');
    // docs/server.md: 1,500 links, seed 3, now 2026-06-15 give example.com 570 links from 98
    // referring domains, 145 of them nofollow. Counted here straight from the cluster's links.
    const counted = await fetch(`${cluster()[0]}/?database=${database}`, {
      method: 'POST',
      body: `SELECT count() AS backlinks, uniqExact(source_domain) AS domains, sum(is_nofollow) AS nofollows FROM links FINAL WHERE target_domain = 'example.com' FORMAT JSONEachRow`,
    });
    expect(JSON.parse(await counted.text())).toEqual({ backlinks: '570', domains: '98', nofollows: '145' });
    const { data } = await response.json();
    expect({ backlinks: data.backlinks_count, domains: data.domains_count, nofollows: data.nofollows_count }).toEqual({ backlinks: 570, domains: 98, nofollows: 145 });
    serve.child.kill('SIGTERM');
    expect(await serve.exit).toBe(0);
  });
});

describe('clickhouseLocation', () => {
  it('reads the shards, database, cluster, ledger and credentials', () => {
    expect(clickhouseLocation('clickhouse://reader:s%40cret@10.0.0.1:8123,10.0.0.2:8124/links?cluster=two&ledger=postgres://db/keys')).toEqual({
      kind: 'clickhouse',
      url: 'clickhouse://reader:s%40cret@10.0.0.1:8123,10.0.0.2:8124/links?cluster=two&ledger=postgres://db/keys',
      shards: ['http://10.0.0.1:8123', 'http://10.0.0.2:8124'],
      database: 'links',
      cluster: 'two',
      ledger: 'postgres://db/keys',
      user: 'reader',
      password: 's@cret',
    });
  });

  it('defaults the database, the cluster and the ledger', () => {
    expect(clickhouseLocation('clickhouse://127.0.0.1:8123')).toEqual({
      kind: 'clickhouse',
      url: 'clickhouse://127.0.0.1:8123',
      shards: ['http://127.0.0.1:8123'],
      database: 'backlinks',
      cluster: 'bq_cluster',
      ledger: '.backlink-query/ledger.db',
    });
  });

  it('reads the threshold past which a load spreads a domain over every shard: a number of links, or never', () => {
    expect(clickhouseLocation('clickhouse://127.0.0.1:8123?spread_above=1')).toMatchObject({ spreadAbove: 1 });
    expect(clickhouseLocation('clickhouse://127.0.0.1:8123?spread_above=250000')).toMatchObject({ spreadAbove: 250_000 });
    expect(clickhouseLocation('clickhouse://127.0.0.1:8123?spread_above=never')).toMatchObject({ spreadAbove: Infinity });
    expect(clickhouseLocation('clickhouse://127.0.0.1:8123')).not.toHaveProperty('spreadAbove');
  });

  it.each([
    ['clickhouse://127.0.0.1:8123?spread_above=0', /spread_above is a number of links \(1 or more\) or never; got "0"/],
    ['clickhouse://127.0.0.1:8123?spread_above=-5', /spread_above is a number of links/],
    ['clickhouse://127.0.0.1:8123?spread_above=1e6', /spread_above is a number of links/],
    ['clickhouse://127.0.0.1:8123?spread_above=', /spread_above is a number of links/],
    ['clickhouse://127.0.0.1/links', /each ClickHouse shard is host:port/],
    ['clickhouse://127.0.0.1:8123/drop;table', /database must be letters, digits and _/],
    ['clickhouse://127.0.0.1:8123/links?cluster=a-b', /cluster must be letters, digits and _/],
  ])('refuses %s with a usage message', (url, message) => {
    expect(clickhouseLocation(url)).toMatch(message);
  });

  it('is what --database-url selects, and hides the password in messages', () => {
    expect(storeLocation({ 'database-url': 'clickhouse://127.0.0.1:8123' }, {}, 'x.db')).toMatchObject({ kind: 'clickhouse' });
    expect(storeLocation({ 'database-url': 'mysql://u:p@h/db' }, {}, 'x.db')).toBe('--database-url must be postgres://..., clickhouse://... or sqlite:FILE; got "mysql://***@h/db".');
  });
});
