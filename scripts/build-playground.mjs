/**
 * Builds the browser playground (src/playground/) with esbuild into one folder: index.html, one
 * script and one style sheet, their names carrying a hash of their content (the server caches
 * them for good). `npm run build` runs it after tsup, into dist/playground/, which the server
 * serves at /playground/ and the tarball ships; `npm run playground:docs` writes the same page
 * into docs/playground/ for a static docs site, where the page calls the server named in its
 * Server field (default http://127.0.0.1:3000; the server must allow the site's origin with
 * `--cors-origin`, which `serve --sample` does for every origin).
 *
 *   node scripts/build-playground.mjs [--out DIR] [--docs]
 *
 * Prints the files and their sizes (raw and gzip). esbuild is a devDependency: only a clone
 * builds the page; the published package ships it built.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCE = join(ROOT, 'src', 'playground');

function options(argv) {
  const docs = argv.includes('--docs');
  const at = argv.indexOf('--out');
  if (at !== -1 && !argv[at + 1]) throw new Error('--out needs a folder');
  const unknown = argv.filter((arg, i) => !['--docs', '--out'].includes(arg) && argv[i - 1] !== '--out');
  if (unknown.length > 0) throw new Error(`unknown argument ${unknown[0]}; usage: build-playground.mjs [--out DIR] [--docs]`);
  // --out is relative to the current folder; the defaults to the repository's root.
  const out = at !== -1 ? resolve(argv[at + 1]) : join(ROOT, docs ? 'docs/playground' : 'dist/playground');
  return { out, mode: docs ? 'docs' : 'server' };
}

/** The title of the page (src/playground/index.html): an index.html holding it is an earlier build. */
const MARKER = '<title>backlink-query playground</title>';

/**
 * Refuses to empty a folder that is not an earlier build of the page: `out` may be missing, empty,
 * or hold an index.html with the page's title; anything else (`--out .`, `--out src`) is an error,
 * and nothing is removed.
 *
 * @example
 * await checkOut('/tmp/playground'); // throws when /tmp/playground holds other files
 */
export async function checkOut(out) {
  let entries;
  try {
    entries = await readdir(out);
  } catch (error) {
    if (error.code === 'ENOENT') return;
    throw error;
  }
  if (entries.length === 0) return;
  let html = '';
  try {
    html = await readFile(join(out, 'index.html'), 'utf8');
  } catch {
    // no index.html (or not a readable file): not a build of the page
  }
  if (!html.includes(MARKER)) {
    throw new Error(`refusing to empty ${out}: it is not empty and holds no earlier build of the playground (no index.html titled "backlink-query playground"); pick an empty or new folder`);
  }
}

/**
 * Builds the page into `out` (emptied first; {@link checkOut} refuses a folder that is not an earlier build) and returns its files with their sizes.
 *
 * @example
 * await buildPlayground({ out: '/tmp/playground', mode: 'server' });
 */
export async function buildPlayground({ out, mode }) {
  await checkOut(out);
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [
      { in: join(SOURCE, 'main.ts'), out: 'playground' },
      { in: join(SOURCE, 'style.css'), out: 'playground' },
    ],
    entryNames: '[name]-[hash]',
    outdir: out,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome100', 'firefox100', 'safari15.4'],
    minify: true,
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((file) => basename(file));
  const script = outputs.find((file) => file.endsWith('.js'));
  const style = outputs.find((file) => file.endsWith('.css'));
  if (!script || !style || outputs.length !== 2) throw new Error(`expected one script and one style sheet, got ${outputs.join(', ')}`);
  const template = await readFile(join(SOURCE, 'index.html'), 'utf8');
  const html = template.replace('__MODE__', mode).replace('__SCRIPT__', script).replace('__STYLE__', style);
  await writeFile(join(out, 'index.html'), html);
  const files = [];
  for (const file of ['index.html', script, style]) {
    const body = await readFile(join(out, file));
    files.push({ file, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length });
  }
  return files;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const { out, mode } = options(process.argv.slice(2));
    const files = await buildPlayground({ out, mode });
    const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
    for (const { file, bytes, gzip } of files) console.log(`  ${relative(ROOT, join(out, file))}  ${kb(bytes)} (${kb(gzip)} gzip)`);
  } catch (error) {
    console.error(`build-playground: ${error.message}`);
    process.exit(1);
  }
}
