/**
 * `backlink-query serve`: the reference server, with sample data on request.
 *
 * @module
 * @internal
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { EXIT, type CliIo, type Command } from '../../cli/command.js';
import { parseKeys } from '../keys-config.js';
import type { CorsOrigins } from '../plugins/cors.js';
import { startServer } from '../server.js';
import type { KeyConfig, Store } from '../store/store.js';
import { dateOption, integerOption, parseArgs } from './args.js';
import { databaseOptionsHelp, loadDepsOrExplain, openStoreAt, openStoreOrExplain, storeLocation } from './open-store.js';
import { DEFAULT_SAMPLE_DB, DEFAULT_SAMPLE_LINKS, seedWithProgress } from './sample-database.js';

/** The key `serve --sample` accepts when no key is configured, so the README's calls work. @internal */
export const DEMO_KEY = 'bq_demo_key_0123456789';

const HELP = `Usage: backlink-query serve [--port N] [--host H] [--db FILE | --database-url URL] [--sample] [--keys KEYS|FILE] [--cors-origin ORIGINS] [--error-docs URL] [--now DATE] [--quiet]

Serves the Backlink and Keyword Data Service from the embedded store (a SQLite file and its DuckDB
column file), from PostgreSQL or from a ClickHouse cluster.

Options:
  --port N      port (default 3000; 0 picks a free one)
  --host H      interface (default 127.0.0.1)
${databaseOptionsHelp(`with --sample: ${DEFAULT_SAMPLE_DB}; otherwise in memory`, 16)}
  --sample      create sample data on first run (${DEFAULT_SAMPLE_LINKS.toLocaleString('en-US')} links; --links, --seed to change)
  --keys KEYS|FILE
                API keys, inline or in a file, as "id:key[:units],..." or JSON [{"id","key","units"}].
                A value that names an existing file is read from that file; any other value
                containing ":", "[" or "{" is the keys themselves (--keys "ci:a-long-secret:5000").
                Default: $BACKLINK_QUERY_KEYS
  --cors-origin ORIGINS
                origins whose pages may call the server from a browser: "*" or a comma-separated
                list such as https://app.example (default with --sample: "*"; otherwise none)
  --error-docs URL
                the page errors link to in their "type" (default: this server's /errors page)
  --now DATE    the data's clock: "new" and the current month (default: the system clock);
                rate limits keep real time
  --quiet       no request log lines

Without configured keys, --sample accepts the demo key ${DEMO_KEY}; otherwise a random key is made and printed.
Needs the optional packages fastify, better-sqlite3, tldts and @duckdb/node-api (pg for PostgreSQL).
`;

const OPTIONS = {
  port: { value: true }, host: { value: true }, db: { value: true }, 'database-url': { value: true }, sample: { value: false }, keys: { value: true },
  now: { value: true }, links: { value: true }, seed: { value: true }, quiet: { value: false }, help: { value: false },
  'cors-origin': { value: true }, 'error-docs': { value: true },
};

/**
 * The text of `--keys`: the file it names when there is one, else the value itself when it looks
 * like keys (inline form or JSON), else an error that says both forms.
 */
