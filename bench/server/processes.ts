/**
 * Child processes of the benchmark: running a command to completion, and a registry of what must
 * be stopped when the benchmark ends or is interrupted.
 */
import { execFile, spawn, type SpawnOptions } from 'node:child_process';

/** The output of a finished command. */
export interface CommandResult {
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to completion; rejects with its output tail when it fails. */
export function run(file: string, args: readonly string[], options: { cwd?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const env = options.env ? { env: options.env } : {};
    execFile(file, [...args], { cwd: options.cwd, timeout: options.timeoutMs ?? 600_000, maxBuffer: 64 * 1024 * 1024, ...env }, (error, stdout, stderr) => {
      if (error) {
        const tail = `${stderr}\n${stdout}`.trim().split('\n').slice(-30).join('\n');
        reject(new Error(`${file} ${args.join(' ')} failed (${error.message.split('\n')[0]}):\n${tail}`));
      } else resolve({ stdout, stderr });
    });
  });
}

/**
 * Runs a command, passing its stderr through line by line (progress), and resolves to its stdout;
 * rejects when it exits non-zero.
 */
export function runStreaming(file: string, args: readonly string[], options: SpawnOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, [...args], { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    const cancel = onCleanup(() => void child.kill('SIGTERM'));
    let stdout = '';
    let stderrTail = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      process.stderr.write(chunk);
      stderrTail = (stderrTail + chunk).slice(-4000);
    });
    child.on('error', (error) => (cancel(), reject(error)));
    child.on('close', (code, signal) => {
      cancel();
      if (code === 0) resolve(stdout);
      else reject(new Error(`${file} ${args.join(' ')} exited with ${code ?? signal}:\n${stderrTail}`));
    });
  });
}

const cleanups = new Set<() => void | Promise<void>>();

/** Registers work to do when the benchmark stops early; returns a function that unregisters it. */
export function onCleanup(work: () => void | Promise<void>): () => void {
  cleanups.add(work);
  return () => void cleanups.delete(work);
}

/** Runs every registered cleanup (newest first), once. */
export async function cleanUp(): Promise<void> {
  const works = [...cleanups].reverse();
  cleanups.clear();
  for (const work of works) {
    try {
      await work();
    } catch (error) {
      process.stderr.write(`cleanup failed: ${String(error)}\n`);
    }
  }
}
