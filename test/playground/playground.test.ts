/**
 * The playground in real Chromium (Debian's `chromium`, driven by playwright-core), against the
 * reference server on 127.0.0.1 serving the hand-worked fixture (test/server/support/fixture.ts), and the
 * page as `npm run build` writes it (scripts/build-playground.mjs, run here first into a folder of
 * this run's own, so the page is the sources' own).
 *
 * A person types a filter, takes a completion, sees an error with its did-you-mean, fixes it with
 * the diagnostic's quick fix, sees the canonical text, the SQL of every dialect and the verdicts on
 * the sample rows, sees the price before running, runs the call and sees the rows and the units.
 * Every expectation is written by hand: the SQL from docs/sql.md's table of dialect differences,
 * the rows and units from the fixture and the interface's price (45 units per link), the verdicts
 * on the sample rows by a predicate written here over the values the page shows.
 *
 * Chromium is installed by scripts/engines/chromium.sh when missing; a browser that cannot be
 * installed or launched fails the suite (beforeAll throws), it never skips. The screenshot goes to
 * .tmp/playground/playground.png; with BQ_PLAYGROUND_SCREENSHOT=docs (`npm run
 * playground:screenshot`) also to docs/images/playground.png.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suggestionChange } from '../../src/playground/completion-source.js';
import { createServer } from '../../src/server/server.js';
import { openSqliteStore } from '../../src/server/store/engines/sqlite/sqlite-store.js';
import { freshCopy, ROOT } from '../helpers/fresh-copy.js';
import { KEYS, loadFixture, NOW } from '../server/support/fixture.js';
import { runScript } from '../setup/engine-processes.js';

/** The launch flags of the toolchain notes (Chromium as root, in a container, without a GPU). */
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const SHOTS = join(ROOT, '.tmp', 'playground');

let dir: string;
let app: FastifyInstance;
let origin: string;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  const installed = await runScript('chromium.sh', []);
  const executablePath = installed.stdout.trim().split('\n').pop()!;
  dir = mkdtempSync(join(tmpdir(), 'bq-playground-'));
  // The page of the current sources, built as `npm run build` builds it, into a folder of this
  // run's own (dist/playground/ may be read by other suites meanwhile).
  const served = join(dir, 'playground');
  const built = spawnSync(process.execPath, ['scripts/build-playground.mjs', '--out', served], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`scripts/build-playground.mjs failed:\n${built.stdout}\n${built.stderr}`);

  const store = await openSqliteStore({ file: join(dir, 'fixture.db') });
  await loadFixture(store);
  // CORS for every origin, as `serve --sample` does: the docs build calls from another origin.
  app = await createServer({ store, keys: [...KEYS], now: () => NOW, corsOrigins: '*', playgroundDir: served });
  origin = await app.listen({ host: '127.0.0.1', port: 0 });

  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  page = await browser.newPage({ viewport: { width: 1180, height: 900 } });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('response', (response) => {
    if (response.status() >= 400) pageErrors.push(`${response.status()} ${response.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Polls until the page shows what is expected: generous, for a loaded machine running many test files. */
const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 50 });

/** The editor's text, line breaks as typed. */
const editorText = () => page.locator('.cm-content').evaluate((node) => (node as HTMLElement).innerText.replace(/\n$/, ''));

describe('the server serves the built page', () => {
  it('redirects /playground to /playground/, which is the page, revalidated on every load', async () => {
    const redirect = await fetch(`${origin}/playground?x=1`, { redirect: 'manual' });
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('location')).toBe('/playground/?x=1');

    const index = await fetch(`${origin}/playground/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const html = await index.text();
    expect(html).toContain('<title>backlink-query playground</title>');
    const etag = index.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await fetch(`${origin}/playground/`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);

    const script = /src="\.\/(playground-[A-Z0-9]{8}\.js)"/.exec(html)?.[1];
    const style = /href="\.\/(playground-[A-Z0-9]{8}\.css)"/.exec(html)?.[1];
    for (const [file, type] of [
      [script, 'text/javascript; charset=utf-8'],
      [style, 'text/css; charset=utf-8'],
    ] as const) {
      const asset = await fetch(`${origin}/playground/${file}`);
      expect(asset.status, file).toBe(200);
      expect(asset.headers.get('content-type')).toBe(type);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
  });

  it('answers a file it does not have, or a path out of its folder, with a 404 envelope', async () => {
    // ..%2Fplayground%2Findex.html names a file that exists (the page itself, by a way round).
    for (const path of ['/playground/nothing.js', '/playground/..%2Fplayground%2Findex.html', '/playground/..%2F..%2Fpackage.json', '/playground/.hidden.js', '/playground/index.ts']) {
      const response = await fetch(`${origin}${path}`);
      expect(response.status, path).toBe(404);
      const body = (await response.json()) as { error: { code: number } };
      expect(body.error.code).toBe(404);
    }
  });
});

