/**
 * `backlink-query serve`: the reference server, with sample data on request.
 *
 * @module
 * @internal
 */
import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import {
  isKeyConfigError,
  localAccounts,
  openStoreAt,
  parseKeys,
  publicBaseUrl,
  remoteAccounts,
  shareAccounts,
  startServer,
  type Accounts,
  type CorsOrigins,
  type KeyConfig,
  type Store,
} from '../../server/index.js';
import { DEMO_KEY } from '../../shared/demo-key.js';
import { dateOption, integerOption, parseCommandArgs, stringOption, UsageError, type OptionTable, type ParsedArgs } from '../args.js';
import { EXIT, type CliIo, type Command } from '../command.js';
import { DATABASE_OPTIONS, databaseOptionsHelp, describeStoreError, loadDepsOrExplain, locationOf, openStoreOrExplain } from './database.js';
import { DEFAULT_SAMPLE_DB, DEFAULT_SAMPLE_LINKS, sampleFilesNote, seedWithProgress } from './sample.js';

/** The key `serve --sample` accepts when no key is configured, so the README's calls work (src/shared/demo-key.ts). @internal */
export { DEMO_KEY };

const HELP = `Usage: backlink-query serve [--port N] [--host H] [--db FILE | --database-url URL] [--sample] [--keys KEYS|FILE] [--cors-origin ORIGINS] [--public-url URL] [--error-docs URL] [--now DATE] [--workers N] [--quiet]

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
  --public-url URL
                where clients reach this server (https://api.example.com, a path prefix allowed):
                the start of the URLs it writes, such as every error's "type"; without it they
                are relative (/errors#...). Never taken from a request's Host header.
  --error-docs URL
                the page errors link to in their "type" (default: this server's /errors page)
  --now DATE    the data's clock: "new" and the current month (default: the system clock);
                rate limits keep real time
  --workers N   server processes (node:cluster, default 1): each answers HTTP on the same port
                and runs its own queries; limits and units stay per key across them (the
                primary process keeps them). See docs/server.md "Several processes".
  --quiet       no request log lines

Without configured keys, --sample accepts the demo key ${DEMO_KEY}; otherwise a random key is made and printed.
Needs the optional packages fastify, fastify-plugin, @fastify/cors and tldts; better-sqlite3 and
@duckdb/node-api for the embedded store, pg for PostgreSQL.
`;

const OPTIONS = {
  port: { type: 'string' }, host: { type: 'string' }, ...DATABASE_OPTIONS, sample: { type: 'boolean' }, keys: { type: 'string' },
  now: { type: 'string' }, links: { type: 'string' }, seed: { type: 'string' }, quiet: { type: 'boolean' }, help: { type: 'boolean' }, workers: { type: 'string' },
  'cors-origin': { type: 'string' }, 'error-docs': { type: 'string' }, 'public-url': { type: 'string' },
} as const satisfies OptionTable;

/**
 * The text of `--keys`: the file it names when there is one, else the value itself when it looks
 * like keys (inline form or JSON), else `undefined`.
 */
