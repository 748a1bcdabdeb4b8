/**
 * SIGTERM under load: `serve` runs as a process on a seeded database file; about twenty slow-ish
 * requests (a thousand filtered links of the largest target each) are in flight when it gets
 * SIGTERM. Every one of them completes with 200 and its whole body, the process exits 0 soon
 * after the last one, and the ledger lost exactly what they said they charged.
 */
import { spawn } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadStoreDeps } from '../../../src/server/deps.js';
import { cliCommand } from '../../helpers/cli-command.js';
import { fileTempDir } from '../../helpers/file-end.js';
import { LOAD_KEY, seconds, SOAK } from './load-kit.js';

const ROOT = new URL('../../..', import.meta.url).pathname;
const IN_FLIGHT = 20;
/** Enough links that a thousand filtered ones of example.com take a while (more in the soak). */
const LINKS = SOAK ? 100_000 : 10_000;
/** After the last in-flight answer, the process must be gone within this. */
const EXIT_BOUND_MS = seconds(10, 10);
const SLOW = `/_api/apis/v4/backlinks/v1/links?url=example.com&scope=ROOT_DOMAIN&limit=1000&order_by=anchor&filter=${encodeURIComponent("anchor LIKE '%e%' OR source_title LIKE '%a%'")}`;

const dir = fileTempDir('bq-load-sigterm-');
const db = () => join(dir(), 'sample.db');

function run(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [...cliCommand(), ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  return { child, exit, out: () => stdout, err: () => stderr };
}

interface Answer {
  status: number;
  error?: string;
  body: string;
  charged?: number;
  /** When the request was fully written, and when its answer ended. */
  sentAt?: number;
  endedAt?: number;
}

/** A GET that tells when it was fully sent; never rejects. */
function send(url: string, agent: Agent | false): { sent: Promise<void>; answer: Promise<Answer>; current: Answer } {
  const current: Answer = { status: 0, body: '' };
  let sent!: () => void;
  const written = new Promise<void>((resolve) => (sent = resolve));
  const answer = new Promise<Answer>((resolve) => {
    const finish = (patch: Partial<Answer>) => (Object.assign(current, patch, { endedAt: Date.now() }), sent(), resolve(current));
    const req = httpRequest(url, { headers: { authorization: `Apikey ${LOAD_KEY.key}` }, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (error) => finish({ error: error.message }));
      res.on('end', () => {
        const charged = res.headers['x-units-charged'];
        finish({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ...(charged === undefined ? {} : { charged: Number(charged) }) });
      });
    });
    req.setTimeout(60_000, () => (finish({ error: 'no answer within 60 s' }), req.destroy()));
    req.on('error', (error) => finish({ error: `${(error as NodeJS.ErrnoException).code ?? ''} ${error.message}` }));
    req.on('finish', () => ((current.sentAt = Date.now()), sent()));
    req.end();
  });
  return { sent: written, answer, current };
}

async function balanceIn(file: string): Promise<number> {
  const { Database } = await loadStoreDeps();
  const handle = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (handle.prepare('SELECT units_remaining FROM api_keys WHERE id = ?').get(LOAD_KEY.id) as { units_remaining: number }).units_remaining;
  } finally {
    handle.close();
  }
}

beforeAll(async () => {
  const seed = run(['seed', '--links', String(LINKS), '--seed', '3', '--db', db(), '--now', '2026-06-15']);
  const { code } = await seed.exit;
  expect(code, seed.err()).toBe(0);
}, 300_000);

