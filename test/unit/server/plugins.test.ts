/**
 * The server's plugins declare what they need: a plugin registered without the plugins it reads
 * fails when the server starts (`ready()`), and a route naming an operation that does not exist
 * fails when it is registered. Before, both failed per request.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { guardPlugin, type GuardOptions } from '../../../src/server/plugins/guard.js';
import { validationPlugin } from '../../../src/server/validation/fastify-plugin.js';
import { operationRoutes, type RouteOptions } from '../../../src/server/routes/operation-route.js';

describe('plugin dependencies', () => {
  it('refuses the operations\' routes without the guard and the validation, at ready()', async () => {
    const app = Fastify();
    // Never used: the dependency check runs before the plugin does.
    const unused: Partial<RouteOptions> = {};
    app.register(operationRoutes, unused as RouteOptions);
    await expect(app.ready()).rejects.toThrow("The dependency 'backlink-query-guard' of plugin 'backlink-query-operations' is not registered");
    await app.close();
  });

  it('refuses the guard without the plugin that decorates the instance with the store, the ledger and the accounts, at ready()', async () => {
    const app = Fastify();
    // Never used: the dependency check runs before the plugin does.
    app.register(guardPlugin, {} as GuardOptions);
    await expect(app.ready()).rejects.toThrow("The dependency 'backlink-query-store' of plugin 'backlink-query-guard' is not registered");
    await app.close();
  });

  it('refuses a route whose config names no operation of the catalogue, when it is registered', async () => {
    const app = Fastify();
    await app.register(validationPlugin);
    expect(() => app.get('/x', { config: { operation: 'linkz' } }, async () => 'never')).toThrow(
      /The route GET \/x names the operation "linkz" in its config; the operations are .*\blinks\b/,
    );
    await app.close();
  });
});
