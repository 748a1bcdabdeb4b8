/**
 * The BUILT filter language behaves as its sources do. The build bundles Chevrotain and leaves
 * out the parts of it the filter language never runs (scripts/chevrotain-stubs.ts), each replaced
 * by a stand-in that throws; every other test of the filter language runs the sources with the
 * real Chevrotain. Here the published files (`dist/`: the root entry and the filter entry as ES
 * modules, the root entry as CommonJS, and the client's local validation) parse, validate and
 * complete valid and invalid filters (lexer errors, parse errors that the recovering parser
 * re-syncs from, a `maxIssues` bound, completion at every offset), and each answer must equal the
 * sources' answer, thrown errors included: a stubbed part that is reached throws, and the answers
 * then differ.
 *
 * `npm run build` first (this builds `dist/` itself when there is none).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import * as source from '../../src/index.js';
import { createClient as sourceClient } from '../../src/client/index.js';
import { leftOut, leftOutObject } from '../../src/vendor/chevrotain-left-out.js';
import { seeded } from '../property/support.js';

const ROOT = new URL('../../', import.meta.url);
type Api = Pick<typeof source, 'safeParseFilter' | 'parseFilter' | 'validateFilter' | 'complete'>;
let esm: Api;
let filterEntry: Pick<typeof source, 'safeParseFilter' | 'parseFilter' | 'validateFilter'>;
let cjs: Api;
let builtClient: typeof sourceClient;

beforeAll(async () => {
  if (!existsSync(new URL('dist/index.js', ROOT))) execFileSync('npx', ['tsup'], { cwd: ROOT.pathname, stdio: 'ignore' });
  esm = (await import(new URL('dist/index.js', ROOT).href)) as Api;
  filterEntry = (await import(new URL('dist/filter.js', ROOT).href)) as Api;
  cjs = createRequire(import.meta.url)(new URL('dist/index.cjs', ROOT).pathname) as Api;
  builtClient = ((await import(new URL('dist/client.js', ROOT).href)) as { createClient: typeof sourceClient }).createClient;
});

/** An answer, or the error thrown instead, as plain data (errors of the two copies are different classes). */
function answer(run: () => unknown): unknown {
  try {
    return { value: JSON.parse(JSON.stringify(run() ?? null)) as unknown };
  } catch (error) {
    const { name, message, code, issues } = error as { name: string; message: string; code?: unknown; issues?: unknown };
    return { thrown: JSON.parse(JSON.stringify({ name, message, code, issues })) as unknown };
  }
}

const FILTERS = [
  // Valid.
  'domain_score > 5',
  'domain_score >= 5 AND (anchor LIKE "%shoe%" OR anchor NOT LIKE \'x\\\'y%\') AND is_nofollow = false',
  'backlinks_counts[2] > 0 OR backlinks_counts[1] <= -3',
  '(((page_score <> 1.5)))',
  'first_seen >= "2024-01-01" and url like "https://%"',
  // Lexer errors: a character the language does not have, an unclosed string, a bad number.
  'domain_score @ 5',
  'anchor = "unclosed',
  'domain_score > 5abc',
  'page_score = 1e-7',
  // Parse errors the recovering parser re-syncs from.
  'domain_score >',
  'domain_score > 5 AND',
  'AND AND OR',
  '(domain_scor > 5 OR anchor =) AND is_nofollow = 1 AND (x = 2',
  'domain_score 5',
  'backlinks_counts[ > 1',
  'backlinks_counts[2 > 1',
  'anchor NOT "x"',
  ') domain_score > 5 (',
  'x = 1 y = 2 z = 3',
  'a = 1 AND (b = ',
  '((((((',
  '',
  '   ',
  // Meaning errors (the validator, after a clean parse).
  'domain_scor > 50',
  'is_nofollow > 1',
  'backlinks_counts[9] > 0',
  Array.from({ length: 40 }, (_, index) => `x${index} = ${index}`).join(' '),
];

const OPTIONS = [{}, { operation: 'links' }, { operation: 'links', maxIssues: 2 }, { operation: 'matrix', targets: 2 }, { operation: 'ref-domains' }];

