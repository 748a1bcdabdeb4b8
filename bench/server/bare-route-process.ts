/**
 * The bare route's side in the benchmark: the bytes the real server answers to each call, captured
 * once, and the bare route (bare-route.ts) started in its own process to answer them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BareAnswer } from './bare-route.js';
import { callPath, type BenchCall } from './calls.js';
import { BENCH_KEY } from './databases.js';
import { startListening, type ServerProcess } from './server-process.js';

/** A running bare route. */
export type BareRoute = ServerProcess;

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
  return startListening(['--import', 'tsx', join(ROOT, 'bench/server/bare-route.ts'), file], {
    what: 'The bare route',
    timeoutMs,
    stopTimeoutMs: 10_000,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  });
}