function keysText(value: string): string | undefined {
  if (existsSync(value) && statSync(value).isFile()) return readFileSync(value, 'utf8');
  return /[:[{]/.test(value) ? value : undefined;
}

/** The message for a `--keys` value that is neither a file nor keys. */
const notKeys = (value: string) => `--keys ${JSON.stringify(value)} is neither a file nor keys; write keys as "id:key[:units],..." or name a file that holds them.`;

/** How the primary of `--workers N` hands its keys (a generated one included) to its workers. */
const WORKER_KEYS = 'BACKLINK_QUERY_WORKER_KEYS';

/** The keys: handed down by the primary, from `--keys` (its text), from the environment, else one made up. */
function loadKeys(fromOption: string | undefined, sample: boolean, io: CliIo): { keys: KeyConfig[]; generated?: string } {
  const handed = cluster.isWorker ? io.env[WORKER_KEYS] : undefined;
  if (handed !== undefined) return { keys: parseKeys(handed) };
  if (fromOption !== undefined) return { keys: parseKeys(fromOption) };
  const env = io.env['BACKLINK_QUERY_KEYS'];
  if (env !== undefined && env.trim() !== '') return { keys: parseKeys(env) };
  const key = sample ? DEMO_KEY : `bq_${randomBytes(12).toString('hex')}`;
  return { keys: [{ id: 'demo', key, units: 10_000_000 }], generated: key };
}

/**
 * `npx backlink-query serve` runs as npm exec → `sh -c 'backlink-query' serve ...` → node, and no
 * signal sent to npm or to the shell reaches the server: npm passes SIGINT and SIGTERM to the shell
 * only, and the shell (dash) dies of SIGTERM but keeps SIGINT for itself until its child, the
 * server, has ended (a Ctrl+C at a terminal reaches all three, so that case needs nothing). Started
 * by npm's exec (`npm_command` is `exec`), the server watches for both:
 * - its parent gone (the shell killed, by a SIGTERM of its own or one npm passed on): it sends
 *   itself SIGTERM;
 * - its parent a shell run with `-c` that wakes up: such a shell sleeps waiting for its one child
 *   and wakes only for a signal, or when that child stops and goes on (Ctrl+Z, then fg), which the
 *   server sees itself as SIGCONT. Any other wake is a signal the shell keeps: the server sends
 *   itself SIGINT. A shell's wakes are counted by Linux in /proc (its context switches); elsewhere
 *   only the first watch runs.
 * Started any other way (a shell, nohup, a supervisor, `npm start`, whose script execs the
 * server), it does not watch.
 */
function stopWithParent(env: Readonly<Record<string, string | undefined>>): void {
  if (env['npm_command'] !== 'exec') return;
  const parent = process.ppid;
  const shell = waitingShell(parent);
  let wakes = shell ? wakesOf(parent) : undefined;
  let resumed = false;
  if (wakes !== undefined) process.on('SIGCONT', () => (resumed = true));
  const stop = (signal: NodeJS.Signals): void => {
    clearInterval(watch);
    process.kill(process.pid, signal);
  };
  const watch = setInterval(() => {
    if (process.ppid !== parent) return stop('SIGTERM');
    if (wakes === undefined || wakesOf(parent) === wakes) return;
    // After a stop and a continue, this timer may run before the SIGCONT listener: decide once
    // the signals that came with the continue have been read.
    setImmediate(() => {
      if (!resumed && wakesOf(parent) !== undefined) return stop('SIGINT');
      resumed = false;
      wakes = wakesOf(parent);
    });
  }, 250).unref();
}

/** Whether process `pid` is a shell run with `-c` (npm's script shell), read from /proc; false where there is none. */
function waitingShell(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[1] === '-c';
  } catch {
    return false;
  }
}

/** How many times process `pid` went to sleep and woke (its context switches, /proc); `undefined` when unknown. */
function wakesOf(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const counts = [...status.matchAll(/^(?:non)?voluntary_ctxt_switches:\s*(\d+)$/gm)].map((match) => Number(match[1]));
    return counts.length === 2 ? counts[0]! + counts[1]! : undefined;
  } catch {
    return undefined;
  }
}

