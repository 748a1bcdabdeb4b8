/**
 * A progress line on stderr for `--all`, drawn only when stderr is a terminal (so logs and pipes
 * stay clean): a bar when the number of rows is bounded, else a counter.
 *
 * Rows arrive far faster than anyone can read (a page of 100 rows lands at once), so the line is
 * redrawn at most once every {@link REDRAW_INTERVAL_MS} ms; `done()` draws the last state before
 * clearing the line, so the final figures are always shown.
 *
 * @module
 * @internal
 */
import type { TextSink } from './command.js';

const WIDTH = 24;

/** The least time between two redraws: at most 10 a second. @internal */
export const REDRAW_INTERVAL_MS = 100;

/** A progress display; all methods do nothing when stderr is not a terminal. @internal */
export interface Progress {
  update(rows: number, units: number): void;
  done(): void;
}

/**
 * Creates the progress display for at most `maxRows` rows (`undefined`: unknown). `now` is the
 * clock in milliseconds (monotonic by default; tests inject their own).
 *
 * @internal
 */
export function createProgress(stderr: TextSink, maxRows: number | undefined, now: () => number = () => performance.now()): Progress {
  if (!stderr.isTTY) return { update: () => {}, done: () => {} };
  let drawn = false;
  let lastDraw = -Infinity;
  /** The state not yet on screen, if the last update was skipped. */
  let pending: { rows: number; units: number } | undefined;
  const draw = (rows: number, units: number): void => {
    const counts = `${rows.toLocaleString('en-US')} rows · ${units.toLocaleString('en-US')} units`;
    if (maxRows !== undefined && maxRows > 0) {
      const filled = Math.min(WIDTH, Math.round((rows / maxRows) * WIDTH));
      stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${counts}`);
    } else {
      stderr.write(`\r${counts}`);
    }
    drawn = true;
  };
  return {
    update(rows, units) {
      const time = now();
      if (time - lastDraw < REDRAW_INTERVAL_MS) {
        pending = { rows, units };
        return;
      }
      lastDraw = time;
      pending = undefined;
      draw(rows, units);
    },
    done() {
      if (pending) draw(pending.rows, pending.units);
      pending = undefined;
      if (drawn) stderr.write('\r\x1b[K');
    },
  };
}
