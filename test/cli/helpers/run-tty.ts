/**
 * Runs the real CLI on a real pseudo-terminal, with util-linux's `script`: stdin, stdout and
 * stderr are the terminal, as in an interactive shell. What the terminal shows comes back as one
 * text (stdout and stderr interleaved), its line ends `\r\n` turned into `\n`. A missing `script`
 * fails the test (spawn error): nothing is skipped.
 */
import { spawn } from 'node:child_process';
import { cliCommand } from '../../helpers/cli-command.js';
import { PROJECT } from './run-cli.js';

/** Quotes a word for `sh -c`. */
const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

export function runTty(args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, ...cliCommand(), ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd: PROJECT,
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', TERM: 'xterm', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output: output.replace(/\r\n/g, '\n') }));
    child.stdin.end();
  });
}
