// Loaded with `node --import` by optional-peers.test.ts: makes the packages named in
// BQ_HIDE_PACKAGES (comma-separated) unresolvable, as on a machine where they are not installed,
// for import (a resolve hook) and for require() (the CommonJS resolver), with Node's own error
// codes and messages. lifecycle.test.ts and the MCP tests load it too.
import Module, { register } from 'node:module';

const hidden = (process.env.BQ_HIDE_PACKAGES ?? '').split(',').filter(Boolean);

const hook = `
const HIDDEN = new Set(${JSON.stringify(hidden)});
export async function resolve(specifier, context, next) {
  if (HIDDEN.has(specifier)) {
    const error = new Error("Cannot find package '" + specifier + "' imported from " + context.parentURL);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (hidden.includes(request)) {
    const error = new Error(`Cannot find module '${request}'`);
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  }
  return resolveFilename.call(this, request, ...rest);
};
