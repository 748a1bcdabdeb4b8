/**
 * A progress bar on stderr when it is a terminal (no dependency): one line redrawn with `\r`.
 *
 * @module
 * @internal
 */
import type { TextSink } from '../../cli/command.js';

/**
 * A progress callback drawing `[#####.....]  50%  50,000/100,000 links`; silent when the sink is
 * not a TTY.
 *
 * @internal
 */
export function progressBar(sink: TextSink, label: string): { update: (done: number, total: number) => void; clear: () => string; end: () => void } {
  if (!sink.isTTY) return { update: () => {}, clear: () => '', end: () => {} };
  const width = 30;
  let drawn = false;
  let last = 0;
  return {
    update: (done, total) => {
      // At most ten redraws a second, and always the last one.
      const now = performance.now();
      if (done < total && now - last < 100) return;
      last = now;
      const ratio = total === 0 ? 1 : done / total;
      const filled = Math.round(ratio * width);
      const percent = String(Math.floor(ratio * 100)).padStart(3);
      sink.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${percent}%  ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} ${label}`);
      drawn = true;
    },
    /** Text that erases the bar, to print a line above it (it is redrawn on the next update). */
    clear: () => (drawn ? '\r\u001b[K' : ''),
    end: () => {
      if (drawn) sink.write('\n');
    },
  };
}
