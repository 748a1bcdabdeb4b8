/**
 * Runs the CLI's `main` in this process with collected streams: the same code as the child
 * process, without its start-up time, for the long tables of cases. `tty` makes stdin and stderr
 * claim to be terminals (for the confirmation prompt and the progress bar).
 */
import { Readable } from 'node:stream';
import type { CliIo } from '../../../src/cli/command.js';
import { main } from '../../../src/cli/main.js';
import type { CliRun } from './run-cli.js';

export async function runMain(args: readonly string[], options: { env?: Record<string, string>; stdin?: string; tty?: boolean } = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const stdin = Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]) as Readable & { isTTY?: boolean };
  if (options.tty) stdin.isTTY = true;
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text), isTTY: options.tty === true },
    stdin,
    env: options.env ?? {},
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}
