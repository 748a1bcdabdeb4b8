/**
 * The server under test, in its own process (`node --import tsx src/cli/main.ts serve ...`), so the
 * load generator never shares its event loop.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { NOW } from './databases.js';
import { onCleanup } from './processes.js';

/** A running server. */
export interface ServerProcess {
  readonly url: string;
  readonly pid: number;
  /** Whether the process is still running. */
  alive(): boolean;
  /** What the server wrote on stderr so far. */
  stderr(): string;
  /** Stops it with SIGTERM; resolves to its exit code (or signal name). */
  stop(): Promise<number | string>;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Starts `serve` with `serveArgs` (the database) and the key file; resolves once it listens. With
 * `onLogLine`, the server logs its calls (no `--quiet`) and each JSON line it writes is passed on.
 */
export function startServerProcess(
  serveArgs: readonly string[],
  keyFile: string,
  timeoutMs = 120_000,
  onLogLine?: (line: Record<string, unknown>) => void,
): Promise<ServerProcess> {
  const args = ['--import', 'tsx', 'src/cli/main.ts', 'serve', ...serveArgs, '--port', '0', ...(onLogLine ? [] : ['--quiet']), '--keys', keyFile, '--now', NOW];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let exit: number | string | undefined;
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve((exit = code ?? signal ?? 'unknown'))));
  const cancel = onCleanup(() => void child.kill('SIGKILL'));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-20_000)));
  const server = (url: string): ServerProcess => ({
    url,
    pid: child.pid!,
    alive: () => exit === undefined,
    stderr: () => stderr,
    stop: async () => {
      if (exit === undefined) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const code = await exited;
      clearTimeout(timer);
      cancel();
      return code;
    },
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`The server did not say "listening on" within ${timeoutMs / 1000} s.\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    let partial = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (onLogLine) {
        const lines = (partial + chunk).split('\n');
        partial = lines.pop()!;
        for (const line of lines) if (line.startsWith('{')) onLogLine(JSON.parse(line) as Record<string, unknown>);
      }
      if (stdout.includes('listening on')) return;
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(server(match[1]!));
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      cancel();
      reject(new Error(`The server exited (${code}) before listening: node ${args.join(' ')}\nstdout: ${stdout}\nstderr: ${stderr}`));
    });
  });
}
