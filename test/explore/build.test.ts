/**
 * The target page's build (scripts/build-playground.mjs --page explore) as a person runs it, and
 * its bundle budget: one script, one style sheet and index.html, the script's gzip size (level 9,
 * as the build prints it; 1 KB = 1,024 bytes) within the budget docs/playground.md states. The
 * budget is the measured size with a little headroom: a change that makes the page cost more
 * must raise it on purpose.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/fresh-copy.js';

/** KB gzip: the page's script (the package, CodeMirror, Observable Plot and its d3) and style sheet. */
const BUDGET = { script: 290, style: 3 };
const KB = 1024;

const dir = mkdtempSync(join(tmpdir(), 'bq-explore-build-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const build = (...args: string[]) => spawnSync(process.execPath, ['scripts/build-playground.mjs', ...args], { cwd: ROOT, encoding: 'utf8' });

describe('build-playground.mjs --page explore', () => {
  it('writes index.html, one script and one style sheet, within the budget', () => {
    const out = join(dir, 'page');
    const run = build('--page', 'explore', '--out', out);
    expect(run.status, run.stderr).toBe(0);
    const files = readdirSync(out).sort();
    expect(files).toHaveLength(3);
    // index.html, one script and one style sheet, each named by its content's hash.
    expect(files.map((file) => file.replace(/^explore-[A-Z0-9]{8}\./, 'explore-HASH.')).sort()).toEqual(['explore-HASH.css', 'explore-HASH.js', 'index.html']);
    const script = files.find((file) => file.endsWith('.js'));
    const style = files.find((file) => file.endsWith('.css'));
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    expect(html).toContain('<title>backlink-query explore</title>');
    expect(html).toContain(`src="./${script}"`);
    expect(html).toContain(`href="./${style}"`);
    const gzip = (file: string) => gzipSync(readFileSync(join(out, file)), { level: 9 }).length / KB;
    if (process.env['BUNDLE_SIZES']) console.log(`explore script ${gzip(script!).toFixed(1)} KB gzip, style ${gzip(style!).toFixed(1)} KB gzip`);
    expect(gzip(script!)).toBeLessThanOrEqual(BUDGET.script);
    expect(gzip(style!)).toBeLessThanOrEqual(BUDGET.style);
    // The chart library is in the bundle, not fetched: no script or style is loaded from elsewhere.
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it('refuses to empty a folder that is not a build of the target page, a playground build included', () => {
    const playground = join(dir, 'playground');
    expect(build('--out', playground).status).toBe(0);
    const run = build('--page', 'explore', '--out', playground);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^build-playground: refusing to empty .*playground: it is not empty and holds no earlier build of the target page \(no index\.html titled "backlink-query explore"\)/);
    expect(readFileSync(join(playground, 'index.html'), 'utf8')).toContain('<title>backlink-query playground</title>');

    const other = join(dir, 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'notes.txt'), 'keep me\n');
    expect(build('--page', 'explore', '--out', other).status).toBe(1);
    expect(existsSync(join(other, 'notes.txt'))).toBe(true);
  });

  it('says what is wrong with an unknown page, or --docs for the target page', () => {
    const unknown = build('--page', 'charts', '--out', join(dir, 'x'));
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toBe('build-playground: unknown page charts; usage: build-playground.mjs [--page playground|explore] [--out DIR] [--docs]\n');
    const docs = build('--page', 'explore', '--docs');
    expect(docs.status).toBe(1);
    expect(docs.stderr).toBe('build-playground: --docs builds the playground only\n');
  });
});
