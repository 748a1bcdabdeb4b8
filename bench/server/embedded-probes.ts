/**
 * Two timings of the embedded store that docs/design-store.md quotes, on a database the bench seeded:
 *
 * - competitors: the first call after opening (reading the referrer graph), counting the largest
 *   target, then the same call again (its kept list);
 * - a rollup list's page rows by key: the 100 keys of a page of example.com's referring domains
 *   matched as `IN` with one parameter per key, as a `VALUES` table, and as `IN (SELECT unnest(?))`
 *   of one bound list (what the store sends), medians of 7, interleaved.
 *
 * - the matrix of the three largest targets (example.com, linbri.com, wixvo.com): the first call
 *   (reading the lists and merging their union), the same call again (median of 7), and a filtered
 *   call on the kept union (median of 7).
 *
 * Run: `npx tsx bench/server/embedded-probes.ts .bench-data/embedded/links-10000000.db`
 * (the column file is opened read-only; stop any server on it first only if it writes).
 */
import { performance } from 'node:perf_hooks';
import { loadServerDeps } from '../../src/server/deps.js';
import { clockAt } from '../../src/server/clock.js';
import { openEmbeddedStore } from '../../src/server/store/engines/embedded/embedded-store.js';
import { join, sql } from '../../src/server/store/fragment.js';
import { groupedRows, SQL_SOURCES } from '../../src/server/store/reads/relations.js';
import { toTarget } from '../../src/server/target.js';
import { parseFilter } from '../../src/syntax/parse.js';

const file = process.argv[2];
if (!file) {
  process.stderr.write('Usage: npx tsx bench/server/embedded-probes.ts FILE (an embedded store the bench seeded)\n');
  process.exit(2);
}
const TARGET = 'example.com';
const { tldts } = await loadServerDeps();
const store = await openEmbeddedStore({ file, parser: tldts, readOnly: true });

const median = (times: number[]) => [...times].sort((a, b) => a - b)[times.length >> 1]!;
const time = async (work: () => Promise<unknown>) => {
  const start = performance.now();
  await work();
  return performance.now() - start;
};

try {
  const page = { orderBy: 'common_refdomains', direction: 'DESC' as const, limit: 100, offset: 0 };
  // Another domain first: its call reads the graph; then the target's first call is its count alone.
  const graph = await time(() => store.competitors({ domain: 'wixvo.com', page }));
  const count = await time(() => store.competitors({ domain: TARGET, page }));
  const again: number[] = [];
  for (let i = 0; i < 7; i++) again.push(await time(() => store.competitors({ domain: TARGET, page })));
  console.log(`competitors: first call after opening (graph read + counting wixvo.com) ${graph.toFixed(0)} ms; counting ${TARGET} ${count.toFixed(1)} ms; its kept list, median of 7, ${median(again).toFixed(2)} ms`);

  const target = toTarget(TARGET, 'ROOT_DOMAIN', tldts)!;
  const relation = groupedRows('ref-domains', target, clockAt(new Date('2026-06-15T00:00:00Z')), `d:${TARGET}`, {
    ...SQL_SOURCES,
    rollupRows: (tkey) => sql`r.tdomain = ${TARGET} AND r.tkey = ${tkey}`,
  });
  const columns = store.columns;
  const keys = (await columns.all<{ _key: string }>(sql`SELECT _key FROM (${relation}) x ORDER BY backlinks_count DESC, _key LIMIT 100`)).map((row) => row._key);
  const variants = {
    'IN (100 parameters)': sql`SELECT * FROM (${relation}) x WHERE _key IN (${join(keys.map((key) => sql`${key}`), ', ')})`,
    'IN (VALUES table)': sql`SELECT * FROM (${relation}) x WHERE _key IN (SELECT key FROM (VALUES ${join(keys.map((key) => sql`(${key})`), ', ')}) k(key))`,
    'IN (unnest of one list)': sql`SELECT * FROM (${relation}) x WHERE _key IN (SELECT unnest(${columns.textList(keys)}))`,
  };
  const times = Object.fromEntries(Object.keys(variants).map((name) => [name, [] as number[]]));
  for (let i = 0; i < 7; i++) for (const [name, query] of Object.entries(variants)) times[name]!.push(await time(() => columns.all(query)));
  for (const [name, list] of Object.entries(times)) console.log(`ref-domains ${TARGET}, 100 rows by key, ${name}: median of 7 ${median(list).toFixed(1)} ms`);

  const targets = [TARGET, 'linbri.com', 'wixvo.com'].map((domain) => toTarget(domain, 'ROOT_DOMAIN', tldts)!);
  const matrixPage = { orderBy: 'matches_count', direction: 'DESC' as const, limit: 100, offset: 0 };
  const first = await time(() => store.matrix({ targets, filter: null, page: matrixPage }));
  const repeat: number[] = [];
  const filtered: number[] = [];
  const filter = parseFilter('domain_score > 50 AND matches_count >= 2', { operation: 'matrix', targets: targets.length });
  for (let i = 0; i < 7; i++) {
    repeat.push(await time(() => store.matrix({ targets, filter: null, page: matrixPage })));
    filtered.push(await time(() => store.matrix({ targets, filter, page: matrixPage })));
  }
  console.log(
    `matrix of ${targets.map((t) => t.domain).join(', ')}: first call (lists read, union merged) ${first.toFixed(0)} ms; again, median of 7, ${median(repeat).toFixed(2)} ms; ` +
      `filtered (domain_score > 50 AND matches_count >= 2), median of 7, ${median(filtered).toFixed(1)} ms`,
  );
} finally {
  await store.close();
}
