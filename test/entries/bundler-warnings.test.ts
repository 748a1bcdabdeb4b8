/**
 * An application bundling the package gets no warning from its bundler. Each entry of
 * package.json's `exports` (its `import` condition, the built file in `dist/`) is bundled with
 * esbuild as an application would bundle it: for the browser where the entry is meant for one
 * (the root, client and filter entries), for Node otherwise; the package's optional and peer
 * dependencies left outside (the application installs them, or not). Any warning fails, for
 * example the `ignored-bare-import` that a bare `import './chunk-X.js'` gives under the package's
 * `"sideEffects": false` (issue 26).
 *
 * The files tested are the built ones: `npm run build` first (this builds `dist/` itself when
 * there is none). The ES module files are also checked for what no bundler warns about but an
 * application should not fetch: a chunk with no code, and a source map comment written twice.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const MANIFEST = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as {
  exports: Record<string, string | { import?: { default: string } }>;
  peerDependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
};
const OUTSIDE = [...Object.keys(MANIFEST.peerDependencies), ...Object.keys(MANIFEST.optionalDependencies)];

/** The entries meant for a browser (the rest serve, store or test on Node). */
const BROWSER = new Set(['.', './client', './filter']);

const entries = Object.entries(MANIFEST.exports).flatMap(([name, target]) => (typeof target === 'object' && target.import ? [[name, target.import.default] as const] : []));

beforeAll(() => {
  if (!existsSync(new URL('dist/index.js', ROOT))) execFileSync('npx', ['tsup'], { cwd: ROOT.pathname, stdio: 'ignore' });
});

describe('bundling an entry of the package with esbuild gives no warning', () => {
  it('has entries to bundle', () => {
    expect(entries.map(([name]) => name)).toEqual(expect.arrayContaining(['.', './client', './filter', './server']));
  });

  it.each(entries)('%s (%s)', async (name, file) => {
    for (const platform of BROWSER.has(name) ? (['browser', 'node'] as const) : (['node'] as const)) {
      const result = await build({
        entryPoints: [file],
        absWorkingDir: ROOT.pathname,
        bundle: true,
        splitting: true,
        format: 'esm',
        platform,
        outdir: 'out',
        write: false,
        external: OUTSIDE,
        logLevel: 'silent',
      });
      expect(
        result.warnings.map((warning) => `${platform}: ${warning.id} ${warning.location?.file ?? ''}:${warning.location?.line ?? ''} ${warning.text}`),
        `${name} for ${platform}`,
      ).toEqual([]);
    }
  });
});

describe('the built ES module files', () => {
  const files = () => readdirSync(new URL('dist/', ROOT)).filter((name) => name.endsWith('.js'));
  const read = (name: string) => readFileSync(new URL(`dist/${name}`, ROOT), 'utf8');

  it('have no chunk without code', () => {
    const empty = files().filter((name) => read(name).split('\n').every((line) => line.trim() === '' || line.startsWith('//# sourceMappingURL=')));
    expect(empty).toEqual([]);
  });

  it('import no chunk only for its side effects (the package declares it has none)', () => {
    const bare = files().flatMap((name) => read(name).split('\n').filter((line) => /^import ['"]\.\//.test(line)).map((line) => `${name}: ${line}`));
    expect(bare).toEqual([]);
  });

  it('end with one source map comment, naming their own map', () => {
    const wrong = files().filter((name) => {
      const comments = read(name).match(/^\/\/# sourceMappingURL=.*$/gm) ?? [];
      return comments.length !== 1 || comments[0] !== `//# sourceMappingURL=${name}.map`;
    });
    expect(wrong).toEqual([]);
  });
});
