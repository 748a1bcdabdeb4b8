/**
 * Fuzzing the server over raw sockets: a seeded fast-check generator of HTTP/1.x requests written
 * byte for byte (methods, request targets, percent-escapes that do not decode, overlong UTF-8,
 * NUL, very long lines and headers, bodies on GET, chunked bodies, a second request pipelined
 * behind the first, missing or doubled Host, HTTP versions), and a runner that sends each on its
 * own connection, reads every byte the server writes (until it closes, or stays quiet after an
 * answer to a request that asked to keep the connection), and checks every answer:
 *
 * - it is in the error envelope (JSON, `meta.status_code` and `error.code` equal to the status,
 *   `error.type` naming the kind of that status, `retryable` as the status says);
 * - its status is a 4xx (every generated request is refused: see {@link rawRequest});
 * - no byte of it holds the key (the requests carry it in the header and in `?key=`).
 *
 * The caller checks the ledger: no request may charge a unit. `raw-socket-fuzz.test.ts` runs it
 * in `npm test` (a few hundred requests); with `SOAK=full` it runs for minutes, and
 * {@link runRawSocketFuzz} is exported for a soak run of its own.
 *
 * What Node answers itself: a request its parser refuses (a malformed request line or header, a
 * request line and headers past 128 KiB, a body that does not arrive in time) never reaches
 * Fastify; the server's `clientErrorHandler` answers those in the envelope too (400, 431, 408).
 * The only bytes Node writes on its own are the interim `HTTP/1.1 100 Continue` before the answer
 * to a request with `Expect: 100-continue`, which the runner skips, as a client does.
 */
import { connect } from 'node:net';
import fc from 'fast-check';
import { operations, OPERATION_NAMES } from '../../../src/catalogue/operations.js';
import { kindOfStatus, isRetryableStatus } from '../../../src/catalogue/errors.js';

/** One request as the generator builds it; {@link serialize} writes its bytes. */
export interface RawRequest {
  readonly method: string;
  readonly target: string;
  readonly version: string;
  readonly headers: readonly (readonly [string, string])[];
  /** The body and how its length is framed: `Content-Length` (exact), chunked, or none. */
  readonly body?: { readonly text: string; readonly framing: 'length' | 'chunked' };
  /** Bytes written after the request: a second, usually malformed, request on the same connection. */
  readonly pipelined?: string;
}

/** Written after pipelined bytes: a last request that asks the server to close once it is answered. */
export const CLOSING_REQUEST = 'GET /nothing HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n';

/**
 * The bytes of a request (`latin1`: each character of the generated text is one byte). The end of
 * the answers is to be the end of the connection: a request without a `Connection` header of its
 * own asks the server to close after answering (`Connection: close`), and pipelined bytes are
 * followed by {@link CLOSING_REQUEST} (a malformed pipelined request ends the connection itself).
 */