describe('SIGTERM under load', () => {
  it(
    `lets ${IN_FLIGHT} in-flight requests finish with 200, then exits 0`,
    async () => {
      const serve = run(['serve', '--port', '0', '--db', db(), '--now', '2026-06-15', '--quiet'], { BACKLINK_QUERY_KEYS: JSON.stringify([LOAD_KEY]) });
      const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT + 5 });
      try {
        const url = await new Promise<string>((resolve, reject) => {
          serve.child.stdout.on('data', () => {
            const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(serve.out());
            if (match) resolve(match[1]!);
          });
          void serve.exit.then(({ code }) => reject(new Error(`serve exited (${code}) before listening:\n${serve.err()}`)));
        });
        const before = await balanceIn(db());
        // Warm the keep-alive connections, so the in-flight requests ride connections the server
        // already holds (the case where a closing server must still answer, then let go).
        const warm = await Promise.all(Array.from({ length: IN_FLIGHT }, () => send(`${url}/openapi.json`, agent).answer));
        expect(warm.map((a) => a.status)).toEqual(warm.map(() => 200));

        const inFlight = Array.from({ length: IN_FLIGHT }, () => send(`${url}${SLOW}`, agent));
        await Promise.all(inFlight.map((r) => r.sent));
        // Every request has been written to its connection; give the server a moment to read them.
        await new Promise((resolve) => setTimeout(resolve, 100));
        const pendingAtSignal = inFlight.filter((r) => r.current.endedAt === undefined).length;
        const signalAt = Date.now();
        serve.child.kill('SIGTERM');
        // A call after the signal is refused (a new connection once the listener is closed) or
        // answered 503, or 200 if it beat the signal's handler; never a 500, never left hanging.
        await new Promise((resolve) => setTimeout(resolve, 200));
        const late = await send(`${url}${SLOW}`, false).answer;

        const answers = await Promise.all(inFlight.map((r) => r.answer));
        const lastAnswerAt = Math.max(...answers.map((a) => a.endedAt!));
        const exit = await Promise.race([
          serve.exit,
          new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), lastAnswerAt + EXIT_BOUND_MS - Date.now())),
        ]);
        const summary = `pending at SIGTERM: ${pendingAtSignal}; answers: ${JSON.stringify(answers.map((a) => ({ status: a.status, error: a.error, ms: a.endedAt! - signalAt, bytes: a.body.length })))}; late: ${JSON.stringify({ status: late.status, error: late.error })}\nstderr: ${serve.err().slice(0, 2_000)}`;

        // The test means something only if most requests were still in flight at the signal.
        expect(pendingAtSignal, summary).toBeGreaterThanOrEqual(IN_FLIGHT / 2);
        // Every in-flight request: 200 with its whole body.
        for (const answer of answers) {
          expect(answer.status, summary).toBe(200);
          const parsed = JSON.parse(answer.body) as { meta: { success: boolean }; data: unknown[] };
          expect(parsed.meta.success).toBe(true);
          expect(parsed.data.length).toBe(answers[0] && (JSON.parse(answers[0].body) as { data: unknown[] }).data.length);
          expect(answer.charged).toBe(45 * parsed.data.length); // links: 45 units a line
        }
        expect(late.status === 200 || late.status === 503 || /ECONNREFUSED|ECONNRESET|socket hang up/.test(late.error ?? ''), summary).toBe(true);
        // The process exits 0, by itself, soon after the last answer.
        expect(exit, `serve did not exit within ${EXIT_BOUND_MS} ms of the last answer; ${summary}`).toMatchObject({ code: 0, signal: null });
        expect(serve.err()).toContain('Server closed; database closed.');
        // Every charge the answers reported is in the ledger, and nothing more.
        const charged = answers.reduce((sum, a) => sum + (a.charged ?? 0), 0) + (late.charged ?? 0);
        expect(before - (await balanceIn(db()))).toBe(charged);
        console.log(`[sigterm] ${pendingAtSignal} of ${IN_FLIGHT} in flight at SIGTERM; last answer ${lastAnswerAt - signalAt} ms after it, exit ${exit!.at - lastAnswerAt} ms after that`);
      } finally {
        agent.destroy();
        serve.child.kill('SIGKILL');
      }
    },
    SOAK ? 300_000 : 90_000,
  );
});
