/**
 * A progress line on stderr for `--all`, drawn only when stderr is a terminal (so logs and pipes
 * stay clean): a bar when the number of rows is bounded, else a counter.
 *
 * @module
 * @internal
 */
import type { TextSink } from './command.js';

const WIDTH = 24;

/** A progress display; all methods do nothing when stderr is not a terminal. @internal */
export interface Progress {
  update(rows: number, units: number): void;
  done(): void;
}

/** Creates the progress display for at most `maxRows` rows (`undefined`: unknown). @internal */
export function createProgress(stderr: TextSink, maxRows: number | undefined): Progress {
  if (!stderr.isTTY) return { update: () => {}, done: () => {} };
  let drawn = false;
  return {
    update(rows, units) {
      const counts = `${rows.toLocaleString('en-US')} rows · ${units.toLocaleString('en-US')} units`;
      if (maxRows !== undefined && maxRows > 0) {
        const filled = Math.min(WIDTH, Math.round((rows / maxRows) * WIDTH));
        stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${counts}`);
      } else {
        stderr.write(`\r${counts}`);
      }
      drawn = true;
    },
    done() {
      if (drawn) stderr.write('\r\x1b[K');
    },
  };
}