export function serialize(request: RawRequest): Buffer {
  const lines = [`${request.method} ${request.target} ${request.version}`];
  for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
  if (request.pipelined === undefined && !request.headers.some(([name]) => name.toLowerCase() === 'connection')) lines.push('Connection: close');
  let body = '';
  if (request.body) {
    const bytes = Buffer.from(request.body.text, 'utf8');
    if (request.body.framing === 'length') {
      lines.push(`Content-Length: ${bytes.length}`);
      body = bytes.toString('latin1');
    } else {
      lines.push('Transfer-Encoding: chunked');
      body = bytes.length === 0 ? '0\r\n\r\n' : `${bytes.length.toString(16)}\r\n${bytes.toString('latin1')}\r\n0\r\n\r\n`;
    }
  }
  const after = request.pipelined === undefined ? '' : `${request.pipelined}${CLOSING_REQUEST}`;
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}${after}`, 'latin1');
}

/** Paths the server answers, and some it does not. */
const PATHS = [
  ...OPERATION_NAMES.flatMap((name) => [operations[name].path, operations[name].path.replace(/^\/_api/, '')]),
  '/_api/apis/v4/units/v1/balance',
  '/apis/v4/units/v1/balance',
  '/users/countapiunits.html',
  '/',
  '*',
  '/nothing',
  '/errors/x',
  '//apis/v4/backlinks/v1/links',
  '/apis/v4/backlinks/v1/links/',
  '/APIS/V4/BACKLINKS/V1/LINKS',
  'http://127.0.0.1/apis/v4/backlinks/v1/overview',
  // What a route pattern reads as a wildcard, a parameter or a regular expression.
  '/apis/*',
  '/:name',
  '/(a)',
  '/playground/*',
];

/** Escapes and bytes that break decoders: invalid UTF-8, overlong forms, surrogates, NUL, raw non-ASCII. */
const NASTY = ['%FF', '%C3%28', '%', '%zz', '%2', '%00', '%C0%AF', '%C0%80', '%E0%80%AF', '%ED%A0%80', '%F4%90%80%80', '%F0%9F%98', '%25', '%2F', '%3F', '%26', '%3D', '%23', '%0D%0A', '%E2%82%AC', 'é', '\u00ff', '..', ';', '#', '+'];

const NAMES = ['url', 'urls', 'scope', 'filter', 'limit', 'offset', 'fields', 'order_by', 'direction', 'format', 'keyword', 'country', 'month', 'date_from', 'date_to', 'domain', '__proto__', 'constructor', 'prototype', 'key', 'units'];

const VALUES = [
  'example.com', 'ROOT_DOMAIN', 'PAGE', 'a.com,b.com', '0', '1', '-1', '10001', '9223372036854775807', '1.5', '1e3', 'csv', 'json', 'xml',
  'domain_score%20%3E%2050', 'anchor%20LIKE%20%27%25seo%25%27', 'x%20OR%20x', '2026-13', 'US', 'gb', 'anchor,page_score', '',
];

const text = (alphabet: readonly string[], maxLength: number) => fc.array(fc.constantFrom(...alphabet), { maxLength }).map((parts) => parts.join(''));

/** A value: a plain one, a plain one broken by escapes, random printable text, or a very long run. */
const value = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...VALUES) },
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...VALUES), text(NASTY, 4), fc.constantFrom(...VALUES)).map((parts) => parts.join('')) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }).map((s) => encodeURIComponent(s)) },
  { weight: 1, arbitrary: fc.constantFrom(1_000, 5_000, 40_000, 140_000).map((n) => 'x'.repeat(n)) },
);

/** `name=value` pairs, with bare names, empty pieces and escapes in names too. */
const queryPairs = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...NAMES), value).map(([name, v]) => `${name}=${v}`) },
    { weight: 1, arbitrary: fc.tuple(text(NASTY, 3), fc.constantFrom(...NAMES)).map(([bad, name]) => `${bad}${name}=1`) },
    { weight: 1, arbitrary: fc.constantFrom('', 'a', '=', '==', '&', 'key', 'filter=%', '__proto__[x]=1') },
  ),
  { maxLength: 6 },
);

const METHODS = fc.oneof(
  { weight: 8, arbitrary: fc.constant('GET') },
  { weight: 4, arbitrary: fc.constantFrom('HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'PROPFIND', 'SEARCH', 'QUERY', 'MKCOL', 'PURGE', 'M-SEARCH', 'CONNECT') },
  { weight: 1, arbitrary: fc.constantFrom('get', 'FOO', 'GETT', 'G\tET', 'GET\0', '\u00c4GET', '') },
);

const VERSIONS = fc.oneof(
  { weight: 10, arbitrary: fc.constant('HTTP/1.1') },
  { weight: 2, arbitrary: fc.constant('HTTP/1.0') },
  { weight: 1, arbitrary: fc.constantFrom('HTTP/2.0', 'HTTP/1.2', 'HTTP/0.9', 'http/1.1', 'HTTP/1.1 x', '') },
);

/** Headers beside Host and Authorization: some harmless, some the parser refuses. */
const EXTRA_HEADERS = fc.array(
  fc.oneof(
    fc.constantFrom<[string, string]>(
      ['Accept', 'text/csv'], ['Accept', '*/*'], ['Accept', 'text/csv;q=0, application/json'], ['Origin', 'https://app.example'],
      ['Content-Type', 'application/json'], ['Content-Type', 'text/plain'], ['Content-Type', 'multipart/form-data; boundary=x'],
      ['Expect', '100-continue'], ['Expect', 'something-else'], ['Connection', 'close'], ['Connection', 'keep-alive'],
      ['Connection', 'Upgrade'], ['Upgrade', 'websocket'], ['Upgrade', 'h2c'], ['X-Forwarded-For', '10.0.0.1'], ['Cookie', 'a=b'],
      ['Content-Length', '0'], ['Content-Length', 'abc'], ['Transfer-Encoding', 'gzip'], ['Header With Space', 'x'], ['X-Nul', 'a\0b'],
      ['X-Fold', 'a\r\n b'], ['', 'no name'], ['X-Latin', '\u00e9\u00ff'],
    ),
    fc.constantFrom(1_000, 40_000, 140_000).map((n): [string, string] => ['X-Long', 'y'.repeat(n)]),
  ),
  { maxLength: 3 },
);

const BODIES = fc.option(
  fc.record({
    text: fc.oneof(fc.constantFrom('{}', '{"url":"example.com"}', '{bad json', 'url=example.com&scope=PAGE', ''), fc.string({ maxLength: 200 })),
    framing: fc.constantFrom<'length' | 'chunked'>('length', 'chunked'),
  }),
  { freq: 3 },
);

const PIPELINED = fc.option(fc.constantFrom('GARBAGE\r\n\r\n', 'GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n', '\0\0\0', 'GET / HTTP/1.1\r\n'), { freq: 6 });

/**
 * A request the server must refuse, with the key in it. It carries the valid `key` in its
 * `Authorization` header or its query (or both), or a wrong key, or none; a request that carries
 * the valid key also carries the parameter `fuzz=1`, which no route takes, so that nothing the
 * generator builds is a valid, charged call: every answer is a 4xx.
 */
export function rawRequest(key: string): fc.Arbitrary<RawRequest> {
  return fc
    .record({
      method: METHODS,
      path: fc.tuple(fc.constantFrom(...PATHS), fc.option(text(NASTY, 3), { freq: 3 })).map(([path, bad]) => `${path}${bad ?? ''}`),
      pairs: queryPairs,
      keyIn: fc.constantFrom('header', 'query', 'both', 'wrong', 'none', 'scheme'),
      version: VERSIONS,
      host: fc.constantFrom<string | undefined | [string, string]>('127.0.0.1', '127.0.0.1', '127.0.0.1', undefined, '', ['a', 'b'], 'x'.repeat(300)),
      extra: EXTRA_HEADERS,
      body: BODIES,
      pipelined: PIPELINED,
    })
    .map(({ method, path, pairs, keyIn, version, host, extra, body, pipelined }): RawRequest => {
      const valid = keyIn === 'header' || keyIn === 'query' || keyIn === 'both';
      const query = [...(valid ? ['fuzz=1'] : []), ...pairs, ...(keyIn === 'query' || keyIn === 'both' ? [`key=${key}`] : []), ...(keyIn === 'wrong' ? ['key=wrong-key-0000'] : [])];
      const headers: [string, string][] = [];
      if (typeof host === 'string') headers.push(['Host', host]);
      else if (host) headers.push(['Host', host[0]], ['Host', host[1]]);
      if (keyIn === 'header' || keyIn === 'both') headers.push(['Authorization', `Apikey ${key}`]);
      if (keyIn === 'scheme') headers.push(['Authorization', `Bearer ${key}`]);
      headers.push(...extra);
      return {
        method,
        target: query.length > 0 ? `${path}?${query.join('&')}` : path,
        version,
        headers,
        ...(body ? { body } : {}),
        ...(pipelined ? { pipelined } : {}),
      };
    });
}

/** One response read off the socket. */
export interface RawResponse {
  readonly status: number;
  readonly head: string;
  readonly body: string;
}

/**
 * Splits what the server wrote into responses (each framed by its `Content-Length`; HEAD answers
 * have none), skipping interim 1xx answers. What cannot be read as responses is returned as `rest`.
 */
export function splitResponses(bytes: Buffer, head: boolean): { responses: RawResponse[]; rest: string } {
  const responses: RawResponse[] = [];
  let text = bytes.toString('latin1');
  for (;;) {
    const end = text.indexOf('\r\n\r\n');
    const status = /^HTTP\/1\.[01] (\d{3}) /.exec(text);
    if (end < 0 || !status) break;
    const headText = text.slice(0, end);
    const code = Number(status[1]);
    if (code >= 100 && code < 200) {
      text = text.slice(end + 4);
      continue;
    }
    const length = /\r\ncontent-length: *(\d+)/i.exec(headText);
    // The answer to a HEAD has no body, unless it is the answer to a malformed request pipelined
    // behind it, which the server writes (and then closes) before the HEAD's own answer.
    const headless = head && responses.length === 0 && (text.length === end + 4 || text.startsWith('HTTP/1.', end + 4));
    const bodyLength = headless ? 0 : Number(length?.[1] ?? 0);
    if (!length && !headless) {
      // No length: the body runs to the end of what was written (the connection closes after it).
      responses.push({ status: code, head: headText, body: Buffer.from(text.slice(end + 4), 'latin1').toString('utf8') });
      text = '';
      break;
    }
    responses.push({ status: code, head: headText, body: Buffer.from(text.slice(end + 4, end + 4 + bodyLength), 'latin1').toString('utf8') });
    text = text.slice(end + 4 + bodyLength);
  }
  return { responses, rest: text };
}

/**
 * Writes the request and reads every byte until the server closes, or until nothing more has come
 * for `idleMs` after a whole answer (a connection the request asked to keep open), or `timeoutMs`.
 * The socket is not half-closed: a client's FIN makes Node abort the requests still in flight, so
 * an answer that waits on I/O would never be written (a client that left is not answered).
 */
export function exchange(port: number, request: Buffer, timeoutMs = 10_000, idleMs = 150): Promise<{ bytes: Buffer; timedOut: boolean }> {
  const head = request.subarray(0, 5).toString('latin1') === 'HEAD ';
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    let idle: NodeJS.Timeout | undefined;
    const done = (timedOut: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(idle);
      socket.destroy();
      resolve({ bytes: Buffer.concat(chunks), timedOut });
    };
    const timer = setTimeout(() => done(true), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      clearTimeout(idle);
      if (hasWholeAnswer(Buffer.concat(chunks), head)) idle = setTimeout(() => done(false), idleMs);
    });
    socket.on('close', () => done(false));
    socket.on('error', () => undefined); // EPIPE, ECONNRESET: the server closed first; what it wrote is kept
    socket.write(request);
  });
}

/** Whether `bytes` begin with a final answer whose body (by its Content-Length; none for a HEAD) has arrived whole. */
function hasWholeAnswer(bytes: Buffer, head: boolean): boolean {
  const text = bytes.toString('latin1');
  let start = 0;
  for (;;) {
    const end = text.indexOf('\r\n\r\n', start);
    if (end < 0) return false;
    const answer = text.slice(start, end);
    if (/^HTTP\/1\.[01] 1\d\d /.test(answer)) {
      start = end + 4;
      continue;
    }
    const length = /\r\ncontent-length: *(\d+)/i.exec(answer);
    return head || text.length - (end + 4) >= Number(length?.[1] ?? 0);
  }
}

/** What is wrong with one exchange (empty when nothing is). */
export function problemsOf(request: RawRequest, bytes: Buffer, key: string): string[] {
  const problems: string[] = [];
  const raw = bytes.toString('latin1');
  if (raw.includes(key) || raw.includes(encodeURIComponent(key))) problems.push('the key is echoed');
  const { responses, rest } = splitResponses(bytes, request.method === 'HEAD');
  if (responses.length === 0) problems.push(`no answer (${JSON.stringify(raw.slice(0, 80))})`);
  if (rest.length > 0) problems.push(`bytes after the answers: ${JSON.stringify(rest.slice(0, 80))}`);
  responses.forEach((response, i) => {
    const which = responses.length > 1 ? `answer ${i + 1}: ` : '';
    if (!(response.status >= 400 && response.status < 500)) problems.push(`${which}status ${response.status}`);
    if (!/\r\ncontent-type: application\/json; charset=utf-8\r?(\n|$)/i.test(`${response.head}\r\n`)) problems.push(`${which}not JSON: ${response.head.split('\r\n')[0]}`);
    if (request.method === 'HEAD' && i === 0) return; // a HEAD answer has no body
    let body: any;
    try {
      body = JSON.parse(response.body);
    } catch {
      problems.push(`${which}a body that is not JSON: ${JSON.stringify(response.body.slice(0, 80))}`);
      return;
    }
    const kind = kindOfStatus(response.status as never);
    const ok =
      body?.meta?.status_code === response.status &&
      body.meta.success === false &&
      typeof body.meta.request_id === 'string' &&
      body.error?.code === response.status &&
      typeof body.error.message === 'string' &&
      body.error.message.length > 0 &&
      kind !== undefined &&
      typeof body.error.type === 'string' &&
      body.error.type.endsWith(`#${kind}`) &&
      body.error.retryable === isRetryableStatus(response.status as never) &&
      Array.isArray(body.error.details);
    if (!ok) problems.push(`${which}not the envelope: ${response.body.slice(0, 200)}`);
  });
  return problems;
}

