/**
 * A stand-in for the service in your own tests: {@link createTestService} answers every operation
 * in the calling process, with the reference server itself (the Fastify app, its validation,
 * prices, keys and error envelopes) over a SQLite database in memory, through Fastify's `inject`:
 * no port, no file, no network. The server's packages (optional dependencies of backlink-query)
 * are loaded on the first call only, so the arbitraries of `backlink-query/testing` still import
 * without them.
 *
 * @module
 */
import type { TestService, TestServiceOptions } from './options.js';

/**
 * Starts a stand-in for the service in the calling process: the reference server over a SQLite
 * database in memory, loaded with the given records or generated ones, answering through a `fetch`
 * that never opens a socket. It needs the server's packages (Fastify, @fastify/cors,
 * fastify-plugin, better-sqlite3, tldts: optional dependencies of backlink-query, installed with
 * it); a missing one is a `MissingDependencyError` naming the command that installs it.
 *
 * @example
 * ```ts
 * import { createTestService } from 'backlink-query/testing';
 * const service = await createTestService({ links: [{ source_url: 'https://blog.example.org/a', target_url: 'https://example.com/', anchor: 'seo' }] });
 * const { data, units } = await service.client.links({ url: 'example.com', scope: 'ROOT_DOMAIN' });
 * await service.close();
 * ```
 *
 * @throws MissingDependencyError when a package of the server is not installed
 * @throws StoreError (`invalid_record`) when a given link is not a valid record (its message names the link, `links[i]`)
 */
export async function createTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const { startTestService } = await import('./start.js');
  return startTestService(options);
}
