/**
 * Progress on stderr, with no dependency, in two displays that share one bar and one redraw
 * limit:
 * - {@link createProgress}: the rows and units of `--all`, drawn only on a terminal (logs and
 *   pipes stay clean), a bar when the number of rows is bounded, else a counter;
 * - {@link phaseProgress}: the phases of a load (`seed`, `import`, `serve --sample`), a bar per
 *   phase on a terminal and one line per phase anywhere else.
 *
 * Counts arrive far faster than anyone can read (a page of 100 rows lands at once), so a line is
 * redrawn at most once every {@link REDRAW_INTERVAL_MS} ms, and the last state is always drawn.
 *
 * @module
 * @internal
 */
import type { TextSink } from './command.js';
import { counted, type Paint } from './style.js';

const WIDTH = 24;

/** The least time between two redraws: at most 10 a second. @internal */
export const REDRAW_INTERVAL_MS = 100;

/** A bar `width` characters wide, filled to `ratio` (0 to 1): `[######......]`. */
function bar(ratio: number, width: number): string {
  const filled = Math.round(Math.min(1, Math.max(0, ratio)) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

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
    const counts = `${counted(rows, 'row')} · ${counted(units, 'unit')}`;
    if (maxRows !== undefined && maxRows > 0) {
      stderr.write(`\r${bar(rows / maxRows, WIDTH)} ${counts}`);
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

/** A progress display through the phases of a load (`seed`, `import`). @internal */
export interface PhaseProgress {
  /** Starts a phase, ending the one before; `unit` names its counts (`links`, `bytes`) when it has any. */
  phase(name: string, unit?: string): void;
  /** The current phase's counts (ignored by a phase without a unit). */
  update(done: number, total: number): void;
  /** Text that erases the current line, to print a line above it (it is redrawn on the next update). */
  clear(): string;
  /** Ends the last phase. */
  end(): void;
}

/**
 * Progress through named phases, on stderr. On a terminal, each phase gets its own line: its name,
 * then (for a phase with counts) a bar redrawn at most ten times a second, left with its last
 * figures when the next phase starts. Anywhere else (a log, a pipe, CI), one line per phase as it
 * starts, `building rollups...`, and nothing in between: a log gets no carriage returns, and still
 * says what a long load is doing.
 *
 * `paint` styles the phase names (colour only where the caller's stream gets it); `now` is the
 * clock of the redraw limit, in milliseconds (tests inject theirs).
 *
 * @example
 * ```ts
 * const progress = phaseProgress(io.stderr);
 * progress.phase('writing links', 'links');
 * progress.update(5_000, 10_000);
 * progress.phase('building rollups', 'domains');
 * progress.end();
 * ```
 * @internal
 */
export function phaseProgress(sink: TextSink, options: { readonly paint?: Paint; readonly now?: () => number } = {}): PhaseProgress {
  const paint: Paint = options.paint ?? ((_style, text) => text);
  if (!sink.isTTY) {
    return { phase: (name) => void sink.write(`${name}...\n`), update: () => {}, clear: () => '', end: () => {} };
  }
  const now = options.now ?? (() => performance.now());
  const width = 30;
  let current: { name: string; unit: string | undefined } | undefined;
  let last = -Infinity;
  const close = () => {
    if (current) sink.write('\n');
    current = undefined;
  };
  return {
    phase(name, unit) {
      close();
      current = { name, unit };
      last = -Infinity;
      sink.write(`${paint('cyan', name)}...`);
    },
    update(done, total) {
      if (current?.unit === undefined) return;
      // At most ten redraws a second, and always the last one.
      const time = now();
      if (done < total && time - last < REDRAW_INTERVAL_MS) return;
      last = time;
      const ratio = total === 0 ? 1 : Math.min(1, done / total);
      const percent = String(Math.floor(ratio * 100)).padStart(3);
      const counts = `${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} ${current.unit}`;
      sink.write(`\r\u001b[K${paint('cyan', current.name)} ${bar(ratio, width)} ${percent}%  ${counts}`);
    },
    clear: () => (current ? '\r\u001b[K' : ''),
    end: close,
  };
}

/**
 * The phases of a store writer's `finish`, told apart by its rollup progress, which is all the
 * store reports: before the first rollup the store prepares (the links' deferred indexes built,
 * or PostgreSQL's CLUSTER and VACUUM, or the domains a load touched found), then one tick per
 * domain's rollups, then after the last one it finishes (the rollups' indexes, the statistics,
 * the embedded store's column file). A finish with no domain to roll up shows the first phase only.
 *
 * @example
 * ```ts
 * const phases = finishPhases(progress);
 * phases.begin();
 * await writer.finish({ onProgress: phases.onProgress });
 * progress.end();
 * ```
 * @internal
 */
export function finishPhases(progress: PhaseProgress): { begin(): void; onProgress(done: number, total: number): void } {
  let rolling = false;
  return {
    begin: () => progress.phase('indexing links'),
    onProgress(done, total) {
      if (!rolling) {
        rolling = true;
        progress.phase('building rollups', 'domains');
      }
      progress.update(done, total);
      if (done >= total) progress.phase('finishing');
    },
  };
}