describe('a person writing a filter', () => {
  it('opens the page: the operations that take a filter, the server it came from', async () => {
    await page.goto(`${origin}/playground`);
    await page.locator('.cm-content').waitFor();
    const operations = await page.locator('#operation option').allTextContents();
    // The interface's operations with a filter parameter, in its order.
    expect(operations).toEqual(['links', 'ref-domains', 'ref-ips', 'pages', 'anchors', 'matrix']);
    expect(await page.locator('#server').inputValue()).toBe(origin);
    expect(await page.locator('#canonical').textContent()).toBe('(no filter: every row)');
    // The link to the target page (test/explore/), beside the playground on the same server.
    expect(await page.locator('#explore-link').getAttribute('href')).toBe('../explore/?url=example.com&scope=ROOT_DOMAIN');
    expect(new URL((await page.locator('#explore-link').evaluate((a) => (a as HTMLAnchorElement).href))).pathname).toBe('/explore/');
  });

  it('types a field name and takes the completion', async () => {
    await page.locator('.cm-content').click();
    await page.keyboard.type('domain_sc');
    const option = page.locator('.cm-tooltip-autocomplete li', { hasText: 'domain_score' });
    await option.first().waitFor();
    expect(await page.locator('.cm-tooltip-autocomplete li .cm-completionLabel').allTextContents()).toEqual(['domain_score']);
    expect(await option.first().locator('.cm-completionDetail').textContent()).toBe('integer');
    // CodeMirror ignores Enter for its interactionDelay (75 ms) after the list opens, so that a
    // fast typist's Enter is a new line; a person reads the list first.
    await page.waitForTimeout(250);
    await page.keyboard.press('Enter');
    expect(await editorText()).toBe('domain_score');
  });

  it('types a misspelt field and sees the error, its place and its did-you-mean', async () => {
    await page.keyboard.type('>=60 and is_nofolow=false');
    await page.keyboard.press('Escape');
    expect(await editorText()).toBe('domain_score>=60 and is_nofolow=false');
    const issues = page.locator('#issues');
    await eventually(() => issues.textContent()).toBe(
      ['1:22 unknown_field: Unknown field is_nofolow; did you mean is_nofollow?', '  domain_score>=60 and is_nofolow=false', `  ${' '.repeat(21)}^^^^^^^^^^`].join('\n'),
    );
    await page.locator('.cm-lintRange-error').waitFor();
    expect(await page.locator('.cm-lintRange-error').textContent()).toBe('is_nofolow');
    expect(await page.locator('#canonical').textContent()).toBe('(fix the filter first)');
  });

  it('runs it anyway: the client refuses it before sending, and says why', async () => {
    await page.locator('#api-key').fill(KEYS[0].key);
    await page.locator('#run').click();
    await eventually(() => page.locator('#run-status').textContent()).toMatch(/^Not sent: the filter has issues\.\n1:22 unknown_field: Unknown field is_nofolow; did you mean is_nofollow\?/);
  });

  it('fixes it with the quick fix of the diagnostic', async () => {
    await page.locator('.cm-lintRange-error').hover();
    const fix = page.locator('.cm-tooltip-lint button', { hasText: 'Use is_nofollow' });
    await fix.waitFor();
    await fix.click();
    expect(await editorText()).toBe('domain_score>=60 and is_nofollow=false');
    await eventually(() => page.locator('#issues').textContent()).toBe('');
    await eventually(() => page.locator('.cm-lintRange-error').count()).toBe(0);
  });

  it('sees the canonical text and the SQL of every dialect with its parameters', async () => {
    await eventually(() => page.locator('#canonical').textContent()).toBe('domain_score >= 60 AND is_nofollow = false');
    const rows = await page.locator('#sql tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    // docs/sql.md: placeholders ? / $n / {pn:Type}; booleans bound as 1/0 where the engine has no boolean type.
    expect(rows).toEqual([
      ['sqlite', '("domain_score" >= ? AND "is_nofollow" = ?)', '[60,0]'],
      ['postgres', '("domain_score" >= $1 AND "is_nofollow" = $2)', '[60,false]'],
      ['mysql', '(`domain_score` >= ? AND `is_nofollow` = ?)', '[60,0]'],
      ['duckdb', '("domain_score" >= $1 AND "is_nofollow" = $2)', '[60,false]'],
      ['clickhouse', '("domain_score" >= {p1:Int64} AND "is_nofollow" = {p2:Int64})', '[60,0]'],
      ['clickhouse-literals', '("domain_score" >= 60 AND "is_nofollow" = 0)', '[]'],
    ]);
  });

  it('sees which sample rows the filter keeps, each verdict right', async () => {
    const table = await page.locator('#sample').evaluate((node) => ({
      head: [...node.querySelectorAll('thead th')].map((th) => th.textContent),
      rows: [...node.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((td) => td.textContent)),
    }));
    // The fields the filter names come first, after the verdict.
    expect(table.head.slice(0, 3)).toEqual(['match', 'domain_score', 'is_nofollow']);
    expect(table.rows).toHaveLength(12);
    const expected = table.rows.map(([, score, nofollow]) => Number(score) >= 60 && nofollow === 'false');
    expect(table.rows.map(([verdict]) => verdict === '✓')).toEqual(expected);
    // Not a vacuous check: the sample has rows on both sides.
    expect(expected.filter(Boolean).length).toBeGreaterThan(0);
    expect(expected.filter((keep) => !keep).length).toBeGreaterThan(0);
    expect(await page.locator('#sample-count').textContent()).toBe(`${expected.filter(Boolean).length} of 12 match`);
  });

  it('sees what the call will cost before running it, and the price follows the limit', async () => {
    // The interface: links costs 45 units per line; the page's limit starts at 10.
    expect(await page.locator('#param-limit').inputValue()).toBe('10');
    expect(await page.locator('#estimate').textContent()).toBe('costs up to 450 units (45 per row × up to 10 rows)');
    await page.locator('#param-limit').fill('3');
    await eventually(() => page.locator('#estimate').textContent()).toBe('costs up to 135 units (45 per row × up to 3 rows)');
    await page.locator('#param-limit').fill('10');
    await eventually(() => page.locator('#estimate').textContent()).toBe('costs up to 450 units (45 per row × up to 10 rows)');
  });

  it('runs the call and sees the rows and the units it cost', async () => {
    expect(await page.locator('#param-url').inputValue()).toBe('example.com');
    expect(await page.locator('#param-scope').inputValue()).toBe('ROOT_DOMAIN');
    await page.locator('#run').click();
    const status = page.locator('#run-status');
    // Of the seven links to example.com, two have domain_score >= 60 and no nofollow: gamma.io's
    // image link (page_score 70) and alpha.org/post-1 (page_score 50), by page_score descending.
    // 2 rows × 45 units = 90; the tester key had 1,000,000 units.
    await eventually(() => status.textContent()).toMatch(/^2 rows, 90 units charged, \d+ ms; 999,910 units left$/);
    const result = await page.locator('#result').evaluate((node) => {
      const head = [...node.querySelectorAll('thead th')].map((th) => th.textContent!);
      return [...node.querySelectorAll('tbody tr')].map((tr) => {
        const cells = [...tr.children].map((td) => td.textContent);
        return { source_url: cells[head.indexOf('source_url')], domain_score: cells[head.indexOf('domain_score')], is_nofollow: cells[head.indexOf('is_nofollow')] };
      });
    });
    expect(result).toEqual([
      { source_url: 'https://gamma.io/review', domain_score: '80', is_nofollow: 'false' },
      { source_url: 'https://alpha.org/post-1', domain_score: '60', is_nofollow: 'false' },
    ]);

    mkdirSync(SHOTS, { recursive: true });
    const shot = join(SHOTS, 'playground.png');
    await page.screenshot({ path: shot, fullPage: true });
    if (process.env['BQ_PLAYGROUND_SCREENSHOT'] === 'docs') {
      mkdirSync(join(ROOT, 'docs', 'images'), { recursive: true });
      copyFileSync(shot, join(ROOT, 'docs', 'images', 'playground.png'));
    }
  });

  it('switches the operation: the same filter is checked against the new record', async () => {
    await page.locator('#operation').selectOption('ref-ips');
    // ref-ips rows have no domain_score (nor is_nofollow): the interface's referring-IP record.
    await eventually(() => page.locator('#issues').textContent()).toMatch(/^1:1 unknown_field: Unknown field domain_score/);
    await eventually(() => page.locator('.cm-lintRange-error').allTextContents()).toEqual(['domain_score', 'is_nofollow']);
    expect(await page.locator('#estimate').textContent()).toBe('costs up to 200 units (20 per row × up to 10 rows)');
    await page.locator('#operation').selectOption('links');
    await eventually(() => page.locator('#issues').textContent()).toBe('');
    await eventually(() => page.locator('.cm-lintRange-error').count()).toBe(0);
  });

  it('matrix: backlinks_counts[n] is bounded by the number of urls typed', async () => {
    await page.locator('#operation').selectOption('matrix');
    expect(await page.locator('#param-urls').inputValue()).toBe('example.com, linbri.com');
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('backlinks_counts[3] > 5');
    await page.keyboard.press('Escape');
    expect(await editorText()).toBe('backlinks_counts[3] > 5');
    // docs/filter-language.md: with two targets, [3] is index_out_of_range, marked from [ to ].
    await eventually(() => page.locator('#issues').textContent()).toMatch(/^1:17 index_out_of_range: .*\n  backlinks_counts\[3\] > 5\n {18}\^\^\^$/);
    await eventually(() => page.locator('.cm-lintRange-error').allTextContents()).toEqual(['[3]']);
    await page.locator('#param-urls').fill('example.com, linbri.com, rival.com');
    await eventually(() => page.locator('#issues').textContent()).toBe('');
    expect(await page.locator('#canonical').textContent()).toBe('backlinks_counts[3] > 5');
    await eventually(() => page.locator('.cm-lintRange-error').count()).toBe(0);
  });

  it('takes the ] completion over the ] that closeBrackets typed with the [', async () => {
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('backlinks_counts[1');
    // closeBrackets typed the ] with the [; the cursor is before it.
    expect(await editorText()).toBe('backlinks_counts[1]');
    await page.keyboard.press('Control+Space');
    await page.locator('.cm-tooltip-autocomplete li', { hasText: ']' }).first().waitFor();
    expect(await page.locator('.cm-tooltip-autocomplete li .cm-completionLabel').allTextContents()).toEqual([']']);
    await page.waitForTimeout(250);
    await page.keyboard.press('Enter');
    expect(await editorText()).toBe('backlinks_counts[1]');
    // The cursor is past the ]: what comes next is typed after it.
    await page.keyboard.type(' > 5');
    await page.keyboard.press('Escape');
    expect(await editorText()).toBe('backlinks_counts[1] > 5');
    await eventually(() => page.locator('#issues').textContent()).toBe('');
  });

  it('met no script error on the way', () => {
    expect(pageErrors).toEqual([]);
  });
});

describe('the docs build (npm run playground:docs), on a static site of its own origin', () => {
  it('runs the call against the server named in its Server field', async () => {
    const out = join(dir, 'docs-playground');
    const built = spawnSync(process.execPath, ['scripts/build-playground.mjs', '--docs', '--out', out], { cwd: ROOT, encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    const site = createHttpServer((request, response) => {
      const file = join(out, (request.url ?? '/').replace(/^\/playground\//, '/').replace(/^\/$/, '/index.html'));
      try {
        const body = readFileSync(file);
        response.writeHead(200, { 'content-type': file.endsWith('.html') ? 'text/html' : file.endsWith('.css') ? 'text/css' : 'text/javascript' }).end(body);
      } catch {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const docsPage = await browser.newPage();
    try {
      const errors: string[] = [];
      docsPage.on('pageerror', (error) => errors.push(error.message));
      await docsPage.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/playground/`);
      await docsPage.locator('.cm-content').waitFor();
      // Not the site's own origin: the default of the docs build, npm start's address.
      expect(await docsPage.locator('#server').inputValue()).toBe('http://127.0.0.1:3000');
      // The target page is the server's only: the link goes there.
      expect(await docsPage.locator('#explore-link').evaluate((a) => (a as HTMLAnchorElement).href)).toBe('http://127.0.0.1:3000/explore/?url=example.com&scope=ROOT_DOMAIN');
      await docsPage.locator('#server').fill(origin);
      await docsPage.locator('#api-key').fill(KEYS[0].key);
      await docsPage.locator('.cm-content').click();
      await docsPage.keyboard.type("anchor = 'Example'");
      await docsPage.keyboard.press('Escape');
      await docsPage.locator('#param-fields').fill('source_url');
      await docsPage.locator('#run').click();
      // The links to example.com with anchor 'Example': alpha.org/post-1, gamma.io/review, epsilon.fr/ (45 units each).
      await eventually(() => docsPage.locator('#run-status').textContent()).toMatch(/^3 rows, 135 units charged, \d+ ms; [\d,]+ units left$/);
      expect((await docsPage.locator('#result tbody td').allTextContents()).sort()).toEqual(['https://alpha.org/post-1', 'https://epsilon.fr/', 'https://gamma.io/review']);
      expect(errors).toEqual([]);
    } finally {
      await docsPage.close();
      await new Promise((resolve) => site.close(resolve));
    }
  });
});

describe('a server run from the sources before any build', () => {
  it('writes the full path of the missing page to its log, and only there', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'bq-playground-empty-'));
    const lines: string[] = [];
    const logged = await createServer({
      store: await openSqliteStore({ file: join(empty, 'store.db') }),
      keys: [...KEYS],
      now: () => NOW,
      playgroundDir: join(empty, 'nowhere'),
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
    });
    try {
      const at = await logged.listen({ host: '127.0.0.1', port: 0 });
      for (const path of ['/playground/', '/playground/playground-ABCDEFGH.js']) {
        const response = await fetch(`${at}${path}`);
        expect(response.status, path).toBe(404);
        const text = await response.text();
        expect(text, path).toContain('dist/playground/');
        expect(text, path).not.toContain(empty);
      }
      const warnings = lines.map((line) => JSON.parse(line) as { level: number; msg: string; playgroundDir?: string }).filter((entry) => entry.level === 40);
      expect(warnings.map((entry) => entry.playgroundDir)).toEqual([`${join(empty, 'nowhere')}/`, `${join(empty, 'nowhere')}/`]);
      expect(warnings[0]!.msg).toBe(`playground not built: no index.html in ${join(empty, 'nowhere')}/`);
    } finally {
      await logged.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('answers /playground/ with a 404 that says to run npm run build', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'bq-playground-unbuilt-'));
    try {
      freshCopy(copy);
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--quiet'], { cwd: copy, stdio: ['ignore', 'pipe', 'pipe'] });
      try {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
        const url = await new Promise<string>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`serve printed no URL:\n${out}`)), 30_000);
          child.stdout.on('data', () => {
            const match = /listening on (http:\/\/\S+)/.exec(out);
            if (match) (clearTimeout(timer), resolve(match[1]!));
          });
          child.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${out}`)));
        });
        const response = await fetch(`${url}/playground/`);
        expect(response.status).toBe(404);
        const body = (await response.json()) as { error: { message: string; details: { rule: string }[] } };
        // The folder as a user reads it, never the install path (the page is public: no key).
        expect(body.error.message).toBe('The playground is not built: run `npm run build` (it writes dist/playground/).');
        expect(body.error.details[0]!.rule).toBe('playground_not_built');
        expect(JSON.stringify(body)).not.toContain(copy);
      } finally {
        child.kill('SIGTERM');
      }
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe('a closing-bracket suggestion before the same bracket (closeBrackets typed it)', () => {
  it('takes the bracket there over instead of adding a second one', () => {
    // (domain_score > 1|)  +  )  →  (domain_score > 1)|
    expect(suggestionChange({ label: ')', insert: ')', kind: 'punctuation', from: 17, to: 17 }, '(domain_score > 1)')).toEqual({ from: 17, to: 18, insert: ')', cursor: 18 });
    // backlinks_counts[1|]  +  ]  →  backlinks_counts[1]|
    expect(suggestionChange({ label: ']', insert: ']', kind: 'punctuation', from: 18, to: 18 }, 'backlinks_counts[1]')).toEqual({ from: 18, to: 19, insert: ']', cursor: 19 });
  });

  it('adds the bracket when another character, or none, follows', () => {
    expect(suggestionChange({ label: ')', insert: ')', kind: 'punctuation', from: 17, to: 17 }, '(domain_score > 1')).toEqual({ from: 17, to: 17, insert: ')', cursor: 18 });
    expect(suggestionChange({ label: ')', insert: ')', kind: 'punctuation', from: 17, to: 17 }, '(domain_score > 1]')).toEqual({ from: 17, to: 17, insert: ')', cursor: 18 });
    // Not a closing bracket: its range only, even before a ).
    expect(suggestionChange({ label: 'AND', insert: ' AND', kind: 'keyword', from: 17, to: 17 }, '(domain_score > 1)')).toEqual({ from: 17, to: 17, insert: ' AND', cursor: 21 });
  });
});
