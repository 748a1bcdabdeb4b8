/**
 * `backlink-query mcp`: the MCP tool server for agents, on standard input and output. The SDK
 * (`@modelcontextprotocol/sdk`, an optional dependency) and the server itself are loaded only when the
 * command runs, so the rest of the CLI starts without them.
 *
 * @module
 * @internal
 */
import { Readable, Writable } from 'node:stream';
import { OPERATION_NAMES } from '../catalogue/operations.js';
import { isMissingDependencyError } from '../peers.js';
import { integerOption, parseCommandArgs, UsageError } from './args.js';
import { EXIT, type Command } from './command.js';
import { connectedClient, CONNECTION_OPTIONS } from './connection.js';
import { DEFAULT_CONFIRM_ABOVE } from './confirm.js';
import { formatUnits } from '../client/units.js';
import { packageVersion } from './node-io.js';

/**
 * The default `--max-call-units`: the CLI's own threshold for asking a person first
 * ({@link DEFAULT_CONFIRM_ABOVE}), which one page at the default limit of every operation passes.
 */
const DEFAULT_MAX_CALL_UNITS = DEFAULT_CONFIRM_ABOVE;

const HELP = `Usage: backlink-query mcp [--base-url URL] [--api-key KEY] [--budget UNITS] [--max-call-units UNITS]

Serves the service's operations as tools of the Model Context Protocol, on standard input and
output, for an agent (an MCP client) to start as a subprocess. Tools: one per operation
(${OPERATION_NAMES.join(', ')}), plus check-filter and complete-filter (free).

Every call is checked before it is sent (parameters and filter, as the client checks them), and its
worst-case cost (the most rows it can return × the price) is held to the limits below; a call that
would pass them is refused, unsent, with the estimate, what is left and what to change.

Options:
  --base-url URL           Base URL of the service (default: $BACKLINK_QUERY_BASE_URL).
  --api-key KEY            API key (default: $BACKLINK_QUERY_API_KEY).
  --budget UNITS           Most units the whole session may spend (default: no session budget).
  --max-call-units UNITS   Most units one call may cost (default ${formatUnits(DEFAULT_MAX_CALL_UNITS)}).
  --timeout MS             Per-attempt timeout of a call in ms (default 30000).
  --retries N              Retries of a failed call (default: the client's).
  -h, --help               Show this help.

Standard output carries the protocol only; log lines go to standard error. The server ends when
its standard input ends. Needs the optional package @modelcontextprotocol/sdk. See docs/mcp.md.

Example (an MCP client's configuration):
  { "command": "npx", "args": ["backlink-query", "mcp", "--budget", "20000"],
    "env": { "BACKLINK_QUERY_BASE_URL": "https://api.example.com", "BACKLINK_QUERY_API_KEY": "..." } }
`;

const OPTIONS = {
  ...CONNECTION_OPTIONS,
  budget: { type: 'string' },
  'max-call-units': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The `mcp` command. @internal */
export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'Serve the operations as MCP tools for agents (stdio), within a units budget',
  help: HELP,
  options: OPTIONS,
  async run(args, io) {
    const parsed = parseCommandArgs(args, OPTIONS);
    if (parsed.values['help'] === true) {
      io.stdout.write(HELP);
      return EXIT.ok;
    }
    if (parsed.positionals.length > 0) throw new UsageError(`mcp takes no arguments, only options; got ${JSON.stringify(parsed.positionals[0])}.`);
    // A missing SDK is said first: no key or budget helps without it.
    let server: typeof import('../mcp/server.js');
    try {
      server = await import('../mcp/server.js');
      const { loadMcpSdk } = await import('../mcp/deps.js');
      await loadMcpSdk();
    } catch (error) {
      if (!isMissingDependencyError(error)) throw error;
      io.stderr.write(`${error.message}\n`);
      return EXIT.failure;
    }
    const budget = integerOption(parsed.values, 'budget', 0);
    const maxCallUnits = integerOption(parsed.values, 'max-call-units', 0) ?? DEFAULT_MAX_CALL_UNITS;
    const { client, baseUrl } = connectedClient(parsed.values, io.env, budget);
    const log = (line: string) => io.stderr.write(`backlink-query mcp: ${line}\n`);
    const limits = `${budget === undefined ? 'no session budget' : `budget ${formatUnits(budget)} units`}, at most ${formatUnits(maxCallUnits)} units a call`;
    log(`serving ${OPERATION_NAMES.length + 2} tools on stdio for ${baseUrl} (${limits})`);
    const { stdin, stdout } = io;
    // The protocol runs on the process's own streams; a CliIo of other sinks is a programmer's mistake.
    if (!(stdin instanceof Readable) || !(stdout instanceof Writable)) throw new TypeError('backlink-query mcp needs stream stdin and stdout (the process\'s own).');
    await server.runMcpServer({ client, budget, maxCallUnits, version: packageVersion(), stdin, stdout, log });
    log(`input ended; ${formatUnits(client.unitsSpent)} units spent`);
    return EXIT.ok;
  },
};
