/**
 * scripts/build-playground.mjs as a person runs it: `--out` empties the folder it is given before
 * building, so it must refuse a folder that is not an earlier build of the page (`--out .` would
 * otherwise empty the current folder), and leave every file of it in place.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/fresh-copy.js';

const dir = mkdtempSync(join(tmpdir(), 'bq-playground-build-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const buildInto = (out: string) => spawnSync(process.execPath, ['scripts/build-playground.mjs', '--out', out], { cwd: ROOT, encoding: 'utf8' });

describe('build-playground.mjs --out', () => {
  it('refuses a folder that holds other files, and removes none of them', () => {
    const out = join(dir, 'not-a-build');
    mkdirSync(join(out, 'sub'), { recursive: true });
    writeFileSync(join(out, 'notes.txt'), 'keep me\n');
    writeFileSync(join(out, 'index.html'), '<title>my own page</title>\n');
    const run = buildInto(out);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^build-playground: refusing to empty .*not-a-build: it is not empty and holds no earlier build of the playground/);
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('keep me\n');
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe('<title>my own page</title>\n');
    expect(existsSync(join(out, 'sub'))).toBe(true);
  });

  it('builds into a new folder, then again over its own earlier build', () => {
    const out = join(dir, 'page');
    const first = buildInto(out);
    expect(first.status, first.stderr).toBe(0);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('<title>backlink-query playground</title>');
    writeFileSync(join(out, 'stale.js'), '');
    const again = buildInto(out);
    expect(again.status, again.stderr).toBe(0);
    // Emptied first: the earlier build's leftovers are gone.
    expect(existsSync(join(out, 'stale.js'))).toBe(false);
  });
});
