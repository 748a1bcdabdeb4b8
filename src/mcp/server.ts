/**
 * The MCP tool server of `backlink-query mcp` on standard input and output, built on the SDK's
 * low-level `Server` (its `tools/list` and `tools/call` handlers), so that the tools' input
 * schemas are the plain JSON Schemas generated from the catalogue (`tools.ts`). Standard output
 * carries the protocol only; every log line goes to standard error.
 *
 * @module
 * @internal
 */
import type { Readable, Writable } from 'node:stream';
import type { Client } from '../client/client.js';
import { callTool, type ToolContext } from './call-tool.js';
import { loadMcpSdk } from './deps.js';
import { toolDefinitions } from './tools.js';

/** Options of {@link runMcpServer}. @internal */
export interface McpServerOptions {
  /** The package's client, created with the session's budget. */
  readonly client: Client;
  /** The session budget (`--budget`), or `undefined` for none. */
  readonly budget: number | undefined;
  /** Most units one call may cost (`--max-call-units`), or `undefined` for no cap. */
  readonly maxCallUnits: number | undefined;
  /** The package version, reported to the client. */
  readonly version: string;
  readonly stdin: Readable;
  readonly stdout: Writable;
  /** Where log lines go (standard error). */
  readonly log: (line: string) => void;
}

/** What the server tells the model about itself at initialization. */
const INSTRUCTIONS =
  'Backlink and keyword data: one tool per operation of the service, each billed in API units. ' +
  'Every call is checked before it is sent (parameters, filter) and its worst-case cost is held to the session budget; ' +
  'a refusal says what to change. Write filters with check-filter and complete-filter first: they are free.';

/**
 * Serves the tools until standard input ends (the client closed the connection), then answers the
 * calls still running and resolves once their answers are written (so their units are counted).
 *
 * @example
 * ```ts
 * await runMcpServer({ client, budget: 10_000, maxCallUnits: 5_000, version: '0.1.0', stdin: process.stdin, stdout: process.stdout, log: (line) => process.stderr.write(`${line}\n`) });
 * ```
 * @internal
 */
export async function runMcpServer(options: McpServerOptions): Promise<void> {
  const sdk = await loadMcpSdk();
  const server = new sdk.Server({ name: 'backlink-query', version: options.version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const context: ToolContext = { client: options.client, budget: options.budget, maxCallUnits: options.maxCallUnits, log: options.log };
  const tools = toolDefinitions();
  server.setRequestHandler(sdk.ListToolsRequestSchema, () => ({ tools }));
  // The calls still running: at the end of input they are answered (and charged) before the close.
  const running = new Set<Promise<unknown>>();
  server.setRequestHandler(sdk.CallToolRequestSchema, async (request) => {
    const call = callTool(request.params.name, request.params.arguments, context);
    running.add(call);
    try {
      return await call;
    } finally {
      running.delete(call);
    }
  });
  server.onerror = (error) => options.log(`protocol error: ${error.message}`);

  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  const transport = new sdk.StdioServerTransport(options.stdin, options.stdout);
  // The answers being written, so that the end of input waits for them too.
  const sending = new Set<Promise<void>>();
  const send = transport.send.bind(transport);
  transport.send = (message) => {
    const written = send(message);
    sending.add(written);
    void written.finally(() => sending.delete(written));
    return written;
  };
  await server.connect(transport);
  // The SDK's transport does not watch for the end of its input: when the client goes away, close.
  // Not at once: closing aborts the handlers still running, whose answers would then never be sent
  // (a paid call billed but unanswered). Every request had arrived before the end, so wait for the
  // calls running, then for the SDK to write their answers (it does so in the promise callbacks
  // that follow a handler, all run before the next turn of the event loop), then close.
  let ending = false;
  const end = () => {
    if (ending) return;
    ending = true;
    void (async () => {
      while (running.size > 0) await Promise.allSettled([...running]);
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.allSettled([...sending]);
      await server.close();
    })();
  };
  options.stdin.once('end', end);
  options.stdin.once('close', end);
  await closed;
  options.stdin.off('end', end);
  options.stdin.off('close', end);
}
