/**
 * The MCP SDK (`@modelcontextprotocol/sdk`) is an optional dependency: only `backlink-query mcp`
 * needs it. It is loaded here with `import()` when the command runs, as the server loads its
 * packages (`src/server/deps.ts`), and a missing SDK becomes a {@link MissingDependencyError}
 * naming the commands that install it (npm, and npx), not a bare `ERR_MODULE_NOT_FOUND`.
 *
 * @module
 * @internal
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { importPeer, loadOnce, type MissingDependencyError } from '../peers.js';

/** The package name, as the message about installing it names it. @internal */
export const MCP_SDK = '@modelcontextprotocol/sdk';

/** What the missing-package message calls what needs the SDK. @internal */
export const MCP_COMMAND = 'backlink-query mcp';

/** The parts of the SDK the tool server uses. @internal */
export interface McpSdk {
  readonly Server: typeof Server;
  readonly StdioServerTransport: typeof StdioServerTransport;
  readonly ListToolsRequestSchema: typeof ListToolsRequestSchema;
  readonly CallToolRequestSchema: typeof CallToolRequestSchema;
}

/**
 * Loads the SDK's low-level server, its stdio transport and the request schemas once; throws
 * {@link MissingDependencyError} when the SDK is not installed.
 *
 * @example
 * ```ts
 * const { Server, StdioServerTransport } = await loadMcpSdk();
 * ```
 * @internal
 */
export const loadMcpSdk: () => Promise<McpSdk> = loadOnce(async () => {
  const [server, stdio, types] = await importPeer(MCP_COMMAND, MCP_SDK, () =>
    Promise.all([
      import('@modelcontextprotocol/sdk/server/index.js'),
      import('@modelcontextprotocol/sdk/server/stdio.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]),
    'mcp',
  );
  return {
    Server: server.Server,
    StdioServerTransport: stdio.StdioServerTransport,
    ListToolsRequestSchema: types.ListToolsRequestSchema,
    CallToolRequestSchema: types.CallToolRequestSchema,
  };
});
