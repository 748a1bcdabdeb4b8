/**
 * The `--all` progress line is redrawn at most about 10 times a second, plus one final draw of the
 * last figures before it is cleared. The unit tests drive an injected clock (no timing); the CLI
 * run (in-process, stderr claiming to be a terminal) checks the bound against the time it took.
 */
import { describe, expect, it } from 'vitest';
import { createProgress, REDRAW_INTERVAL_MS } from '../../src/cli/progress.js';
import type { FixtureServer } from '../client/helpers/fixture-server.js';
import { useCliFixture } from './helpers/fixture.js';
import { runMain } from './helpers/run-main.js';

/** A terminal-like sink that records each write with the clock's time. */
function terminal(clock: { now: number }) {
  const writes: { text: string; at: number }[] = [];
  return { sink: { isTTY: true, write: (text: string) => writes.push({ text, at: clock.now }) }, writes };
}

/** The draws among the writes (each starts with a carriage return and is not the final clear). */
const draws = (writes: readonly { text: string; at: number }[]) => writes.filter((w) => w.text.startsWith('\r') && w.text !== '\r\x1b[K');

describe('createProgress with an injected clock', () => {
  it('1,500 rows over 1.5 s: one draw per 100 ms, then the final figures, then the line cleared', () => {
    const clock = { now: 0 };
    const { sink, writes } = terminal(clock);
    const progress = createProgress(sink, 1500, () => clock.now);
    for (let rows = 1; rows <= 1500; rows++) {
      progress.update(rows, rows * 20);
      clock.now += 1;
    }
    progress.done();
    // Draws at 0, 100, ..., 1400 ms (15), and the final one for row 1,500.
    expect(draws(writes)).toHaveLength(16);
    expect(REDRAW_INTERVAL_MS).toBe(100);
    const times = draws(writes).slice(0, -1).map((w) => w.at);
    expect(times).toEqual(Array.from({ length: 15 }, (_, i) => i * 100));
    expect(writes.at(-2)!.text).toBe('\r[########################] 1,500 rows · 30,000 units');
    expect(writes.at(-1)!.text).toBe('\r\x1b[K');
  });

  it('rows arriving all at once: the first draw and the final one only', () => {
    const clock = { now: 5_000 };
    const { sink, writes } = terminal(clock);
    const progress = createProgress(sink, undefined, () => clock.now);
    for (let rows = 1; rows <= 1500; rows++) progress.update(rows, rows);
    progress.done();
    expect(writes.map((w) => w.text)).toEqual(['\r1 row · 1 unit', '\r1,500 rows · 1,500 units', '\r\x1b[K']);
  });

  it('no extra final draw when the last update was drawn; nothing at all when stderr is not a terminal', () => {
    const clock = { now: 0 };
    const { sink, writes } = terminal(clock);
    const progress = createProgress(sink, 10, () => clock.now);
    progress.update(5, 50);
    clock.now += 100;
    progress.update(10, 100);
    progress.done();
    expect(writes.map((w) => w.text)).toEqual(['\r[############............] 5 rows · 50 units', '\r[########################] 10 rows · 100 units', '\r\x1b[K']);

    const piped: string[] = [];
    const quiet = createProgress({ write: (text: string) => piped.push(text) }, 10, () => clock.now);
    quiet.update(1, 1);
    quiet.done();
    expect(piped).toEqual([]);
  });

  it('never more than one draw per 100 ms, whatever the pace of rows', () => {
    for (const step of [0.5, 7, 33, 99, 100, 250]) {
      const clock = { now: 0 };
      const { sink, writes } = terminal(clock);
      const progress = createProgress(sink, undefined, () => clock.now);
      for (let rows = 1; rows <= 1000; rows++) {
        progress.update(rows, rows);
        clock.now += step;
      }
      progress.done();
      const times = draws(writes).slice(0, -1).map((w) => w.at);
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(100);
      expect(draws(writes).length).toBeLessThanOrEqual(Math.floor((1000 * step) / 100) + 2);
    }
  });
});

describe('the CLI with stderr on a terminal', () => {
  let server: FixtureServer;
  let env: Record<string, string>;
  useCliFixture((fixture) => void ({ server, env } = fixture));

  it('1,500 rows with --all: at most one redraw per 100 ms of the run, plus the first and the final one', async () => {
    server.total = 1500;
    const started = performance.now();
    const run = await runMain(['ref-ips', 'example.com', '--scope', 'PAGE', '--all', '--max-rows', '1500', '--yes', '--format', 'ndjson'], { env, tty: true });
    const elapsed = performance.now() - started;
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(1500);
    const redraws = run.stderr.split('\r[').length - 1;
    // 1,500 before the limit; now bounded by the time the run took (a few per second on a busy machine).
    expect(redraws).toBeGreaterThanOrEqual(2);
    expect(redraws).toBeLessThanOrEqual(Math.floor(elapsed / REDRAW_INTERVAL_MS) + 2);
    expect(run.stderr).toContain('\r[########################] 1,500 rows · 30,000 units\r\x1b[K');
    expect(run.stderr).toContain('1,500 rows · 30,000 units · 15 pages (all rows read)');
  });
});
