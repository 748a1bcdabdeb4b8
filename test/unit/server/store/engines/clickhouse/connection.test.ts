/**
 * The ClickHouse connection's HTTP edge cases, against a local HTTP server that behaves as
 * ClickHouse does at its edges: a kept-alive connection closed just as it is reused, a server
 * that is down, an error answer. Expectations written by hand.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ClickhouseShard, render } from '../../../../../../src/server/store/engines/clickhouse/connection.js';
import { isStoreUnavailable } from '../../../../../../src/server/store/connection.js';
import { sql } from '../../../../../../src/server/store/fragment.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server whose `answer` decides, per request, what happens; returns its URL. */
async function serve(answer: (n: number, body: string, socket: { destroy(): void }, reply: (status: number, text: string) => void) => void): Promise<string> {
  let n = 0;
  server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => answer(++n, body, request.socket, (status, text) => response.writeHead(status).end(text)));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

describe('ClickhouseShard', () => {
  it('sends a request once more when the connection closes before any answer', async () => {
    const seen: string[] = [];
    const url = await serve((n, body, socket, reply) => {
      seen.push(body);
      if (n === 1) socket.destroy();
      else reply(200, '{"n":1}\n');
    });
    const rows = await new ClickhouseShard({ url, database: 'db' }).all(sql`SELECT ${1} AS n`);
    expect(rows).toEqual([{ n: 1 }]);
    expect(seen).toEqual(['SELECT 1 AS n\nFORMAT JSONEachRow', 'SELECT 1 AS n\nFORMAT JSONEachRow']);
  });

  it('gives up after the third closed connection, as a retryable StoreUnavailableError naming the cause', async () => {
    let attempts = 0;
    const url = await serve((_n, _body, socket) => {
      attempts++;
      socket.destroy();
    });
    const error = await new ClickhouseShard({ url, database: 'db' }).all(sql`SELECT 1`).catch((e: unknown) => e);
    expect(attempts).toBe(3);
    expect(isStoreUnavailable(error)).toBe(true);
    expect((error as Error).message).toBe(`ClickHouse at ${url} cannot be reached (UND_ERR_SOCKET).`);
  });

  it('says a server that is down cannot be reached (ECONNREFUSED), without retrying', async () => {
    const url = await serve(() => {});
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    const error = await new ClickhouseShard({ url, database: 'db' }).all(sql`SELECT 1`).catch((e: unknown) => e);
    expect(isStoreUnavailable(error)).toBe(true);
    expect((error as Error).message).toBe(`ClickHouse at ${url} cannot be reached (ECONNREFUSED).`);
  });

  it('answers an overloaded server (too many simultaneous queries) as retryable, a wrong query as a plain error', async () => {
    const url = await serve((n, _body, _socket, reply) =>
      n === 1 ? reply(500, 'Code: 202, e.displayText() = DB::Exception: Too many simultaneous queries') : reply(400, 'Code: 62, e.displayText() = DB::Exception: Syntax error'),
    );
    const shard = new ClickhouseShard({ url, database: 'db' });
    expect(isStoreUnavailable(await shard.all(sql`SELECT 1`).catch((e: unknown) => e))).toBe(true);
    const wrong = await shard.all(sql`SELEC 1`).catch((e: unknown) => e);
    expect(isStoreUnavailable(wrong)).toBe(false);
    expect((wrong as Error).message).toBe(`ClickHouse at ${url}: Code: 62, e.displayText() = DB::Exception: Syntax error`);
  });

  // What 18.16 answers (status 500) when a distributed query's other shard is down or dies mid-query.
  const NO_SHARD =
    'Code: 279, e.displayText() = DB::NetException: All connection tries failed. Log: \n\n' +
    'Code: 210, e.displayText() = DB::NetException: Connection reset by peer, while reading from socket (127.0.0.1:34783), e.what() = DB::NetException\n' +
    'Code: 210, e.displayText() = DB::NetException: Connection refused (127.0.0.1:34783), e.what() = DB::NetException\n\n, e.what() = DB::NetException\n';

  it('answers a distributed query whose other shard cannot be reached as retryable, naming that shard', async () => {
    const url = await serve((_n, _body, _socket, reply) => reply(500, NO_SHARD));
    const error = await new ClickhouseShard({ url, database: 'db' }).all(sql`SELECT 1`).catch((e: unknown) => e);
    expect(isStoreUnavailable(error)).toBe(true);
    expect((error as Error).message).toBe(`ClickHouse at ${url} could not reach another shard of the cluster (code 279: Connection refused (127.0.0.1:34783)).`);
  });

  // ClickHouse streams an answer: past its time limit after the first rows, it has sent status 200
  // already and writes the exception into the body.
  const LATE_TIMEOUT = '{"n":1}\n{"n":2}\nCode: 159, e.displayText() = DB::Exception: Timeout exceeded: elapsed 6.2 seconds, maximum: 5\n';

  it('answers an exception written after the first rows (status 200) as the server would have: retryable for a time limit', async () => {
    const url = await serve((_n, _body, _socket, reply) => reply(200, LATE_TIMEOUT));
    const shard = new ClickhouseShard({ url, database: 'db' });
    const error = await shard.all(sql`SELECT 1`).catch((e: unknown) => e);
    expect(isStoreUnavailable(error)).toBe(true);
    expect((error as Error).message).toBe(`ClickHouse at ${url} could not answer now (code 159).`);
    const streamed = await shard.each(sql`SELECT 1`, () => {}).catch((e: unknown) => e);
    expect(isStoreUnavailable(streamed)).toBe(true);
    expect((streamed as Error).message).toBe(`ClickHouse at ${url} could not answer now (code 159).`);
  });

  it('says a server that does not answer in time did not answer within the time bound', async () => {
    const url = await serve(() => {});
    const error = await new ClickhouseShard({ url, database: 'db', timeoutMs: 200 }).all(sql`SELECT 1`).catch((e: unknown) => e);
    expect(isStoreUnavailable(error)).toBe(true);
    // The request's own limit is the server's (max_execution_time) plus a second for the answer to arrive.
    expect((error as Error).message).toBe(`ClickHouse at ${url} did not answer within 200 ms.`);
  });
});

describe('render', () => {
  it('fills each ? with its value as a literal, buffers as unhex()', () => {
    expect(render(sql`a = ${"it's?"} AND b = ${-2} AND c = ${Buffer.from([0xab, 0x01])}`)).toBe(String.raw`a = 'it\'s?' AND b = (-2) AND c = unhex('ab01')`);
  });

  it('refuses a fragment whose placeholders and values do not match', () => {
    expect(() => render({ sql: 'a = ? AND b = ?', params: [1] })).toThrow('a query has 2 placeholders for 1 values');
  });
});
