/** The CLI as a child process for the server tests (`seed`, `serve`), built from the sources (test/helpers/cli-command.ts). */
import { spawn } from 'node:child_process';
import { cliCommand } from '../../helpers/cli-command.js';

const ROOT = new URL('../../..', import.meta.url).pathname;

/**
 * Runs the CLI with `args` in `cwd` (the clone by default); stdout and stderr are collected, `exit`
 * resolves with the code. An `env` value of `undefined` takes the variable away.
 */
export function spawnCli(args: string[], env: Record<string, string | undefined> = {}, cwd = ROOT) {
  const child = spawn(process.execPath, [...cliCommand(), ...args], { cwd, env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, exit, out: () => stdout, err: () => stderr };
}

/** Waits until `read()` matches `pattern`; fails when the process ends first. */
export async function waitFor(read: () => string, pattern: RegExp, exit: Promise<unknown>): Promise<RegExpExecArray> {
  for (;;) {
    const match = pattern.exec(read());
    if (match) return match;
    const ended = await Promise.race([exit.then(() => true), new Promise((r) => setTimeout(() => r(false), 50))]);
    if (ended && !pattern.exec(read())) throw new Error(`process ended before printing ${pattern}:\n${read()}`);
  }
}
