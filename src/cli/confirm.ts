/**
 * The guard against expensive surprises: a run whose worst-case price is above the threshold
 * (`--confirm-above`, default {@link DEFAULT_CONFIRM_ABOVE}) runs only after a "yes" on the
 * terminal, with `--yes`, or under an explicit `--max-units` (the run can then spend no more than
 * the figure the user wrote, so that figure is the answer).
 *
 * The default lets one page at the default `--limit` of every operation through without a
 * question (the dearest is links: 45 units × 100 rows = 4,500), so plain calls behave the same in
 * a terminal and in a script. What needs an answer is a larger `--limit`, or `--all` beyond a few
 * thousand units. Without a terminal on stdin nobody can answer: the run is refused (exit code
 * `refused`), never run silently, and the message says how to allow it from a script.
 *
 * @module
 * @internal
 */
import type { CliIo } from './command.js';
import { readLine } from './node-io.js';
import { RefusedError } from './refused.js';
import { formatUnits } from '../client/units.js';

/**
 * The default `--confirm-above`: runs that may cost more units than this ask first. Above the
 * worst case of one call at the default limit of any operation (links: 4,500). @internal
 */
export const DEFAULT_CONFIRM_ABOVE = 5000;

/**
 * Asks (or refuses) when `estimate` exceeds `threshold`, unless the user already agreed: `yes`
 * (`--yes`) or `bounded` (an explicit `--max-units`, which the run never exceeds).
 *
 * @internal
 */
export async function confirmCost(estimate: number, threshold: number, agreed: { readonly yes: boolean; readonly bounded: boolean }, io: CliIo): Promise<void> {
  if (estimate <= threshold || agreed.yes || agreed.bounded) return;
  const cost = `This call may cost up to ${formatUnits(estimate)} units (--confirm-above ${formatUnits(threshold)})`;
  if (!io.stdin.isTTY) {
    const cover = Number.isFinite(estimate) ? `--max-units ${estimate} covers this call` : 'or bound the run with --max-rows';
    throw new RefusedError(
      `${cost}, and standard input is not a terminal, so nobody can confirm it; nothing was sent. ` +
        `To run it from a script, pass --yes, or --max-units <n> to spend at most n units (${cover}).`,
    );
  }
  io.stderr.write(`${cost}. Continue? [y/N] `);
  const answer = await readLine(io.stdin);
  if (!/^\s*y(es)?\s*$/i.test(answer)) throw new RefusedError('Not confirmed; nothing was sent.');
}
