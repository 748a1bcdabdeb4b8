/**
 * Starting and ending `backlink-query mcp` as a process: without the optional SDK it says what to
 * install (the SDK hidden by test/entries/hide-packages.mjs, as on a machine where it is not
 * installed), its help and usage errors need no SDK, and a session ends when the client closes
 * standard input, with nothing but the protocol on standard output.
 */
import { describe, expect, it } from 'vitest';
import { runMain } from '../cli/helpers/run-main.js';
import { runCli, startSession } from './session.js';

/** The SDK's entries the tool server loads, as the hook hides them (exact specifiers). */
const SDK_ENTRIES = ['@modelcontextprotocol/sdk/server/index.js', '@modelcontextprotocol/sdk/server/stdio.js', '@modelcontextprotocol/sdk/types.js'];

/** What the command says without the SDK, written out by hand. */
const MISSING_SDK = [
  'backlink-query mcp needs an optional package that is not installed: @modelcontextprotocol/sdk.',
  "backlink-query installs it as an optional dependency; npm install --omit=optional, or a failed install of it (see npm's log), leaves it out.",
  'Install it with:',
  '  npm install @modelcontextprotocol/sdk',
  'or, outside a project that has backlink-query installed, with npx:',
  '  npx -p backlink-query -p @modelcontextprotocol/sdk backlink-query mcp',
  '',
].join('\n');

describe('backlink-query mcp without @modelcontextprotocol/sdk', () => {
  it('names the package and the commands to install it (npm, npx), and exits 1', async () => {
    const run = await runCli(['mcp', '--base-url', 'http://127.0.0.1:9', '--api-key', 'some-key-000'], { hide: SDK_ENTRIES });
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(MISSING_SDK);
    expect(run.code).toBe(1);
  });

  it('says so first, before asking for the key and the base URL that would not help', async () => {
    const run = await runCli(['mcp'], { hide: SDK_ENTRIES });
    expect([run.code, run.stdout, run.stderr]).toEqual([1, '', MISSING_SDK]);
  });

  it('still prints its help, which names the options and the package', async () => {
    const run = await runCli(['mcp', '--help'], { hide: SDK_ENTRIES });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: backlink-query mcp /);
    for (const option of ['--base-url', '--api-key', '--budget', '--max-call-units']) expect(run.stdout).toContain(option);
    expect(run.stdout).toContain('@modelcontextprotocol/sdk');
  });
});

// Usage mistakes are found before anything is loaded or served: the CLI's main in this process.
describe('usage', () => {
  it('needs an API key and a base URL, as the operation commands do', async () => {
    const noKey = await runMain(['mcp', '--base-url', 'http://127.0.0.1:9']);
    expect([noKey.code, noKey.stdout]).toEqual([2, '']);
    expect(noKey.stderr).toContain('No API key: set BACKLINK_QUERY_API_KEY or pass --api-key.');
    const noUrl = await runMain(['mcp'], { env: { BACKLINK_QUERY_API_KEY: 'some-key-000' } });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('No base URL: set BACKLINK_QUERY_BASE_URL or pass --base-url.');
  });

  it('refuses a budget that is not a whole number, and arguments', async () => {
    const run = await runMain(['mcp', '--budget', 'lots', '--base-url', 'http://127.0.0.1:9', '--api-key', 'some-key-000']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--budget must be a whole number of at least 0, not "lots".');
    const positional = await runMain(['mcp', 'links', '--base-url', 'http://127.0.0.1:9', '--api-key', 'some-key-000']);
    expect(positional.code).toBe(2);
    expect(positional.stderr).toContain('mcp takes no arguments');
  });

  it('is listed in the program help', async () => {
    const run = await runMain(['--help']);
    expect(run.stdout).toMatch(/\n {2}mcp +Serve the operations as MCP tools/);
  });
});

describe('a session', () => {
  it('ends when the client closes standard input, logging on standard error only', async () => {
    const session = await startSession(['--budget', '500', '--retries', '0', '--base-url', 'http://127.0.0.1:9', '--api-key', 'some-key-000']);
    // A call the network refuses (nothing listens on port 9) is a tool error, not the end of the server.
    const result = await session.call('overview', { url: 'example.com', scope: 'ROOT_DOMAIN' });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as { error: { kind: string } }).error.kind).toBe('unavailable');
    await session.close();
    // Standard output held protocol messages only.
    expect(session.errors()).toEqual([]);
    expect(() => process.kill(session.pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    // Written after the end of standard input closed the server (not after a signal from the transport).
    expect(session.stderr()).toContain('backlink-query mcp: serving 14 tools on stdio for http://127.0.0.1:9 (budget 500 units, at most 5,000 units a call)');
    expect(session.stderr()).toContain('backlink-query mcp: input ended; 0 units spent');
  });
});