/** The `serve` command. @internal */
export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serve the interface (--sample for sample data)',
  help: HELP,
  options: OPTIONS,
  describeError: describeStoreError,
  async run(args, io) {
    const { values: o } = parseCommandArgs(args, OPTIONS, { positionals: false });
    if (o['help']) return io.stdout.write(HELP), EXIT.ok;
    if (!cluster.isWorker) stopWithParent(io.env);
    const port = integerOption(o, 'port', 0) ?? 3000;
    const links = integerOption(o, 'links', 1) ?? DEFAULT_SAMPLE_LINKS;
    const seed = integerOption(o, 'seed', 0) ?? 1;
    const now = dateOption(o, 'now');
    const workers = integerOption(o, 'workers', 1) ?? 1;
    const cors = corsOption(stringOption(o, 'cors-origin'), o['sample'] === true);
    const errorDocs = stringOption(o, 'error-docs');
    if (errorDocs !== undefined && !/^https?:\/\/\S+$/.test(errorDocs)) throw new UsageError('--error-docs takes an http(s) URL.');
    const publicUrl = stringOption(o, 'public-url');
    // The server's own check, before anything is opened or seeded: a URL it would refuse later
    // (a port past 65535, a bad escape in the host) is bad usage, not an internal error.
    if (publicUrl !== undefined) {
      try {
        publicBaseUrl(publicUrl);
      } catch {
        throw new UsageError(`--public-url takes an http(s) URL without query or fragment, such as https://api.example.com (got ${JSON.stringify(publicUrl)}).`);
      }
    }
    const location = locationOf(o, io.env, o['sample'] ? DEFAULT_SAMPLE_DB : ':memory:');
    if (workers > 1 && (location.kind === 'embedded' || location.kind === 'sqlite') && location.file === ':memory:') {
      throw new UsageError('--workers needs a database the processes share: name one with --db FILE or --database-url URL (or use --sample).');
    }
    const deps = await loadDepsOrExplain(io, 'serve', location);
    if (!deps) return EXIT.failure;
    const keysOption = stringOption(o, 'keys');
    const keysFromOption = keysOption === undefined ? undefined : keysText(keysOption);
    if (keysOption !== undefined && keysFromOption === undefined) return io.stderr.write(`Invalid key configuration: ${notKeys(keysOption)}\n`), EXIT.failure;
    let keys;
    try {
      keys = loadKeys(keysFromOption, o['sample'] === true, io);
    } catch (error) {
      if (!isKeyConfigError(error)) throw error;
      return io.stderr.write(`Invalid key configuration: ${error.message}\n`), EXIT.failure;
    }
    const opened = await openStoreOrExplain(io, location, deps.tldts, { serving: true });
    if (!opened) return EXIT.unavailable;
    let store = opened;
    // A worker of `--workers N`: the primary has seeded the sample and stored the keys.
    if (o['sample'] && !cluster.isWorker && !(await store.hasLinks())) {
      const sample = { links, seed, now };
      if ((location.kind === 'embedded' || location.kind === 'sqlite') && location.file !== ':memory:') {
        // A serving store reads only: the sample is written through a store that loads.
        await store.close();
        const writing = await openStoreAt(location, deps.tldts);
        try {
          await seedWithProgress(writing, deps.tldts, io, sample);
        } finally {
          await writing.close();
        }
        store = await openStoreAt(location, deps.tldts, { serving: true });
      } else await seedWithProgress(store, deps.tldts, io, sample);
      const note = sampleFilesNote(location);
      if (note !== undefined) io.stderr.write(note);
    }
    if (!o['sample'] && (location.kind === 'embedded' || location.kind === 'sqlite') && location.file === ':memory:') io.stderr.write('No --db given: serving an empty in-memory database (use --sample for sample data).\n');
    const served = {
      store, keys, clock: now, port, host: stringOption(o, 'host') ?? '127.0.0.1', quiet: o['quiet'] === true,
      cors, ...(errorDocs === undefined ? {} : { errorDocsUrl: errorDocs }), ...(publicUrl === undefined ? {} : { publicUrl }),
    };
    if (cluster.isWorker) return serve(io, { ...served, accounts: remoteAccounts() });
    if (workers > 1) return serveWorkers(io, { ...served, workers });
    return serve(io, served);
  },
};

/** `--cors-origin`: `*`, or a comma-separated list of origins (`https://app.example`); `--sample` alone allows `*`. */
function corsOption(value: string | undefined, sample: boolean): CorsOrigins {
  if (value === undefined) return sample ? '*' : false;
  if (value.trim() === '') throw new UsageError('--cors-origin takes "*" or a comma-separated list of origins such as https://app.example.');
  if (value.trim() === '*') return '*';
  const origins = value.split(',').map((origin) => origin.trim());
  const bad = origins.find((origin) => !/^https?:\/\/[^/\s]+$/.test(origin));
  if (bad !== undefined) throw new UsageError(`--cors-origin: ${JSON.stringify(bad)} is not an origin (scheme://host[:port], no path), such as https://app.example.`);
  return origins;
}

/** What `serve` runs with. */
interface Served {
  store: Store; keys: { keys: KeyConfig[]; generated?: string }; clock: Date | undefined; port: number; host: string; quiet: boolean;
  cors: CorsOrigins; errorDocsUrl?: string; publicUrl?: string;
}

async function serve(io: CliIo, options: Served & { accounts?: Accounts }): Promise<number> {
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
      ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
      ...(options.accounts ? { accounts: options.accounts } : {}),
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
  if (cluster.isWorker) {
    // The primary prints where the server listens, once every worker does.
    process.send!({ bq: 'listening', url: server.url });
    await closed;
    // The channel keeps the process alive; the calls' last charges went through it on close.
    if (process.connected) process.disconnect();
    return EXIT.ok;
  }
  banner(io, server.url, options.keys.generated, await exampleTarget(options.store, io));
  await closed;
  io.stderr.write('Server closed; database closed.\n');
  return EXIT.ok;
}

