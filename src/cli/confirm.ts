/**
 * The guard against expensive surprises: a call whose worst-case price is above the threshold
 * runs only after a "yes" on the terminal, or with `--yes`. Without a terminal to ask on, it is
 * refused (exit code `refused`), never run silently.
 *
 * @module
 * @internal
 */
import type { CliIo } from './command.js';
import { readLine } from './node-io.js';
import { RefusedError } from './refused.js';

/** The default `--confirm-above`: calls that may cost more units than this ask first. @internal */
export const DEFAULT_CONFIRM_ABOVE = 1000;

/** Formats units for people: `4,500`, or `no upper bound`. @internal */
export const formatUnits = (units: number): string => (Number.isFinite(units) ? units.toLocaleString('en-US') : 'an unbounded number of');

/**
 * Asks (or refuses) when `estimate` exceeds `threshold`.
 *
 * @internal
 */
export async function confirmCost(estimate: number, threshold: number, yes: boolean, io: CliIo): Promise<void> {
  if (estimate <= threshold || yes) return;
  const cost = `This call may cost up to ${formatUnits(estimate)} units (--confirm-above ${formatUnits(threshold)})`;
  if (!io.stdin.isTTY) {
    throw new RefusedError(`${cost}; standard input is not a terminal, so nobody can confirm. Rerun with --yes, a higher --confirm-above, or caps such as --max-rows / --max-units.`);
  }
  io.stderr.write(`${cost}. Continue? [y/N] `);
  const answer = await readLine(io.stdin);
  if (!/^\s*y(es)?\s*$/i.test(answer)) throw new RefusedError('Not confirmed; nothing was sent.');
}
