/**
 * Servers under test, each in its own process (`node --import tsx ...`), so the load generator
 * never shares its event loop: `serve` itself, and the bare route (bare-route-process.ts).
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

/** Options of {@link startListening}. */
export interface ListeningOptions {
  /** What the process is, for errors ("The server", "The bare route"). */
  readonly what: string;
  /** The folder it runs in (default: this checkout's root). */
  readonly cwd?: string;
  /** How long it may take to say "listening on URL". */
  readonly timeoutMs: number;
  /** How long `stop()` waits after SIGTERM before SIGKILL. */
  readonly stopTimeoutMs: number;
  /** Each whole line it writes on stdout. */
  readonly onLine?: (line: string) => void;
  /** Run once it has stopped, or exited, or the benchmark is cleaned up (temporary files). */
  readonly cleanup?: () => void;
}

/** Starts `node ARGS` and resolves once it prints `listening on URL` on stdout. */
export function startListening(args: readonly string[], options: ListeningOptions): Promise<ServerProcess> {
  const child = spawn(process.execPath, args, { cwd: options.cwd ?? ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let exit: number | string | undefined;
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve((exit = code ?? signal ?? 'unknown'))));
  const cleanup = () => options.cleanup?.();
  const cancel = onCleanup(() => (child.kill('SIGKILL'), cleanup()));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-20_000)));
  const running = (url: string): ServerProcess => ({
    url,
    pid: child.pid!,
    alive: () => exit === undefined,
    stderr: () => stderr,
    stop: async () => {
      if (exit === undefined) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), options.stopTimeoutMs);
      const code = await exited;
      clearTimeout(timer);
      cancel();
      cleanup();
      return code;
    },
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${options.what} did not say "listening on" within ${options.timeoutMs / 1000} s.\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs);
    let partial = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (options.onLine) {
        const lines = (partial + chunk).split('\n');
        partial = lines.pop()!;
        for (const line of lines) options.onLine(line);
      }
      if (stdout.includes('listening on')) return;
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(running(match[1]!));
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      cancel();
      cleanup();
      reject(new Error(`${options.what} exited (${code}) before listening: node ${args.join(' ')}\nstdout: ${stdout}\nstderr: ${stderr}`));
    });
  });
}

/** Options of {@link startServerProcess}. */
export interface ServeOptions {
  /** How long `serve` may take to listen (default 120 s). */
  readonly timeoutMs?: number;
  /** The server logs its calls (no `--quiet`) and each JSON line it writes is passed on. */
  readonly onLogLine?: (line: Record<string, unknown>) => void;
  /** The checkout whose `serve` runs (default: this one), for comparing two commits on the same files. */
  readonly cwd?: string;
  /** Node's own flags before the script (`--cpu-prof`, ...). */
  readonly nodeArgs?: readonly string[];
}

/** Starts `serve` with `serveArgs` (the database) and the key file; resolves once it listens. */
export function startServerProcess(serveArgs: readonly string[], keyFile: string, options: ServeOptions = {}): Promise<ServerProcess> {
  const { onLogLine } = options;
  const args = [...(options.nodeArgs ?? []), '--import', 'tsx', 'src/cli/main.ts', 'serve', ...serveArgs, '--port', '0', ...(onLogLine ? [] : ['--quiet']), '--keys', keyFile, '--now', NOW];
  return startListening(args, {
    what: 'The server',
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    timeoutMs: options.timeoutMs ?? 120_000,
    stopTimeoutMs: 30_000,
    ...(onLogLine ? { onLine: (line: string) => void (line.startsWith('{') && onLogLine(JSON.parse(line) as Record<string, unknown>)) } : {}),
  });
}
