/**
 * The client subpath must run with web-standard APIs only. This bundles `src/client/index.ts` for
 * the browser with esbuild (tsup's own bundler) and runs the bundle in a `node:vm` context whose
 * globals are only web ones: no `process`, no `require`, no `Buffer`. It then calls the fixture
 * server from inside that context.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContext, runInContext } from 'node:vm';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';

let server: FixtureServer;
let bundle: string;
let dir: string;

beforeAll(async () => {
  server = await startFixtureServer();
  dir = await mkdtemp(join(tmpdir(), 'client-bundle-'));
  const outfile = join(dir, 'client.js');
  await build({
    entryPoints: ['src/client/index.ts'],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: 'BacklinkQuery',
    target: 'es2022',
    outfile,
    logLevel: 'silent',
  });
  bundle = await readFile(outfile, 'utf8');
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** Only what a browser, Deno or Bun also has. */
function webContext(): Record<string, unknown> {
  return {
    fetch, Headers, Request, Response, URL, URLSearchParams, AbortController, AbortSignal,
    setTimeout, clearTimeout, TextEncoder, TextDecoder, console, queueMicrotask, structuredClone,
  };
}

describe('the client bundle in a context with web globals only', () => {
  it('has no Node built-ins to lean on', () => {
    const context = createContext(webContext());
    expect(runInContext('[typeof process, typeof require, typeof Buffer, typeof module]', context)).toEqual(['undefined', 'undefined', 'undefined', 'undefined']);
  });

  it('loads, checks parameters, calls the service and decodes JSON and CSV', async () => {
    const context = createContext(webContext());
    runInContext(bundle, context);
    context['baseUrl'] = server.baseUrl;
    const result = await runInContext(
      `(async () => {
        const { createClient, isParameterError, isFilterError } = BacklinkQuery;
        const client = createClient({ apiKey: 'k', baseUrl });
        const json = await client.links({ url: 'example.com', scope: 'ROOT_DOMAIN', fields: ['anchor', 'domain_score'], filter: 'domain_score > 5', limit: 3 });
        const csv = await client.refIps({ url: 'example.com', scope: 'ROOT_DOMAIN', format: 'csv', limit: 2 });
        const bad = await client.links({ url: 'example.com', scope: 'NOPE' }).catch((e) => isParameterError(e) && e.parameter);
        const badFilter = await client.links({ url: 'example.com', scope: 'PAGE', filter: 'nope = 1' }).catch((e) => isFilterError(e) && e.issues[0].code);
        return JSON.stringify({ rows: json.data.length, keys: Object.keys(json.data[0]), csv: csv.data[1].backlinks_count, bad, badFilter, units: client.unitsSpent });
      })()`,
      context,
    );
    expect(JSON.parse(result as string)).toEqual({ rows: 3, keys: ['anchor', 'domain_score'], csv: 1, bad: 'scope', badFilter: 'unknown_field', units: 3 * 45 + 2 * 20 });
    expect(server.requests.at(-2)!.query.get('filter')).toBe('domain_score > 5');
  });

  it('no file of src/client imports a Node built-in', () => {
    for (const file of readdirSync('src/client')) {
      const text = readFileSync(join('src/client', file), 'utf8');
      expect(text, file).not.toMatch(/from ['"](node:|fs|path|http|https|stream|buffer|os|url|util)['"/]/);
      expect(text, file).not.toMatch(/\bprocess\.|\bBuffer\b|\brequire\(/);
    }
  });
});
