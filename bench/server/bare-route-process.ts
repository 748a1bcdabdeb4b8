/**
 * The bare route's side in the benchmark: the bytes the real server answers to each call, captured
 * once, and the bare route (bare-route.ts) started in its own process to answer them.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BareAnswer } from './bare-route.js';
import { callPath, type BenchCall } from './calls.js';
import { BENCH_KEY } from './databases.js';
import { onCleanup } from './processes.js';

/** A running bare route. */
export interface BareRoute {
  readonly url: string;
  readonly pid: number;
  /** Whether the process is still running. */
  alive(): boolean;
  /** What it wrote on stderr so far. */
  stderr(): string;
  /** Stops it with SIGTERM; resolves to its exit code (or signal name). */
  stop(): Promise<number | string>;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * One GET per call against the real server (with the bench's key): what it answered, for the bare
 * route to answer the same. A call answered other than 200 is left out (its reason in `failures`).
 */
export async function captureAnswers(serverUrl: string, calls: readonly BenchCall[]): Promise<{ answers: BareAnswer[]; failures: string[] }> {
  const answers: BareAnswer[] = [];
  const failures: string[] = [];
  for (const call of calls) {
    const url = callPath(call);
    const response = await fetch(`${serverUrl}${url}`, { headers: { authorization: `Apikey ${BENCH_KEY.key}` } });
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) {
      failures.push(`${call.name}: the capture for the bare route answered ${response.status}: ${body.toString('utf8').slice(0, 300)}`);
      continue;
    }
    answers.push({ url, contentType: response.headers.get('content-type') ?? 'application/octet-stream', body: body.toString('base64') });
  }
  return { answers, failures };
}

/** The size in bytes of an answer's body. */
export const answerBytes = (answer: BareAnswer): number => Buffer.byteLength(answer.body, 'base64');

/** Starts the bare route on `answers` in its own process; resolves once it listens. */
export function startBareRoute(answers: readonly BareAnswer[], timeoutMs = 60_000): Promise<BareRoute> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-bare-'));
  const file = join(dir, 'answers.json');
  writeFileSync(file, JSON.stringify(answers));
  const removeFile = () => rmSync(dir, { recursive: true, force: true });
  const args = ['--import', 'tsx', join(ROOT, 'bench/server/bare-route.ts'), file];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let exit: number | string | undefined;
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve((exit = code ?? signal ?? 'unknown'))));
  const cancel = onCleanup(() => {
    child.kill('SIGKILL');
    removeFile();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-20_000)));
  const bare = (url: string): BareRoute => ({
    url,
    pid: child.pid!,
    alive: () => exit === undefined,
    stderr: () => stderr,
    stop: async () => {
      if (exit === undefined) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(timer);
      cancel();
      return code;
    },
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`The bare route did not say "listening on" within ${timeoutMs / 1000} s.\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.includes('listening on')) return;
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        // It has read its answers: the file is no longer needed.
        removeFile();
        resolve(bare(match[1]!));
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      removeFile();
      cancel();
      reject(new Error(`The bare route exited (${code}) before listening: node ${args.join(' ')}\nstdout: ${stdout}\nstderr: ${stderr}`));
    });
  });
}
