/**
 * The browser pages' files: the playground at `/playground/` and the target page at `/explore/`
 * (the same way, from `dist/explore/`). The playground is the page `npm run build` writes into
 * `dist/playground/` (scripts/build-playground.mjs: index.html, one script and one style sheet
 * whose names carry a hash of their content). The page is public, like `/openapi.json`; the calls
 * it makes carry the key typed into it.
 *
 * - `GET /playground` redirects (308) to `/playground/`, so that the page's relative asset URLs
 *   resolve the same on the server and on a static docs site.
 * - `index.html` is sent with `Cache-Control: no-cache` and an ETag (a browser revalidates it and
 *   gets 304 when unchanged); the hashed assets with `public, max-age=31536000, immutable`.
 * - Without a build (running from the sources before `npm run build`), every playground path is a
 *   404 in the service's error envelope that says to run `npm run build`.
 *
 * Nothing here needs esbuild: the published server serves the files its `dist/` ships.
 *
 * @module
 * @internal
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from './errors.js';

/** Where the playground page answers. @internal */
export const PLAYGROUND_PATH = '/playground/';
/** Where the target page answers. @internal */
export const EXPLORE_PATH = '/explore/';

/** Content types by extension: the files the build writes, plus source maps. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** A file name the build writes: no directory, no leading dot, a known extension. */
const FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** esbuild's `[name]-[hash]` names: content-addressed, so they never change and may be cached for good. */
const HASHED = /-[A-Z0-9]{8}\.(js|css)$/;

/**
 * The folder the built page is read from: `dist/playground/` beside the built server module
 * (`dist/*.js`, `dist/*.cjs`); from the sources (`src/server/playground.ts`, run through tsx), the
 * clone's `dist/playground/`.
 *
 * @internal
 */
export function defaultPlaygroundDir(moduleUrl: string = import.meta.url, page: 'playground' | 'explore' = 'playground'): string {
  const fromSources = /\.[cm]?ts$/.test(new URL(moduleUrl).pathname);
  return fileURLToPath(new URL(fromSources ? `../../dist/${page}/` : `./${page}/`, moduleUrl));
}

/** Options of {@link registerPlayground}. @internal */
export interface PlaygroundOptions {
  /** The folder holding the built page (default {@link defaultPlaygroundDir}). */
  readonly dir?: string;
}

/**
 * The 404 of a server without a built page. The response names the folder as a user of the
 * package reads it (`dist/playground/`), never the install path; the full path goes to the log.
 */
function notBuilt(request: FastifyRequest, dir: string, page: Page): ServiceError {
  if (page.name === 'explore') {
    request.log.warn({ exploreDir: dir }, `target page not built: no index.html in ${dir}`);
    return new ServiceError(404, 'The target page is not built: run `npm run build` (it writes dist/explore/).', [
      { rule: 'explore_not_built', message: 'No index.html in dist/explore/; `npm run build` builds the target page there.' },
    ]);
  }
  request.log.warn({ playgroundDir: dir }, `playground not built: no index.html in ${dir}`);
  return new ServiceError(404, 'The playground is not built: run `npm run build` (it writes dist/playground/).', [
    { rule: 'playground_not_built', message: 'No index.html in dist/playground/; `npm run build` builds the playground page there.' },
  ]);
}

/** A built page: its name (its folder in dist/) and the path it answers at. */
interface Page {
  readonly name: 'playground' | 'explore';
  readonly path: string;
}

async function readOrUndefined(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EISDIR') return undefined;
    throw error;
  }
}

/**
 * Registers `GET /playground`, `GET /playground/` and `GET /playground/<file>`.
 *
 * @example
 * ```ts
 * registerPlayground(fastify); // serves dist/playground/
 * ```
 * @internal
 */
export function registerPlayground(fastify: FastifyInstance, options: PlaygroundOptions = {}): void {
  registerPage(fastify, { name: 'playground', path: PLAYGROUND_PATH }, options.dir ?? defaultPlaygroundDir());
}

/**
 * Registers the target page (src/explore/, built into `dist/explore/`) as {@link registerPlayground}
 * does the playground: `GET /explore` (308 to `/explore/`, the query kept: `?url=…&scope=…`),
 * `GET /explore/` and `GET /explore/<file>`.
 *
 * @example
 * ```ts
 * registerExplore(fastify); // serves dist/explore/
 * ```
 * @internal
 */
export function registerExplore(fastify: FastifyInstance, options: PlaygroundOptions = {}): void {
  registerPage(fastify, { name: 'explore', path: EXPLORE_PATH }, options.dir ?? defaultPlaygroundDir(import.meta.url, 'explore'));
}

function registerPage(fastify: FastifyInstance, page: Page, folder: string): void {
  const dir = folder.replace(/\/?$/, '/');

  fastify.get(page.path.slice(0, -1), { exposeHeadRoute: false }, async (request, reply) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    return reply.code(308).header('Location', `${page.path}${query}`).send();
  });

  const sendIndex = async (request: FastifyRequest, reply: FastifyReply) => {
    const body = await readOrUndefined(`${dir}index.html`);
    if (body === undefined) throw notBuilt(request, dir, page);
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    reply.header('Cache-Control', 'no-cache').header('ETag', etag);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type(CONTENT_TYPES['.html']!).send(body);
  };
  fastify.get(page.path, { exposeHeadRoute: false }, sendIndex);

  fastify.get<{ Params: { file: string } }>(`${page.path}:file`, { exposeHeadRoute: false }, async (request, reply) => {
    const { file } = request.params;
    if (file === 'index.html') return sendIndex(request, reply);
    const type = CONTENT_TYPES[extname(file)];
    const body = type && FILE_NAME.test(file) ? await readOrUndefined(`${dir}${file}`) : undefined;
    if (body === undefined) {
      if ((await readOrUndefined(`${dir}index.html`)) === undefined) throw notBuilt(request, dir, page);
      throw new ServiceError(404, `No ${page.name === 'explore' ? 'target page' : 'playground'} file ${file}.`);
    }
    reply.header('Cache-Control', HASHED.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache');
    return reply.type(type!).send(body);
  });
}
