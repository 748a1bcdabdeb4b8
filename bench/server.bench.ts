/**
 * The reference server on the sample database: time to seed, then the median and p95 latency of
 * each operation over real HTTP on 127.0.0.1 (sequential calls, so each figure is one request's
 * full cost: routing, auth, validation, SQLite query, charge, serialization).
 *
 * Run alone: `npx tsx bench/server.bench.ts [links]` (default 50,000 links, seed 1).
 */
import { performance } from 'node:perf_hooks';
import { loadServerDeps } from '../src/server/deps.js';
import { seedSample } from '../src/server/sample/generate.js';
import { startServer } from '../src/server/server.js';
import { openSqliteStore } from '../src/server/store/sqlite/sqlite-store.js';

const KEY = 'bench-key-0000';
const BASE = '/_api/apis/v4/backlinks/v1';
const CALLS: [string, string][] = [
  ['overview', `${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`],
  ['links (100)', `${BASE}/links?url=example.com&scope=ROOT_DOMAIN`],
  ['links filtered', `${BASE}/links?url=example.com&scope=ROOT_DOMAIN&filter=${encodeURIComponent("domain_score > 30 AND anchor LIKE '%seo%'")}`],
  ['ref-domains', `${BASE}/ref-domains?url=example.com&scope=ROOT_DOMAIN`],
  ['ref-ips', `${BASE}/ref-ips?url=example.com&scope=ROOT_DOMAIN`],
  ['pages', `${BASE}/pages?url=example.com&scope=ROOT_DOMAIN`],
  ['anchors (csv)', `${BASE}/anchors?url=example.com&scope=ROOT_DOMAIN&format=csv`],
  ['score-profile', `${BASE}/score-profile?url=example.com&scope=ROOT_DOMAIN`],
  ['summary', `${BASE}/summary?url=example.com&scope=ROOT_DOMAIN`],
  ['competitors', `${BASE}/competitors?domain=example.com`],
  ['comparison (3)', `${BASE}/comparison?urls=example.com,www.example.com,blog.example.com&scope=SUBDOMAIN`],
  ['matrix (2)', `${BASE}/matrix?urls=example.com,www.example.com&scope=SUBDOMAIN`],
  ['metrics', `/_api/apis/v4/keywords/v1/metrics?keyword=seo+tools&country=US`],
];

async function main(): Promise<void> {
  const links = Number(process.argv[2] ?? 50_000);
  const { tldts } = await loadServerDeps();
  const store = await openSqliteStore();
  const now = new Date('2026-06-15T00:00:00Z');
  let started = performance.now();
  await seedSample(store, tldts, { links, seed: 1, now });
  console.log(`# server bench (node ${process.version}): seeded ${links.toLocaleString('en-US')} links in ${((performance.now() - started) / 1000).toFixed(2)} s`);
  const server = await startServer({ store, keys: [{ id: 'bench', key: KEY, units: 1e12 }], now: () => now, port: 0, rateLimits: { perSecond: 1e9, concurrent: 1e9 } });
  console.log('| operation | median ms | p95 ms |\n| --- | ---: | ---: |');
  for (const [name, path] of CALLS) {
    const times: number[] = [];
    for (let i = 0; i < 40; i++) {
      started = performance.now();
      const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Apikey ${KEY}` } });
      await response.text();
      if (response.status !== 200) throw new Error(`${name}: ${response.status}`);
      if (i >= 5) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(`| ${name} | ${times[Math.floor(times.length / 2)]!.toFixed(2)} | ${times[Math.floor(times.length * 0.95)]!.toFixed(2)} |`);
  }
  await server.close();
}

await main();
