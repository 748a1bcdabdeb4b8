/**
 * The target page (`/explore/`) in real Chromium (Debian's `chromium`, driven by playwright-core,
 * as test/playground/playground.test.ts does), against the reference server on 127.0.0.1 serving
 * the sample (the generator of `serve --sample`, 4,000 links), and the page as `npm run build`
 * writes it (scripts/build-playground.mjs --page explore, into a folder of this run's own).
 *
 * A person opens the page for example.com: nothing is spent until a chart is opened, each chart
 * says its price first (the interface's price table, by hand), then each chart is opened and what
 * is drawn (the SVG: axis ranges, number of bars and dots, tick labels, bar titles) is checked
 * against the answer of the same call read over HTTP by the test itself. The filter box is used
 * with a completion; a bad filter, a 402, a 429 and the server down each show their error in the
 * page. Then the same page on a database imported from a Semrush export.
 *
 * Chromium is installed by scripts/engines/chromium.sh when missing; a browser that cannot be
 * installed or launched fails the suite (beforeAll throws), it never skips. Every request the page
 * makes beyond 127.0.0.1 is aborted and fails the suite: the page works offline. The screenshot
 * goes to .tmp/explore/explore.png; with BQ_PLAYGROUND_SCREENSHOT=docs (`npm run
 * playground:screenshot`) also to docs/images/explore.png.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServerDeps } from '../../src/server/deps.js';
import { seedSample } from '../../src/server/sample/generate.js';
import { createServer } from '../../src/server/server.js';
import { openSqliteStore } from '../../src/server/store/engines/sqlite/sqlite-store.js';
import { openStoreAt } from '../../src/server/store/open.js';
import { ROOT } from '../helpers/fresh-copy.js';
import { runCli } from '../cli/helpers/run-cli.js';
import { runScript } from '../setup/engine-processes.js';

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SHOTS = join(ROOT, '.tmp', 'explore');
const NOW = new Date('2026-06-15T00:00:00Z');
const BASE = '/_api/apis/v4/backlinks/v1';

/** The sample's demo key (the page starts with it), a key with 50 units, and a key allowed one call a second. */
const DEMO = { id: 'demo', key: 'bq_demo_key_0123456789', units: 10_000_000 };
const POOR = { id: 'poor', key: 'poor-key-0002', units: 50 };
const SLOW = { id: 'slow', key: 'slow-key-0003', units: 10_000_000, rate: 1 };
/** The test's own key for reading the answers over HTTP: its calls never count against the page's rate. */
const READER = { id: 'reader', key: 'reader-key-0004', units: 10_000_000 };

let dir: string;
let served: string;
let app: FastifyInstance;
let origin: string;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];
/** The service calls the page made (path and query), in order. */
const calls: string[] = [];
/** Requests to anywhere but 127.0.0.1: none may happen. */
const offsite: string[] = [];

async function newPage(): Promise<Page> {
  const p = await browser.newPage({ viewport: { width: 1240, height: 1000 } });
  p.on('pageerror', (error) => pageErrors.push(error.message));
  p.on('console', (message) => {
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) pageErrors.push(message.text());
  });
  p.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith(`${BASE}/`)) calls.push(`${url.pathname.slice(BASE.length + 1)}?${url.search.slice(1)}`);
  });
  await p.route(/.*/, (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1' || url.protocol === 'data:') return route.continue();
    offsite.push(route.request().url());
    return route.abort();
  });
  return p;
}

