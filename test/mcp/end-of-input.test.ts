/**
 * The end of a session while a paid call is still running: a client that sends a `tools/call` and
 * closes its standard input at once (as a host does when it shuts down) still gets the answer of
 * the call it was charged for, and the last log line counts its units. A raw JSON-RPC exchange
 * over the CLI's stdio (the SDK's client cannot close its input with a request in flight), against
 * the reference server on the hand-written fixture of test/server/support/fixture.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { KEYS, NOW } from '../server/support/fixture.js';
import { fixtureStore } from '../server/support/helpers.js';
import { runCli } from './session.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ store: await fixtureStore(), keys: KEYS, now: () => NOW, port: 0, host: '127.0.0.1', rateLimits: { perSecond: 1000, concurrent: 100 } });
});
afterAll(() => server?.close());

async function unitsLeft(): Promise<number> {
  const response = await fetch(`${server.url}/_api/apis/v4/units/v1/balance`, { headers: { authorization: `Apikey ${KEYS[0].key}` } });
  return ((await response.json()) as { data: { units_remaining: number } }).data.units_remaining;
}

/**
 * Runs `backlink-query mcp <args>`, writes `messages` (one JSON-RPC message a line) in one go and
 * ends standard input right after; resolves when the process exits, with what it wrote.
 */
const exchange = (args: readonly string[], messages: readonly object[]) =>
  runCli(['mcp', ...args], { input: messages.map((message) => `${JSON.stringify(message)}\n`).join('') });

describe('the end of input with a call running', () => {
  it('answers the call, then ends, and logs the units it cost', async () => {
    const before = await unitsLeft();
    const run = await exchange(
      ['--budget', '1000', '--retries', '0', '--base-url', server.url, '--api-key', KEYS[0].key],
      [
        { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } } },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'links', arguments: { url: 'example.com', scope: 'ROOT_DOMAIN', limit: 20 } } },
      ],
    );
    expect(run.code, run.stderr).toBe(0);
    // Standard output: the protocol only, one message a line, both requests answered.
    const messages = run.stdout.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as { id?: number; result?: any; error?: unknown });
    expect(messages.map((message) => message.id)).toEqual([1, 2]);
    const answer = messages[1]!;
    expect(answer.error).toBeUndefined();
    expect(answer.result.isError).toBeUndefined();
    // example.com has 7 links in the fixture; links cost 45 units a returned line: 7 × 45 = 315.
    expect(answer.result.structuredContent.data).toHaveLength(7);
    expect(answer.result.structuredContent.units).toBe(315);
    expect(answer.result.structuredContent.session).toEqual({ units_spent: 315, budget_remaining: 685 });
    expect(await unitsLeft()).toBe(before - 315);
    // The last line, written once the answer was sent, counts the call.
    expect(run.stderr).toContain('backlink-query mcp: links: 7 rows · 315 units');
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe('backlink-query mcp: input ended; 315 units spent');
  });

  it('ends at once when nothing is running', async () => {
    const run = await exchange(
      ['--base-url', server.url, '--api-key', KEYS[0].key],
      [{ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } } }],
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split('\n').filter((line) => line !== '').map((line) => (JSON.parse(line) as { id: number }).id)).toEqual([1]);
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe('backlink-query mcp: input ended; 0 units spent');
  });
});