/**
 * The target of the banner's example call: the domain with most links in the served database, so
 * the example answers with numbers; `null` when the database holds none (no example then);
 * `undefined` when the store cannot tell (a placeholder). The server already listens: a lookup
 * that fails is said on stderr and leaves the placeholder, it never stops the server.
 */
async function exampleTarget(store: Store, io: CliIo): Promise<string | null | undefined> {
  try {
    if (!(await store.hasLinks())) return null;
    return store.topTarget ? ((await store.topTarget()) ?? null) : undefined;
  } catch (error) {
    io.stderr.write(`The example call names no domain: the database did not say which has most links (${(error as Error).message}).\n`);
    return undefined;
  }
}

function banner(io: CliIo, url: string, key: string | undefined, target: string | null | undefined): void {
  io.stdout.write(`backlink-query server listening on ${url}\n`);
  if (key) io.stdout.write(`API key: ${key}\n`);
  if (target !== null) {
    const query = target === undefined ? '<domain>' : encodeURIComponent(target);
    io.stdout.write(`Try: curl -H 'Authorization: Apikey ${key ?? '<your key>'}' '${url}/_api/apis/v4/backlinks/v1/overview?url=${query}&scope=ROOT_DOMAIN'\n`);
    // The target page (src/explore/) of the same domain, as charts in the browser.
    if (target !== undefined) io.stdout.write(`Charts: ${url}/explore/?url=${query}&scope=ROOT_DOMAIN\n`);
  }
  io.stdout.write(`OpenAPI: ${url}/openapi.json   Stop: Ctrl+C (SIGINT) or SIGTERM\n`);
}

/**
 * The primary of `--workers N`: stores the keys, keeps the accounts (limits and units, over its
 * store), starts the workers (each opens the store and listens on the same port), and on SIGTERM
 * or SIGINT stops them (each answers its calls in flight and sends their charges), then writes the
 * last charges and closes the store. A worker that dies while serving is replaced; one that fails
 * before it listens stops the server (exit code 1).
 */
async function serveWorkers(io: CliIo, options: Served & { workers: number }): Promise<number> {
  const { store } = options;
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  process.once('SIGTERM', stop).once('SIGINT', stop);
  await store.ledger.upsertKeys(options.keys.keys);
  const accounts = localAccounts(store.ledger, Date.now, {
    onLost: (keyId, units) => io.stderr.write(`${units} units of key ${keyId} lost: another process spent them first.\n`),
    onWriteError: (error) => io.stderr.write(`Charges not written yet (retrying): ${(error as Error).message}\n`),
  });
  let stopping = false;
  let failed = false;
  let url: string | undefined;
  const listening = new Set<number>();
  const running = new Set<Promise<void>>();
  let ready!: () => void;
  const allListening = new Promise<void>((resolve) => (ready = resolve));
  const env = { [WORKER_KEYS]: JSON.stringify(options.keys.keys) };
  const start = (replacing?: number) => {
    const worker = cluster.fork(env);
    shareAccounts(worker.process, accounts);
    // A worker is done when it has exited and every message it sent has been read.
    const done = Promise.all([new Promise((resolve) => worker.once('exit', resolve)), new Promise((resolve) => worker.once('disconnect', resolve))]).then(() => undefined);
    running.add(done);
    void done.then(() => running.delete(done));
    worker.on('message', (message: { bq?: string; url?: string }) => {
      if (message?.bq !== 'listening') return;
      url ??= message.url;
      listening.add(worker.id);
      if (replacing !== undefined) io.stderr.write(`Worker ${worker.process.pid} listening in place of ${replacing}.\n`);
      if (listening.size === options.workers) ready();
    });
    worker.once('exit', (code, signal) => {
      const served = listening.delete(worker.id);
      if (stopping) return;
      io.stderr.write(`Worker ${worker.process.pid} exited (${signal ?? `code ${code}`})${served ? '; starting another' : ' before it listened: stopping'}.\n`);
      if (served) return start(worker.process.pid);
      failed = true;
      stop();
    });
  };
  for (let i = 0; i < options.workers; i++) start();
  await Promise.race([allListening, stopped]);
  if (!failed && url !== undefined && listening.size === options.workers) {
    banner(io, url, options.keys.generated, await exampleTarget(store, io));
    await stopped;
  }
  stopping = true;
  for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  while (running.size > 0) await Promise.all(running);
  await accounts.flush();
  await store.close();
  io.stderr.write('Server closed; database closed.\n');
  return failed ? EXIT.failure : EXIT.ok;
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