beforeAll(async () => {
  const installed = await runScript('chromium.sh', []);
  const executablePath = installed.stdout.trim().split('\n').pop()!;
  dir = mkdtempSync(join(tmpdir(), 'bq-explore-'));
  served = join(dir, 'explore');
  const built = spawnSync(process.execPath, ['scripts/build-playground.mjs', '--page', 'explore', '--out', served], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`scripts/build-playground.mjs --page explore failed:\n${built.stdout}\n${built.stderr}`);

  const store = await openSqliteStore({ file: join(dir, 'sample.db') });
  const { tldts } = await loadServerDeps();
  await seedSample(store, tldts, { links: 4_000, seed: 7, now: NOW });
  app = await createServer({ store, keys: [DEMO, POOR, SLOW, READER], now: () => NOW, exploreDir: served });
  origin = await app.listen({ host: '127.0.0.1', port: 0 });

  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  page = await newPage();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 20_000, interval: 50 });

/** The answer of a call, read over HTTP by the test itself (with a key of its own). */
async function answer(at: string, operation: string, params: Record<string, string>): Promise<{ data: Record<string, unknown>[] | Record<string, unknown>; units: number }> {
  const response = await fetch(`${at}${BASE}/${operation}?${new URLSearchParams(params)}`, { headers: { authorization: `Apikey ${READER.key}` } });
  expect(response.status, await response.clone().text()).toBe(200);
  return { data: ((await response.json()) as { data: Record<string, unknown>[] }).data, units: Number(response.headers.get('x-units-charged')) };
}
const rowsOf = async (at: string, operation: string, params: Record<string, string>) => (await answer(at, operation, params)).data as Record<string, unknown>[];

const card = (p: Page, id: string) => p.locator(`#chart-${id}`);

/** Opens (or refreshes) a chart and waits until it is drawn, empty or failed. */
async function open(p: Page, id: string): Promise<string> {
  await card(p, id).locator('button.open').click();
  await eventually(() => card(p, id).getAttribute('data-state')).toMatch(/^(drawn|empty|error)$/);
  return (await card(p, id).getAttribute('data-state'))!;
}

/** What a Plot chart in `selector` drew: its scales' domains, its marks' counts and texts. */
function drawn(p: Page, selector: string) {
  return p.locator(selector).evaluate((panel) => {
    const root = panel.firstElementChild as Element & { scale(name: string): { domain: unknown[] } | undefined };
    const texts = (aria: string) => [...panel.querySelectorAll(`g[aria-label="${aria}"] text`)].map((t) => t.textContent);
    return {
      x: root.scale('x')?.domain,
      y: root.scale('y')?.domain,
      xTicks: texts('x-axis tick label'),
      yTicks: texts('y-axis tick label'),
      bars: [...panel.querySelectorAll('g[aria-label="bar"] rect')].map((r) => ({ title: r.querySelector('title')?.textContent, fill: r.getAttribute('fill') })),
      rects: [...panel.querySelectorAll('g[aria-label="rect"] rect')].map((r) => r.querySelector('title')?.textContent),
      dots: [...panel.querySelectorAll('g[aria-label="dot"] circle')].map((c) => c.querySelector('title')?.textContent),
      lines: panel.querySelectorAll('g[aria-label="line"] path').length,
    };
  });
}

const n = (value: unknown) => (value as number).toLocaleString('en-US');
/** The axis label the page gives a text, by hand: '(empty)' for '', 31 characters and '…' past 32. */
const label = (text: string) => (text === '' ? '(empty)' : text.length > 32 ? `${text.slice(0, 31)}…` : text);

