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
export function progressBar(sink: TextSink, label: string): { update: (done: number, total: number) => void; end: () => void } {
  if (!sink.isTTY) return { update: () => {}, end: () => {} };
  const width = 30;
  let drawn = false;
  return {
    update: (done, total) => {
      const ratio = total === 0 ? 1 : done / total;
      const filled = Math.round(ratio * width);
      const percent = String(Math.floor(ratio * 100)).padStart(3);
      sink.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${percent}%  ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} ${label}`);
      drawn = true;
    },
    end: () => {
      if (drawn) sink.write('\n');
    },
  };
}
