/**
 * Progress through every phase of `seed` and `import`: on a terminal a line per phase with its
 * name (and a bar for the phases with counts), elsewhere one log line per phase on stderr. The
 * display is checked with an injected clock (no timing); the commands run for real, piped and on a
 * pseudo-terminal (util-linux `script`), into temporary embedded stores.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { finishPhases, phaseProgress, type PhaseProgress } from '../../src/cli/progress.js';
import { runCli } from './helpers/run-cli.js';
import { runTty } from './helpers/run-tty.js';

const dir = mkdtempSync(join(tmpdir(), 'bq-progress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('phaseProgress', () => {
  it('on a terminal: each phase on its own line, bars redrawn at most every 100 ms, the last figures always drawn', () => {
    const writes: string[] = [];
    const clock = { now: 0 };
    const progress = phaseProgress({ isTTY: true, write: (text: string) => writes.push(text) }, { now: () => clock.now });
    progress.phase('writing links', 'links');
    progress.update(1_000, 4_000);
    clock.now += 50;
    progress.update(2_000, 4_000); // 50 ms after the last draw: skipped
    clock.now += 50;
    progress.update(3_000, 4_000);
    progress.update(4_000, 4_000); // the last figures, drawn at once
    progress.phase('indexing links');
    progress.update(1, 2); // a phase without counts draws no bar
    progress.end();
    expect(writes).toEqual([
      'writing links...',
      `\r\x1b[Kwriting links [${'#'.repeat(8)}${'.'.repeat(22)}]  25%  1,000/4,000 links`,
      `\r\x1b[Kwriting links [${'#'.repeat(23)}${'.'.repeat(7)}]  75%  3,000/4,000 links`,
      `\r\x1b[Kwriting links [${'#'.repeat(30)}] 100%  4,000/4,000 links`,
      '\n',
      'indexing links...',
      '\n',
    ]);
  });

  it('elsewhere: one line per phase as it starts, nothing else', () => {
    const writes: string[] = [];
    const progress = phaseProgress({ isTTY: false, write: (text: string) => writes.push(text) });
    progress.phase('importing records', 'bytes');
    progress.update(10, 20);
    expect(progress.clear()).toBe('');
    progress.phase('building rollups', 'domains');
    progress.update(20, 20);
    progress.end();
    expect(writes).toEqual(['importing records...\n', 'building rollups...\n']);
  });

  it("finishPhases: the store's finish as indexing, rollups by domain, then finishing", () => {
    const seen: string[] = [];
    const recorder: PhaseProgress = {
      phase: (name, unit) => void seen.push(unit === undefined ? name : `${name} (${unit})`),
      update: (done, total) => void seen.push(`${done}/${total}`),
      clear: () => '',
      end: () => void seen.push('end'),
    };
    const phases = finishPhases(recorder);
    phases.begin();
    for (let done = 1; done <= 3; done++) phases.onProgress(done, 3);
    recorder.end();
    expect(seen).toEqual(['indexing links', 'building rollups (domains)', '1/3', '2/3', '3/3', 'finishing', 'end']);
  });
});

const link = (source: string, target: string, anchor: string) => ({
  source_url: `https://${source}/post`, target_url: target, anchor, redirect_url: '', source_title: 'A post', target_title: '', image_url: '',
  image_alt: '', ip_address: '198.51.100.1', lang: 'en', source_size: 1000, external_links_count: 10, internal_links_count: 20, response_code: 200,
  page_score: 30, domain_score: 40, first_seen_at: '2025-01-01T00:00:00', last_seen_at: '2026-06-01T00:00:00', source_domain: source,
  is_nofollow: false, is_ugc: false, is_sponsored: false, is_form: false, is_frame: false, is_image: false, is_sitewide_main: false, is_lost: false,
});

describe('seed and import', () => {
  it('seed, piped: one line per phase on stderr, in order', async () => {
    const run = await runCli(['seed', '--links', '300', '--db', join(dir, 'piped.db')]);
    expect(run.code).toBe(0);
    const lines = run.stderr.split('\n');
    expect(lines.slice(0, 6)).toEqual([
      'Creating sample data: 300 links, seed 1...',
      'writing links...',
      'writing keyword metrics...',
      'indexing links...',
      'building rollups...',
      'finishing...',
    ]);
    expect(lines[6]).toMatch(/^Sample data ready in [\d.]+ s: 300 links to \d+ targets/);
    expect(run.stderr).not.toContain('\r');
  });

  it('seed on a terminal: a bar for the links and one for the rollups, by domain, to 100%', async () => {
    const run = await runTty(['seed', '--links', '300', '--db', join(dir, 'tty.db')], { NO_COLOR: '1' });
    expect(run.code).toBe(0);
    expect(run.output).toContain(`\r\x1b[Kwriting links [${'#'.repeat(30)}] 100%  300/300 links\nwriting keyword metrics...\nindexing links...\nbuilding rollups...`);
    const targets = /300 links to (\d+) targets/.exec(run.output)?.[1];
    // The target domains the seed wrote, counted in the file it wrote, not taken from what it printed.
    const db = new Database(join(dir, 'tty.db'), { readonly: true });
    const written = (db.prepare('SELECT count(DISTINCT target_domain) AS n FROM links').get() as { n: number }).n;
    db.close();
    expect(targets).toBe(String(written));
    // The sample's links go to its targets' domains: one rollup per target.
    expect(run.output).toContain(`\r\x1b[Kbuilding rollups [${'#'.repeat(30)}] 100%  ${targets}/${targets} domains\nfinishing...\n`);
  });

  it('import, piped: reading, indexing, rollups (one line each), then the summary', async () => {
    const file = join(dir, 'links.ndjson');
    writeFileSync(file, `${[link('alpha.org', 'https://example.com/', 'Example'), link('beta.net', 'https://rival.com/', 'Rival')].map((l) => JSON.stringify(l)).join('\n')}\n`);
    const run = await runCli(['import', file, '--db', join(dir, 'import.db')]);
    expect(run.code).toBe(0);
    const lines = run.stderr.split('\n');
    expect(lines.slice(0, 4)).toEqual(['importing records...', 'indexing links...', 'building rollups...', 'finishing...']);
    expect(lines[4]).toMatch(/^Imported 2 records from 1 file into .*import\.db in [\d.]+ s .*rollups of 2 domains updated\.$/);
  });
});