describe('the server serves the page', () => {
  it('redirects /explore to /explore/ with its query, and serves the page', async () => {
    const redirect = await fetch(`${origin}/explore?url=example.com&scope=ROOT_DOMAIN`, { redirect: 'manual' });
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('location')).toBe('/explore/?url=example.com&scope=ROOT_DOMAIN');
    const index = await fetch(`${origin}/explore/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(await index.text()).toContain('<title>backlink-query explore</title>');
    const missing = await fetch(`${origin}/explore/nothing.js`);
    expect(missing.status).toBe(404);
  });

  it('a server without a build answers /explore/ with a 404 that says to run npm run build', async () => {
    const unbuilt = await createServer({ store: await openSqliteStore({ file: join(dir, 'empty.db') }), keys: [DEMO], now: () => NOW, exploreDir: join(dir, 'nowhere') });
    try {
      const response = await unbuilt.inject({ method: 'GET', url: '/explore/' });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.message).toBe('The target page is not built: run `npm run build` (it writes dist/explore/).');
      expect(response.json().error.details[0].rule).toBe('explore_not_built');
    } finally {
      await unbuilt.close();
    }
  });
});

describe('a person looking at example.com on the sample', () => {
  it('opens the page: every chart with its price, and nothing spent yet', async () => {
    await page.goto(`${origin}/explore?url=example.com&scope=ROOT_DOMAIN`);
    await page.locator('#chart-competitors').waitFor();
    expect(await page.locator('section.chart').evaluateAll((s) => s.map((e) => e.id))).toEqual([
      'chart-overview', 'chart-summary', 'chart-score-profile', 'chart-anchors', 'chart-ref-domains', 'chart-competitors',
    ]);
    expect(await page.locator('section.chart').evaluateAll((s) => s.map((e) => e.getAttribute('data-state')))).toEqual(Array(6).fill('idle'));
    expect(await page.locator('#url').inputValue()).toBe('example.com');
    expect(await page.locator('#scope').inputValue()).toBe('ROOT_DOMAIN');
    // The interface's price table: overview 45 a request; summary, anchors, ref-domains and
    // competitors 40 a line; score-profile 1 a line, at most 101 lines. The page's limits: 12 months, top 10.
    const costs = await page.locator('section.chart .cost').allTextContents();
    expect(costs).toEqual([
      'costs 45 units',
      'costs up to 480 units (40 per row × up to 12 rows)',
      'costs up to 101 units (1 per row × up to 101 rows)',
      'costs up to 400 units (40 per row × up to 10 rows)',
      'costs up to 400 units (40 per row × up to 10 rows)',
      'costs up to 400 units (40 per row × up to 10 rows)',
    ]);
    // 45 + 480 + 101 + 3 × 400
    expect(await page.locator('#open-all-cost').textContent()).toBe('costs up to 1,826 units');
    expect(await card(page, 'anchors').locator('.placeholder').textContent()).toBe('Not loaded: opening it calls anchors, which costs up to 400 units (40 per row × up to 10 rows).');
    expect(calls).toEqual([]);
  });

  it('the price follows the number of rows asked for', async () => {
    await card(page, 'anchors').locator('input.limit').fill('20');
    await eventually(() => card(page, 'anchors').locator('.cost').textContent()).toBe('costs up to 800 units (40 per row × up to 20 rows)');
    expect(await page.locator('#open-all-cost').textContent()).toBe('costs up to 2,226 units');
    await card(page, 'anchors').locator('input.limit').fill('10');
    await eventually(() => page.locator('#open-all-cost').textContent()).toBe('costs up to 1,826 units');
    expect(calls).toEqual([]);
  });

  it('overview: every figure of the record, as the service answers it, for 45 units', async () => {
    expect(await open(page, 'overview')).toBe('drawn');
    expect(calls).toEqual(['overview?url=example.com&scope=ROOT_DOMAIN']);
    const { data, units } = await answer(origin, 'overview', { url: 'example.com', scope: 'ROOT_DOMAIN' });
    expect(units).toBe(45);
    expect(await card(page, 'overview').locator('.status').textContent()).toBe('1 row, 45 units charged');
    const figures = await card(page, 'overview').locator('.figure').evaluateAll((fs) => fs.map((f) => [f.getAttribute('data-field'), f.querySelector('dd')!.textContent]));
    // The interface's overview record: sixteen fields, in its order.
    expect(figures.map(([field]) => field)).toEqual([
      'backlinks_count', 'domains_count', 'urls_count', 'follows_count', 'nofollows_count', 'sponsored_count', 'ugc_count', 'frames_count',
      'forms_count', 'images_count', 'texts_count', 'ips_count', 'ip_class_c_count', 'new_count', 'lost_count', 'score',
    ]);
    expect(figures).toEqual(figures.map(([field]) => [field, n((data as Record<string, unknown>)[field!])]));
    expect((data as Record<string, number>)['backlinks_count']).toBeGreaterThan(0);
    await eventually(() => page.locator('#balance').textContent()).toMatch(/^[\d,]+ units left$/);
  });

  it('summary: one point per month on each line, the y axis from 0 to the largest count, the change bars month to month', async () => {
    expect(await open(page, 'summary')).toBe('drawn');
    const rows = await rowsOf(origin, 'summary', { url: 'example.com', scope: 'ROOT_DOMAIN', limit: '12' });
    expect(rows.length).toBe(12);
    const months = rows.map((row) => String(row['month_date']).slice(0, 7));
    const lines = await drawn(page, '#chart-summary [data-panel=lines]');
    expect(lines.x).toEqual(months);
    expect(lines.xTicks).toEqual(months);
    expect(lines.y).toEqual([0, Math.max(...rows.flatMap((row) => [row['backlinks_count'] as number, row['domains_count'] as number]))]);
    expect(lines.lines).toBe(2);
    expect(lines.dots.sort()).toEqual(
      rows.flatMap((row) => [`${String(row['month_date']).slice(0, 7)}: ${n(row['backlinks_count'])} backlinks`, `${String(row['month_date']).slice(0, 7)}: ${n(row['domains_count'])} referring domains`]).sort(),
    );
    const change = await drawn(page, '#chart-summary [data-panel=change]');
    const deltas = rows.slice(1).map((row, i) => (row['backlinks_count'] as number) - (rows[i]!['backlinks_count'] as number));
    expect(change.bars.map((bar) => bar.title)).toEqual(rows.slice(1).map((row, i) => `${String(row['month_date']).slice(0, 7)}: ${deltas[i]! >= 0 ? '+' : ''}${n(deltas[i])} backlinks`));
    // Gained green, dropped red.
    expect(change.bars.map((bar) => bar.fill)).toEqual(deltas.map((d) => (d >= 0 ? '#1a7f37' : '#cf222e')));
  });

  it('score-profile: a histogram bar per score the answer has, x from 0 to 101, y from 0 to the largest count', async () => {
    expect(await open(page, 'score-profile')).toBe('drawn');
    const rows = await rowsOf(origin, 'score-profile', { url: 'example.com', scope: 'ROOT_DOMAIN' });
    expect(rows.length).toBeGreaterThan(5);
    const chart = await drawn(page, '#chart-score-profile .panel');
    expect(chart.x).toEqual([0, 101]);
    expect(chart.xTicks).toEqual(['0', '10', '20', '30', '40', '50', '60', '70', '80', '90', '100']);
    expect(chart.y).toEqual([0, Math.max(...rows.map((row) => row['domains_count'] as number))]);
    expect(chart.rects).toEqual(rows.map((row) => `score ${row['domain_score']}: ${n(row['domains_count'])} referring domains`));
    expect(await card(page, 'score-profile').locator('.status').textContent()).toBe(`${rows.length} rows, ${rows.length} units charged`);
  });

  it('anchors: one bar per anchor in the answer order, labelled with the anchor', async () => {
    expect(await open(page, 'anchors')).toBe('drawn');
    const rows = await rowsOf(origin, 'anchors', { url: 'example.com', scope: 'ROOT_DOMAIN', fields: 'anchor,domains_count,backlinks_count', order_by: 'domains_count', limit: '10' });
    expect(rows.length).toBe(10);
    const chart = await drawn(page, '#chart-anchors .panel');
    expect(chart.yTicks).toEqual(rows.map((row) => label(String(row['anchor']))));
    expect(chart.bars.map((bar) => bar.title)).toEqual(rows.map((row) => `${String(row['anchor']) || '(empty)'}: ${n(row['domains_count'])} referring domains`));
    expect(chart.x).toEqual([0, Math.max(...rows.map((row) => row['domains_count'] as number))]);
  });

  it('ref-domains: one bar per referring domain, as long as its backlinks', async () => {
    expect(await open(page, 'ref-domains')).toBe('drawn');
    const rows = await rowsOf(origin, 'ref-domains', { url: 'example.com', scope: 'ROOT_DOMAIN', fields: 'domain,backlinks_count,domain_score', order_by: 'backlinks_count', limit: '10' });
    expect(rows.length).toBe(10);
    const chart = await drawn(page, '#chart-ref-domains .panel');
    expect(chart.yTicks).toEqual(rows.map((row) => label(String(row['domain']))));
    expect(chart.bars.map((bar) => bar.title)).toEqual(rows.map((row) => `${row['domain']}: ${n(row['backlinks_count'])} backlinks`));
    expect(chart.x).toEqual([0, Math.max(...rows.map((row) => row['backlinks_count'] as number))]);
  });

  it('competitors: ranked by similarity, each with its share and its referring domains in common', async () => {
    const state = await open(page, 'competitors');
    const rows = await rowsOf(origin, 'competitors', { domain: 'example.com', order_by: 'similarity', limit: '10' });
    expect(rows.length, 'the sample gives example.com competitors').toBeGreaterThan(0);
    expect(state).toBe('drawn');
    const percent = (value: unknown) => `${Math.round((value as number) * 100)}%`;
    expect(await card(page, 'competitors').locator('ol.ranked li').allTextContents()).toEqual(
      rows.map((row) => `${row['domain']} ${percent(row['similarity'])} similar, ${n(row['common_refdomains'])} referring domains in common`),
    );
    const chart = await drawn(page, '#chart-competitors .panel');
    expect(chart.x).toEqual([0, 1]);
    expect(chart.yTicks).toEqual(rows.map((row) => label(String(row['domain']))));
    expect(chart.bars).toHaveLength(rows.length);
  });

  it('each chart links to its call: the URL and the CLI command', async () => {
    expect(await card(page, 'anchors').locator('.call-url').textContent()).toBe(
      `GET ${origin}${BASE}/anchors?url=example.com&scope=ROOT_DOMAIN&fields=anchor%2Cdomains_count%2Cbacklinks_count&order_by=domains_count&limit=10`,
    );
    expect(await card(page, 'anchors').locator('.call-cli').textContent()).toBe(
      `backlink-query anchors example.com --scope ROOT_DOMAIN --fields anchor,domains_count,backlinks_count --order-by domains_count --limit 10 --base-url ${origin}`,
    );
    expect(await card(page, 'competitors').locator('.call-cli').textContent()).toBe(`backlink-query competitors example.com --order-by similarity --limit 10 --base-url ${origin}`);
    // Every chart is drawn: the picture of the page.
    mkdirSync(SHOTS, { recursive: true });
    await page.locator('#charts').evaluate(() => document.querySelectorAll('details').forEach((d) => d.removeAttribute('open')));
    const shot = join(SHOTS, 'explore.png');
    await page.screenshot({ path: shot, fullPage: true });
    if (process.env['BQ_PLAYGROUND_SCREENSHOT'] === 'docs') copyFileSync(shot, join(ROOT, 'docs', 'images', 'explore.png'));
  });

  it('filters the anchors with the filter box (completion taken), and the bars follow', async () => {
    const before = calls.length;
    await card(page, 'anchors').locator('.cm-content').click();
    await page.keyboard.type('backlinks_c');
    const option = page.locator('.cm-tooltip-autocomplete li', { hasText: 'backlinks_count' });
    await option.first().waitFor();
    await page.waitForTimeout(250);
    await page.keyboard.press('Enter');
    await page.keyboard.type(' > 2');
    await page.keyboard.press('Escape');
    expect(await card(page, 'anchors').locator('.cm-content').innerText()).toBe('backlinks_count > 2');
    // Typing spends nothing.
    expect(calls.length).toBe(before);
    // The bars shown are the earlier call's: the card says so until it is refreshed.
    expect(await card(page, 'anchors').locator('.stale').isVisible()).toBe(true);
    expect(await open(page, 'anchors')).toBe('drawn');
    const rows = await rowsOf(origin, 'anchors', { url: 'example.com', scope: 'ROOT_DOMAIN', fields: 'anchor,domains_count,backlinks_count', order_by: 'domains_count', limit: '10', filter: 'backlinks_count > 2' });
    expect(await card(page, 'anchors').locator('.stale').isVisible()).toBe(false);
    expect(rows.every((row) => (row['backlinks_count'] as number) > 2)).toBe(true);
    const chart = await drawn(page, '#chart-anchors .panel');
    expect(chart.yTicks).toEqual(rows.map((row) => label(String(row['anchor']))));
    expect(await card(page, 'anchors').locator('.call-cli').textContent()).toContain("--filter 'backlinks_count > 2'");
  });

  it('a bad filter: its issue shown as typed, and opening it is refused in the page, nothing sent', async () => {
    await card(page, 'ref-domains').locator('.cm-content').click();
    await page.keyboard.type('domain_scor > 50');
    await page.keyboard.press('Escape');
    await eventually(() => card(page, 'ref-domains').locator('.issues').textContent()).toMatch(/^1:1 unknown_field: Unknown field domain_scor; did you mean domain_score\?/);
    const before = calls.length;
    expect(await open(page, 'ref-domains')).toBe('error');
    expect(await card(page, 'ref-domains').locator('.error-box').textContent()).toMatch(/^Not sent: the filter has issues\.\n1:1 unknown_field: Unknown field domain_scor; did you mean domain_score\?/);
    expect(await card(page, 'ref-domains').locator('svg').count()).toBe(0);
    expect(calls.length).toBe(before);
  });

  it('a key without the units: the 402 in the page', async () => {
    await page.locator('#api-key').fill(POOR.key);
    expect(await open(page, 'anchors')).toBe('error');
    expect(await card(page, 'anchors').locator('.error-box').textContent()).toMatch(/^HTTP 402: 402 insufficient_units: Not enough units left for the most this call can cost\./);
    expect(await card(page, 'anchors').locator('.status').textContent()).toBe('Not drawn: the call failed.');
  });

  it('a key over its rate: the 429 in the page', async () => {
    await page.locator('#api-key').fill(SLOW.key);
    await page.locator('#open-all').click();
    // One call a second: the calls the page makes one after the other find the key's second spent.
    await eventually(() => page.locator('section.chart[data-state=error] .error-box').allTextContents()).toContainEqual(expect.stringMatching(/^HTTP 429: 429 rate_limited: Too many requests per second for this key; retry after \d+ s\./));
    await eventually(() => page.locator('section.chart[data-state=loading]').count()).toBe(0);
  });

  it('the server down: a network error in the page, not a blank chart', async () => {
    const probe = createNetServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    await page.locator('#api-key').fill(DEMO.key);
    await page.locator('#server').fill(`http://127.0.0.1:${port}`);
    await page.locator('#server').dispatchEvent('change');
    // A new server: every chart back to not loaded.
    expect(await page.locator('section.chart').evaluateAll((s) => s.map((e) => e.getAttribute('data-state')))).toEqual(Array(6).fill('idle'));
    expect(await open(page, 'overview')).toBe('error');
    expect(await card(page, 'overview').locator('.error-box').textContent()).toMatch(/^network: /);
  });

  it('met no script error and made no request beyond 127.0.0.1', () => {
    expect(pageErrors).toEqual([]);
    expect(offsite).toEqual([]);
  });
});

