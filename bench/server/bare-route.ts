/**
 * The bare route: the baseline of `npm run bench:server`. A Fastify server with nothing but a GET
 * route on each path the benchmark calls, answering each call's URL (path and query string) with
 * the bytes the real server answered to it (status 200, the same Content-Type and body), from a
 * Map in memory: no hooks, no validation, no schema, no logging. A URL it does not know gets 404.
 * It runs in its own process (bare-route-process.ts starts it), so the load generator never shares
 * its event loop; it prints `listening on URL` once it listens.
 *
 *   node --import tsx bench/server/bare-route.ts ANSWERS.json
 */
import { readFileSync } from 'node:fs';
import fastify, { type FastifyReply, type FastifyRequest } from 'fastify';

/** One answer the bare route serves: the request URL as autocannon sends it, and what the server answered. */
export interface BareAnswer {
  /** Path and query string (`callPath`). */
  readonly url: string;
  readonly contentType: string;
  /** The body, base64 (its exact bytes). */
  readonly body: string;
}

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) throw new Error('bare-route: the answers file is required.');
  const answers = JSON.parse(readFileSync(file, 'utf8')) as BareAnswer[];
  const byUrl = new Map(answers.map((a) => [a.url, { contentType: a.contentType, body: Buffer.from(a.body, 'base64') }]));
  const app = fastify({ logger: false });
  const handler = (request: FastifyRequest, reply: FastifyReply): void => {
    const answer = byUrl.get(request.url);
    if (answer === undefined) void reply.code(404).send();
    else void reply.header('content-type', answer.contentType).send(answer.body);
  };
  for (const path of new Set(answers.map((a) => a.url.split('?')[0]!))) app.get(path, handler);
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  process.stdout.write(`listening on ${address}\n`);
  process.once('SIGTERM', () => {
    void app.close().then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`bare-route failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
