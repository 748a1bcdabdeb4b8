// Loaded with `node --import` by lifecycle.test.ts: makes the server's optional peers unresolvable,
// as on a machine where they are not installed, so the real CLI's message can be checked.
import { register } from 'node:module';

const hook = `
const HIDDEN = new Set(['fastify', 'better-sqlite3', 'tldts', '@duckdb/node-api']);
export async function resolve(specifier, context, next) {
  if (HIDDEN.has(specifier)) {
    const error = new Error('Cannot find package ' + JSON.stringify(specifier));
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