/** Options of {@link runRawSocketFuzz}. */
export interface RawFuzzOptions {
  /** The server's port on 127.0.0.1. */
  readonly port: number;
  /** The valid key the requests carry (never to be echoed). */
  readonly key: string;
  readonly seed: number;
  /** How many requests (default 300). */
  readonly numRuns?: number;
  /** Stop after this long instead (ms), whatever `numRuns` says. */
  readonly timeLimitMs?: number;
}

/** What a run sent and got. */
export interface RawFuzzReport {
  readonly requests: number;
  /** How many answers of each status. */
  readonly statuses: Readonly<Record<number, number>>;
  /** The first failing request (shrunk by fast-check) and what was wrong, if any. */
  readonly failure?: { readonly request: string; readonly problems: readonly string[] };
}

/**
 * Sends generated requests one after another and checks each answer ({@link problemsOf}); stops
 * at the first failure, which fast-check shrinks to a small request. Never throws for a failure:
 * the report holds it.
 */
export async function runRawSocketFuzz(options: RawFuzzOptions): Promise<RawFuzzReport> {
  const statuses: Record<number, number> = {};
  let requests = 0;
  const result = await fc.check(
    fc.asyncProperty(rawRequest(options.key), async (request) => {
      const bytes = serialize(request);
      const { bytes: answer, timedOut } = await exchange(options.port, bytes);
      requests++;
      for (const response of splitResponses(answer, request.method === 'HEAD').responses) statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      return !timedOut && problemsOf(request, answer, options.key).length === 0;
    }),
    {
      seed: options.seed,
      numRuns: options.timeLimitMs === undefined ? (options.numRuns ?? 300) : Number.MAX_SAFE_INTEGER,
      ...(options.timeLimitMs === undefined ? {} : { interruptAfterTimeLimit: options.timeLimitMs, markInterruptAsFailure: false }),
      endOnFailure: false,
    },
  );
  if (!result.failed || !result.counterexample) return { requests, statuses };
  // The smallest failing request fast-check found, sent once more to say what is wrong with it.
  const [request] = result.counterexample;
  const bytes = serialize(request);
  const { bytes: answer, timedOut } = await exchange(options.port, bytes);
  const problems = [...(timedOut ? ['no close within 10 s'] : []), ...problemsOf(request, answer, options.key)];
  return { requests, statuses, failure: { request: JSON.stringify(bytes.toString('latin1').slice(0, 600)), problems: problems.length > 0 ? problems : [`failed once, not again: ${String(result.errorInstance ?? '')}`] } };
}
