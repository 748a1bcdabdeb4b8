/**
 * Requests that never reach a route, because Node's HTTP parser refuses them (a request line or
 * headers past `maxHeaderSize`, a request that does not arrive in time, bytes that are not HTTP),
 * answered in the service's error envelope instead of Fastify's own body.
 *
 * @module
 * @internal
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { errorEnvelope, type ErrorStatus } from './errors.js';

/**
 * The largest request line plus headers the server reads (bytes). The longest valid call is about
 * 57 KB: a 4,096-character filter of characters that take 3 bytes in UTF-8 is 36,864 bytes once
 * percent-encoded (`%E2%82%AC` per character), a 2,000-character url as much as 18,000, and the
 * rest (fields, order_by, the key, headers) a few KB. 128 KiB leaves room for proxies' headers.
 */
export const MAX_HEADER_SIZE = 128 * 1024;

/** What the parser's error codes mean for the caller. */
function classify(code: string | undefined): { status: ErrorStatus; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, message: `The request line and headers are longer than the ${MAX_HEADER_SIZE / 1024} KiB this server reads; shorten the query (a filter, a long url).` };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: 'The request did not arrive in full in time.' };
  return { status: 400, message: 'The request is not valid HTTP.' };
}

/**
 * A Fastify `clientErrorHandler`: writes the envelope on the socket and closes it.
 *
 * @param docsUrl the error docs page of the envelope's `type` (read when an error happens)
 */
export function clientErrorHandler(docsUrl: () => string) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const { status, message } = classify(error.code);
    const requestId = randomUUID();
    const body = JSON.stringify(errorEnvelope(requestId, status, message, [], docsUrl()));
    // As Node's own handler: never write into an answer already being written on this connection
    // (a malformed request pipelined behind one in flight would corrupt it).
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && inFlight?.headersSent !== true) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}
