/**
 * `createTestService` (backlink-query/testing), the slower part (test-service.test.ts has the
 * hand-made records): the generated sample by seed; the entry without the server's packages (child
 * processes with them hidden, as test/entries/optional-peers.test.ts hides peers); and the
 * node:test example of docs/testing.md, run with `node --test`.
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../src/client/index.js';
import { loadServerDeps } from '../../src/server/deps.js';
import { seedSample } from '../../src/server/sample/generate.js';
import { openSqliteStore } from '../../src/server/store/engines/sqlite/sqlite-store.js';
import { createTestService } from '../../src/test-service/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NOW = new Date('2026-05-01T00:00:00Z');

describe('generated data', () => {
  it('the sample by seed: the same seed and now give the same answers, another seed others', async () => {
    const answers = async (seed: number) => {
      const generated = await createTestService({ sample: { links: 300, seed }, now: NOW });
      try {
        const target = generated.sample!.topTarget;
        const page = await generated.client.refDomains({ url: target, scope: 'ROOT_DOMAIN', limit: 5, order_by: 'domain', direction: 'ASC' });
        return { links: generated.sample!.links, rows: page.data, total: page.meta.total };
      } finally {
        await generated.close();
      }
    };
    const [first, again, other] = [await answers(7), await answers(7), await answers(8)];
    expect(first.links).toBe(300);
    expect(first.rows).toHaveLength(5);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
  });

  it('the sample\'s keyword metrics are those `seed` writes (written on the first metrics call); given keywords replace them', async () => {
    // The expected snapshots: `seed`'s writer, read back from its table (newest snapshot of the month).
    const seeded = await openSqliteStore();
    const stats = await seedSample(seeded, (await loadServerDeps()).tldts, { links: 300, seed: 7, now: NOW });
    const stored = (keyword: string, country: string, month: string) =>
      seeded.db
        .prepare('SELECT snapshot_at, search_volume, cpc, keyword_difficulty, trends FROM keyword_metrics WHERE keyword = ? AND country = ? AND month = ? ORDER BY snapshot_at DESC LIMIT 1')
        .get(keyword, country, month) as { snapshot_at: string; search_volume: string; cpc: string; keyword_difficulty: number; trends: string };
    const newest = stored('seo tools', 'US', '2026-05');
    const expected = [newest, stored('traffic api', 'BR', '2023-06')].map(({ snapshot_at: _, ...values }) => values);
    const count = (seeded.db.prepare('SELECT count(*) AS n FROM keyword_metrics').get() as { n: number }).n;
    await seeded.close();
    const service = await createTestService({ sample: { links: 300, seed: 7 }, now: NOW });
    try {
      const read = async (keyword: string, country: 'US' | 'BR', month: string) => {
        const { data } = await service.client.keywordMetrics({ keyword, country, month });
        return { search_volume: data.search_volume, cpc: data.cpc, keyword_difficulty: data.keyword_difficulty, trends: JSON.stringify(data.trends) };
      };
      // Two at once: both wait for the one write.
      expect(await Promise.all([read('seo tools', 'US', '2026-05'), read('traffic api', 'BR', '2023-06')])).toEqual(expected);
      // The month before the sample's 36: as on a store `seed` filled, no metrics.
      const missing = await service.client.keywordMetrics({ keyword: 'seo tools', country: 'US', month: '2023-05' }).catch((error: unknown) => error);
      expect([(missing as HttpError).status, (missing as HttpError).code]).toEqual([404, 'not_found']);
      expect(service.sample!.keywordSnapshots).toBe(count);
      expect(count).toBe(stats.keywordSnapshots);
    } finally {
      await service.close();
    }
    // A snapshot of the same key as the sample's newest of that month: the given one replaces it.
    const mine = { keyword: 'seo tools', country: 'US', month: '2026-05', snapshot_at: newest.snapshot_at, search_volume: '7', cpc: '0.50', competitive_density: 1, keyword_difficulty: 2, number_of_results: '3', intents: [], serp_features: [], trends: [1] };
    const both = await createTestService({ sample: { links: 300, seed: 7 }, keywords: [mine], now: NOW });
    try {
      expect((await both.client.keywordMetrics({ keyword: 'seo tools', country: 'US', month: '2026-05' })).data.search_volume).toBe('7');
      expect((await both.client.keywordMetrics({ keyword: 'traffic api', country: 'BR', month: '2023-06' })).data.search_volume).toBe(expected[1]!.search_volume);
    } finally {
      await both.close();
    }
  });
});

/** Runs node with `args` from the repository's root, with `hide` made unresolvable (test/entries/hide-packages.mjs). */
function node(args: readonly string[], hide: readonly string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', './test/entries/hide-packages.mjs', ...args], { cwd: ROOT, env: { ...process.env, BQ_HIDE_PACKAGES: hide.join(',') } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('without the server\'s packages', () => {
  it('the entry imports and its arbitraries work; createTestService names every missing package', async () => {
    const script = [
      "const m = await import('./src/test-service/index.ts');",
      "console.log(typeof (await import('fast-check')).sample(m.filterTextArbitrary('links'), { numRuns: 1, seed: 1 })[0]);",
      'try { await m.createTestService(); } catch (error) { console.log(error.name); console.log(error.message); }',
    ].join('\n');
    const run = await node(['--import', 'tsx', '--input-type=module', '-e', script], ['fastify', 'better-sqlite3']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(
      [
        'string',
        'MissingDependencyError',
        'createTestService (backlink-query/testing) needs optional packages that are not installed: fastify, better-sqlite3.',
        'backlink-query installs them as optional dependencies; npm install --omit=optional, or a failed install of one of them (see npm\'s log), leaves them out.',
        'Install them with:',
        '  npm install fastify better-sqlite3',
        '',
      ].join('\n'),
    );
  });
});

describe('docs/testing.md', () => {
  const OUT = join(ROOT, '.tmp', `test-service-${process.pid}`);
  afterAll(() => rm(OUT, { recursive: true, force: true }));

  it('the node:test example passes under node --test (importing the sources in place of the package\'s entries)', async () => {
    const page = await readFile(join(ROOT, 'docs/testing.md'), 'utf8');
    const match = /<!-- example file=service\.test\.mjs -->\n```js\n([\s\S]*?)```/.exec(page);
    expect(match?.[1]).toContain("from 'node:test'");
    await mkdir(OUT, { recursive: true });
    const file = join(OUT, 'service.test.mjs');
    const source = match![1]!
      .replaceAll("'backlink-query/testing'", JSON.stringify(join(ROOT, 'src/test-service/index.ts')))
      .replaceAll("'backlink-query'", JSON.stringify(join(ROOT, 'src/index.ts')));
    await writeFile(file, source);
    const run = await node(['--import', 'tsx', '--test', '--test-reporter=tap', file]);
    expect(run.stderr).toBe('');
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/^# fail 0$/m);
    expect(run.stdout).toMatch(/^# pass [1-9]\d*$/m);
  });
});
