/**
 * Runs the real CLI as a child process (built from the sources for this run:
 * test/helpers/cli-command.ts) from the project folder, with a given environment and standard
 * input (a pipe, so never a terminal).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cliCommand } from '../../helpers/cli-command.js';

export const PROJECT = fileURLToPath(new URL('../../../', import.meta.url));

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(args: readonly string[], options: { env?: Record<string, string>; stdin?: string } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...cliCommand(), ...args], {
      cwd: PROJECT,
      // Only what the CLI needs: no API key or base URL leaks in from the outer environment.
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}