function keysText(value: string): string {
  if (existsSync(value) && statSync(value).isFile()) return readFileSync(value, 'utf8');
  if (/[:[{]/.test(value)) return value;
  throw new Error(`--keys ${JSON.stringify(value)} is neither a file nor keys; write keys as "id:key[:units],..." or name a file that holds them.`);
}

function loadKeys(options: Readonly<Record<string, string | true>>, io: CliIo): { keys: KeyConfig[]; generated?: string } {
  const value = options['keys'];
  if (typeof value === 'string') return { keys: parseKeys(keysText(value)) };
  const env = io.env['BACKLINK_QUERY_KEYS'];
  if (env !== undefined && env.trim() !== '') return { keys: parseKeys(env) };
  const key = options['sample'] ? DEMO_KEY : `bq_${randomBytes(12).toString('hex')}`;
  return { keys: [{ id: 'demo', key, units: 10_000_000 }], generated: key };
}

/** The `serve` command. @internal */
export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serve the interface (--sample for sample data)',
  help: HELP,
  async run(args, io) {
    const parsed = parseArgs(args, OPTIONS);
    const fail = (message: string) => (io.stderr.write(`${message}\n\n${HELP}`), EXIT.usage);
    if (!parsed.ok) return fail(parsed.error);
    const o = parsed.options;
    if (o['help']) return io.stdout.write(HELP), EXIT.ok;
    const port = integerOption(o, 'port', 3000);
    const links = integerOption(o, 'links', DEFAULT_SAMPLE_LINKS, 1);
    const seed = integerOption(o, 'seed', 1);
    const now = dateOption(o, 'now');
    for (const value of [port, links, seed, now]) if (typeof value === 'string') return fail(value);
    const cors = corsOption(o['cors-origin'], o['sample'] === true);
    if (typeof cors === 'object' && 'error' in cors) return fail(cors.error);
    const errorDocs = o['error-docs'];
    if (errorDocs !== undefined && (typeof errorDocs !== 'string' || !/^https?:\/\/\S+$/.test(errorDocs))) return fail('--error-docs takes an http(s) URL.');
    const location = storeLocation(o, io.env, o['sample'] ? DEFAULT_SAMPLE_DB : ':memory:');
    if (typeof location === 'string') return fail(location);
    const deps = await loadDepsOrExplain(io, location);
    if (!deps) return EXIT.failure;
    let keys;
    try {
      keys = loadKeys(o, io);
    } catch (error) {
      return io.stderr.write(`Invalid key configuration: ${(error as Error).message}\n`), EXIT.failure;
    }
    const opened = await openStoreOrExplain(io, location, deps.tldts, { serving: true });
    if (!opened) return EXIT.unavailable;
    let store = opened;
    if (o['sample'] && !(await store.hasLinks())) {
      const sample = { links: links as number, seed: seed as number, now: now as Date | undefined };
      if (location.kind === 'embedded' && location.file !== ':memory:') {
        // The serving store reads the column file only: the sample is written through a store that writes it.
        await store.close();
        const writing = await openStoreAt(location, deps.tldts);
        try {
          await seedWithProgress(writing, deps.tldts, io, sample);
        } finally {
          await writing.close();
        }
        store = await openStoreAt(location, deps.tldts, { serving: true });
      } else await seedWithProgress(store, deps.tldts, io, sample);
    }
    if (!o['sample'] && (location.kind === 'embedded' || location.kind === 'sqlite') && location.file === ':memory:') io.stderr.write('No --db given: serving an empty in-memory database (use --sample for sample data).\n');
    const clock = now instanceof Date ? now : undefined;
    return serve(io, {
      store, keys, clock, port: port as number, host: typeof o['host'] === 'string' ? o['host'] : '127.0.0.1', quiet: o['quiet'] === true,
      cors, ...(typeof errorDocs === 'string' ? { errorDocsUrl: errorDocs } : {}),
    });
  },
};

/** `--cors-origin`: `*`, or a comma-separated list of origins (`https://app.example`); `--sample` alone allows `*`. */
function corsOption(value: string | true | undefined, sample: boolean): CorsOrigins | { error: string } {
  if (value === undefined) return sample ? '*' : false;
  if (value === true || value.trim() === '') return { error: '--cors-origin takes "*" or a comma-separated list of origins such as https://app.example.' };
  if (value.trim() === '*') return '*';
  const origins = value.split(',').map((origin) => origin.trim());
  const bad = origins.find((origin) => !/^https?:\/\/[^/\s]+$/.test(origin));
  if (bad !== undefined) return { error: `--cors-origin: ${JSON.stringify(bad)} is not an origin (scheme://host[:port], no path), such as https://app.example.` };
  return origins;
}

async function serve(
  io: CliIo,
  options: {
    store: Store; keys: { keys: KeyConfig[]; generated?: string }; clock: Date | undefined; port: number; host: string; quiet: boolean;
    cors: CorsOrigins; errorDocsUrl?: string;
  },
): Promise<number> {
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let server;
  try {
    server = await startServer({
      store: options.store,
      keys: options.keys.keys,
      ...(options.clock ? { now: () => options.clock! } : {}),
      port: options.port,
      host: options.host,
      corsOrigins: options.cors,
      ...(options.errorDocsUrl ? { errorDocsUrl: options.errorDocsUrl } : {}),
      signals: true,
      logger: options.quiet ? false : { level: 'info', stream: io.stdout as { write(text: string): void } },
      onClosed: () => resolveClosed(),
    });
  } catch (error) {
    await options.store.close().catch(() => undefined);
    const problem = listenProblem(error, options.port, options.host);
    if (problem === undefined) throw error;
    io.stderr.write(`backlink-query serve: ${problem}\n`);
    return EXIT.usage;
  }
  const key = options.keys.generated;
  io.stdout.write(`backlink-query server listening on ${server.url}\n`);
  if (key) io.stdout.write(`API key: ${key}\n`);
  io.stdout.write(
    `Try: curl -H 'Authorization: Apikey ${key ?? '<your key>'}' '${server.url}/_api/apis/v4/backlinks/v1/overview?url=example.com&scope=ROOT_DOMAIN'\n` +
      `OpenAPI: ${server.url}/openapi.json   Stop: Ctrl+C (SIGINT) or SIGTERM\n`,
  );
  await closed;
  io.stderr.write('Server closed; database closed.\n');
  return EXIT.ok;
}

/**
 * One line for an error of listening that the environment causes (a port in use, a port the user
 * may not open, a host that is not ours), naming the option that changes it; `undefined` for any
 * other error.
 */
function listenProblem(error: unknown, port: number, host: string): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (code === 'EADDRINUSE') return `port ${port} is already in use on ${host}; choose another with --port (--port 0 picks a free one).`;
  if (code === 'EACCES') return `not allowed to listen on ${where}; choose a port above 1023 with --port.`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `cannot listen on ${where}: ${host} is not an address of this machine; change --host.`;
  return undefined;
}
