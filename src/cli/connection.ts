/**
 * Where the service is and how to reach it: the options every command that calls the service has
 * (the operation commands, `mcp`), and the client they make.
 *
 * @module
 * @internal
 */
import { createClient, type Client } from '../client/client.js';
import { integerOption, stringOption, UsageError, type OptionTable, type ParsedArgs } from './args.js';
import type { CliIo } from './command.js';

/** `--api-key`, `--base-url`, `--timeout`, `--retries`. @internal */
export const CONNECTION_OPTIONS = {
  'api-key': { type: 'string' },
  'base-url': { type: 'string' },
  timeout: { type: 'string' },
  retries: { type: 'string' },
} as const satisfies OptionTable;

/**
 * A client for the service the options name, and its base URL (else `BACKLINK_QUERY_API_KEY` and
 * `BACKLINK_QUERY_BASE_URL`), spending at most `budget` units when given. Throws `UsageError`
 * when the key or the URL is missing, or a number is not one.
 *
 * @example
 * ```ts
 * const { client } = connectedClient(parsed.values, io.env, 5000);
 * ```
 * @internal
 */
export function connectedClient(values: ParsedArgs['values'], env: CliIo['env'], budget: number | undefined): { client: Client; baseUrl: string } {
  const apiKey = stringOption(values, 'api-key') ?? env['BACKLINK_QUERY_API_KEY'];
  const baseUrl = stringOption(values, 'base-url') ?? env['BACKLINK_QUERY_BASE_URL'];
  if (!apiKey) throw new UsageError('No API key: set BACKLINK_QUERY_API_KEY or pass --api-key.');
  if (!baseUrl) throw new UsageError('No base URL: set BACKLINK_QUERY_BASE_URL or pass --base-url.');
  const timeout = integerOption(values, 'timeout', 1);
  const retries = integerOption(values, 'retries', 0);
  const client = createClient({
    apiKey,
    baseUrl,
    ...(budget !== undefined && { budget }),
    ...(timeout !== undefined && { timeout }),
    ...(retries !== undefined && { retry: retries }),
  });
  return { client, baseUrl };
}
