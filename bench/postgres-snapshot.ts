/**
 * Times one call with and without a snapshot per call on PostgreSQL (`snapshotPerCall`, see
 * docs/importing.md, "Loading while the server runs"): two servers in this process over one
 * database, asked the same calls in turn (the order alternating each round), the first 20 rounds
 * left out. Loads its own data into the database it is given (an empty one): ACME links to
 * acme.test, and 20,000 links to 400 other targets. Prints p50 and p90 per call and mode.
 *
 *   node --import tsx bench/postgres-snapshot.ts postgres://USER@HOST:PORT/EMPTY_DB [ROUNDS=400] [ACME=5000]
 */
import * as tldts from 'tldts';
import { createServer } from '../src/server/server.js';
import { openPostgresStore } from '../src/server/store/engines/postgres/postgres-store.js';
import type { LinkInput } from '../src/server/store/inputs.js';

const url = process.argv[2]!;
const N = Number(process.argv[3] ?? 400);
const link = (i: number, target: string): LinkInput => ({
  source_url: `https://s${i}.test/post/${i}`, target_url: `https://${target}/p${i % 50}`, anchor: `a${i % 300}`, redirect_url: '', source_title: 'A post', target_title: '', image_url: '',
  image_alt: '', ip_address: `198.51.${i % 200}.${i % 250}`, lang: 'en', source_size: 1000, external_links_count: 10, internal_links_count: 20, response_code: 200,
  page_score: i % 100, domain_score: (i * 7) % 100, first_seen_at: '2025-01-01T00:00:00', last_seen_at: '2026-06-01T00:00:00', source_domain: `s${i}.test`,
  is_nofollow: i % 3 === 0, is_ugc: false, is_sponsored: false, is_form: false, is_frame: false, is_image: false, is_sitewide_main: false, is_lost: false,
});
const loader = await openPostgresStore({ url, parser: tldts });
const writer = await loader.writer();
const links = Number(process.argv[4] ?? 5000);
for (let i = 0; i < links; i += 2000) await writer.links(Array.from({ length: Math.min(2000, links - i) }, (_, j) => link(i + j, 'acme.test')));
await writer.links(Array.from({ length: 20000 }, (_, j) => link(j, `t${j % 400}.test`)));
await writer.finish();
await loader.close();

const key = { id: 'k', key: 'timing-key-123456', units: 1e12 };
const app = async (snapshotPerCall: boolean) =>
  createServer({ store: await openPostgresStore({ url, parser: tldts, snapshotPerCall }), keys: [key], now: () => new Date('2026-06-15T12:00:00Z'), rateLimits: { perSecond: 1e9, concurrent: 1e9 } });
const apps = { snapshot: await app(true), separate: await app(false) };
const paths = {
  overview: 'overview?url=acme.test&scope=ROOT_DOMAIN',
  'links, filtered (count + page)': `links?url=acme.test&scope=ROOT_DOMAIN&filter=${encodeURIComponent('is_nofollow = false')}&limit=100`,
  'links, default': 'links?url=acme.test&scope=ROOT_DOMAIN&limit=100',
  'ref-domains': 'ref-domains?url=acme.test&scope=ROOT_DOMAIN&limit=100',
};
const times: Record<string, Record<string, number[]>> = {};
for (let round = 0; round < N; round++) {
  for (const [name, path] of Object.entries(paths)) {
    for (const [mode, server] of round % 2 ? Object.entries(apps) : Object.entries(apps).reverse()) {
      const started = performance.now();
      const response = await server.inject({ method: 'GET', url: `/_api/apis/v4/backlinks/v1/${path}`, headers: { authorization: `Apikey ${key.key}` } });
      const ms = performance.now() - started;
      if (response.statusCode !== 200) throw new Error(response.body);
      if (round >= 20) ((times[name] ??= {})[mode] ??= []).push(ms);
    }
  }
}
const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))]!;
for (const [name, modes] of Object.entries(times)) {
  console.log(name.padEnd(34), Object.entries(modes).map(([mode, xs]) => `${mode}: p50 ${q(xs, 0.5).toFixed(2)} ms, p90 ${q(xs, 0.9).toFixed(2)} ms`).join(' | '));
}
for (const server of Object.values(apps)) await server.close();