describe('the same page on a database imported from a Semrush export', () => {
  it('draws every chart of the imported target', async () => {
    // The Semrush Backlinks export's header (test/server/import/formats.test.ts, docs/importing.md), three links of acme.test.
    const csv = [
      'Page ascore,Source title,Source url,Target url,Anchor,External links,Internal links,Nofollow,Sponsored,Ugc,Text,Frame,Form,Image,Sitewide,First seen,Last seen,New link,Lost link',
      '51,Reports,https://reports.delve.org/2020/10/report.html,https://www.acme.test/,Acme,51,513,false,false,false,true,false,false,false,false,2024-12-24,2026-05-30,false,false',
      '18,Accessible,https://www.w3.org/WAI/EO/accessible.html,http://www.acme.test/articles/access.htm,"The Incredible, Accessible logo",10,70,true,false,false,false,false,false,true,false,2024-10-22,2025-02-06,false,true',
      '30,W3C news,https://news.w3.org/2025/acme,https://acme.test/pricing,Acme,5,40,false,true,false,true,false,false,false,true,2025-01-10,2026-06-01,true,false',
    ].join('\r\n');
    const file = join(dir, 'acme.test-backlinks.csv');
    writeFileSync(file, `${csv}\r\n`);
    const db = join(dir, 'semrush.db');
    const imported = await runCli(['import', file, '--db', db]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('Semrush backlinks export');
    const { tldts } = await loadServerDeps();
    const semrush = await createServer({ store: await openStoreAt({ kind: 'embedded', file: db }, tldts), keys: [DEMO, READER], now: () => NOW, exploreDir: served });
    const at = await semrush.listen({ host: '127.0.0.1', port: 0 });
    const p = await newPage();
    try {
      await p.goto(`${at}/explore?url=acme.test&scope=ROOT_DOMAIN`);
      await p.locator('#chart-competitors').waitFor();
      await p.locator('#open-all').click();
      await eventually(() => p.locator('section.chart').evaluateAll((s) => s.map((e) => e.getAttribute('data-state')))).toEqual([
        'drawn', 'drawn',
        // docs/importing.md: a Semrush import gives its referring domains no score, and score-profile counts none without one.
        'empty',
        'drawn', 'drawn',
        // Two referring domains share no five with anyone: no competitor.
        'empty',
      ]);
      expect(await p.locator('#chart-score-profile .placeholder').textContent()).toMatch(/^No rows: none of the target's referring domains has a known score/);
      expect(await p.locator('#chart-competitors .placeholder').textContent()).toMatch(/^No rows: no domain shares at least 5 referring domains with this one/);
      // By hand: three links from two registrable domains (delve.org; w3.org twice), one lost.
      const figures = Object.fromEntries(await p.locator('#chart-overview .figure').evaluateAll((fs) => fs.map((f) => [f.getAttribute('data-field'), f.querySelector('dd')!.textContent])));
      expect(figures).toMatchObject({ backlinks_count: '3', domains_count: '2', lost_count: '1' });
      // Anchors: 'Acme' from two domains; the image link's anchor is empty (docs/importing.md: Semrush's anchor cell of an image is its alt text, stored as image_alt).
      expect((await drawn(p, '#chart-anchors .panel')).yTicks).toEqual(['Acme', '(empty)']);
      expect((await drawn(p, '#chart-ref-domains .panel')).yTicks).toEqual(['w3.org', 'delve.org']);
      const history = await rowsOf(at, 'summary', { url: 'acme.test', scope: 'ROOT_DOMAIN', limit: '12' });
      expect((await drawn(p, '#chart-summary [data-panel=lines]')).xTicks).toEqual(history.map((row) => String(row['month_date']).slice(0, 7)));
      expect(offsite).toEqual([]);
    } finally {
      await p.close();
      await semrush.close();
    }
  });
});