describe('the built files leave parts of Chevrotain out (else this file tests nothing new)', () => {
  it('a chunk of dist/ holds the stand-ins', () => {
    const files = readdirSync(new URL('dist/', ROOT)).filter((name) => /\.(c?js)$/.test(name));
    const withStubs = (extension: string) => files.filter((name) => name.endsWith(extension) && readFileSync(new URL(`dist/${name}`, ROOT), 'utf8').includes('was left out of this build'));
    expect(withStubs('.js').length).toBeGreaterThan(0);
    expect(withStubs('.cjs').length).toBeGreaterThan(0);
  });

  it('a stand-in throws an Error naming what was left out', () => {
    expect(() => leftOut('validatePatterns (lexer.js)')()).toThrow(/Chevrotain's validatePatterns \(lexer\.js\) was left out of this build/);
    expect(() => (leftOutObject('defaultParserErrorProvider') as { buildMismatchTokenMessage: unknown }).buildMismatchTokenMessage).toThrow(
      /defaultParserErrorProvider\.buildMismatchTokenMessage was left out/,
    );
  });
});

describe('the built filter language answers as its sources do', () => {
  it.each(FILTERS)('safeParseFilter, parseFilter and validateFilter: %j', (text) => {
    for (const options of OPTIONS) {
      const expected = answer(() => source.safeParseFilter(text, options));
      for (const [name, built] of [['index.js', esm], ['filter.js', filterEntry], ['index.cjs', cjs]] as const) {
        expect(answer(() => built.safeParseFilter(text, options)), `${name} ${JSON.stringify(options)}`).toEqual(expected);
        expect(answer(() => built.parseFilter(text, options)), `${name} ${JSON.stringify(options)}`).toEqual(answer(() => source.parseFilter(text, options)));
      }
    }
    const parsed = source.safeParseFilter(text);
    if (parsed.ok) {
      for (const built of [esm, filterEntry, cjs]) {
        expect(answer(() => built.validateFilter(built.parseFilter(text), { operation: 'links' }))).toEqual(answer(() => source.validateFilter(parsed.filter, { operation: 'links' })));
      }
    }
  });

  it.each(FILTERS.filter((text) => text.length < 100))('complete at every offset: %j', (text) => {
    for (let offset = 0; offset <= text.length; offset++) {
      const expected = answer(() => source.complete(text, offset, { operation: 'links' }));
      expect(answer(() => esm.complete(text, offset, { operation: 'links' })), `index.js at ${offset}`).toEqual(expected);
      expect(answer(() => cjs.complete(text, offset, { operation: 'links' })), `index.cjs at ${offset}`).toEqual(expected);
    }
  });

  it('on generated token soups (mostly invalid: recovery everywhere), parse and completion', () => {
    const piece = fc.constantFrom(
      'domain_score', 'anchor', 'is_nofollow', 'backlinks_counts', 'AND', 'or', 'NOT', 'LIKE', 'true', '(', ')', '[', ']',
      '1', '-2.5', '3x', '1e5', "'a%'", '"b', '=', '<=', '<>', '!', '>', '@', '',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.nat(), (pieces, at) => {
        const text = pieces.join(' ');
        const offset = at % (text.length + 1);
        for (const options of [{ operation: 'links' }, { operation: 'links', maxIssues: 1 }]) {
          const expected = answer(() => source.safeParseFilter(text, options));
          expect(answer(() => esm.safeParseFilter(text, options))).toEqual(expected);
          expect(answer(() => cjs.safeParseFilter(text, options))).toEqual(expected);
        }
        expect(answer(() => esm.complete(text, offset, { operation: 'links' }))).toEqual(answer(() => source.complete(text, offset, { operation: 'links' })));
      }),
      seeded(300),
    );
  });

  it("the built client's local validation (its lazily loaded filter language) rejects and sends as the sources' client does", async () => {
    const call = async (createClient: typeof sourceClient, filter: string) => {
      const sent: string[] = [];
      const fetch = async (url: string | URL | Request) => (sent.push(new URL(String(url)).search), new Response(JSON.stringify({ meta: { total: 0 }, data: [] })));
      const client = createClient({ apiKey: 'k', baseUrl: 'http://service', fetch, validation: 'local' });
      const outcome = await client.links({ url: 'example.com', scope: 'ROOT_DOMAIN', filter, limit: 10 }).then(
        () => 'sent',
        (error: { name: string; code?: string; issues?: unknown }) => JSON.parse(JSON.stringify({ name: error.name, code: error.code, issues: error.issues })) as unknown,
      );
      return { sent, outcome };
    };
    for (const filter of ['domain_score > 5 AND anchor LIKE "%a%"', 'domain_score >', 'domain_scor > 5', '(a = 1 OR', 'anchor = "x']) {
      expect(await call(builtClient, filter), filter).toEqual(await call(sourceClient, filter));
    }
  });
});
