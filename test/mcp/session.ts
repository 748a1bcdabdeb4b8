/**
 * An MCP session with `backlink-query mcp`, the way an agent's host starts it: the SDK's own
 * `Client` over `StdioClientTransport`, which spawns the CLI built from the sources for this run
 * (test/helpers/cli-command.ts) as `... mcp ...`, with only the environment given here.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cliCommand } from '../helpers/cli-command.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Session {
  readonly client: Client;
  /** Everything the server wrote on standard error so far. */
  readonly stderr: () => string;
  /** The server's process id. */
  readonly pid: number;
  /** What the client could not read (a line on standard output that is not a protocol message, ...). */
  readonly errors: () => readonly Error[];
  /** Calls a tool; the result as the SDK parsed it. */
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Starts `backlink-query mcp <args>` and connects to it. */
export async function startSession(args: readonly string[], env: Record<string, string> = {}): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...cliCommand(), 'mcp', ...args],
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'backlink-query-test', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    pid: transport.pid!,
    errors: () => errors,
    call: async (name, callArgs) => (await client.callTool({ name, arguments: callArgs })) as CallToolResult,
    close: () => client.close(),
  };
}

/** The text of a result's content blocks, joined. */
export const textOf = (result: CallToolResult): string =>
  result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');

/** What a run of the CLI wrote, and how it ended. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the CLI built for this run (test/helpers/cli-command.ts) with only PATH and HOME
 * (and `env`), writes `input` to its standard input and ends it; resolves when the process exits.
 * `hide` names packages to hide from it (test/entries/hide-packages.mjs), as if not installed.
 */
export function runCli(args: readonly string[], options: { input?: string; hide?: readonly string[]; env?: Record<string, string> } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', './test/entries/hide-packages.mjs', ...cliCommand(), ...args], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', BQ_HIDE_PACKAGES: (options.hide ?? []).join(','), ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
