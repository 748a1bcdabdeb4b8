/**
 * Builds a browser page with esbuild into one folder: index.html, one script and one style sheet,
 * their names carrying a hash of their content (the server caches them for good). Two pages: the
 * playground (src/playground/, the default) and the target page (`--page explore`,
 * src/explore/). `npm run build` runs it after tsup for each, into dist/playground/ and
 * dist/explore/, which the server serves at /playground/ and /explore/ and the tarball ships;
 * `npm run playground:docs` writes the playground into docs/playground/ for a static docs site,
 * where the page calls the server named in its Server field (default http://127.0.0.1:3000; the
 * server must allow the site's origin with `--cors-origin`, which `serve --sample` does for every
 * origin).
 *
 *   node scripts/build-playground.mjs [--page playground|explore] [--out DIR] [--docs]
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
/**
 * The pages: their sources, and their titles (in their index.html), by which an index.html is
 * known as an earlier build of the page.
 */
export const PAGES = {
  playground: { source: join(ROOT, 'src', 'playground'), title: 'backlink-query playground', what: 'the playground' },
  explore: { source: join(ROOT, 'src', 'explore'), title: 'backlink-query explore', what: 'the target page' },
};

const USAGE = 'usage: build-playground.mjs [--page playground|explore] [--out DIR] [--docs]';

function options(argv) {
  const docs = argv.includes('--docs');
  const valued = ['--out', '--page'];
  for (const name of valued) {
    const at = argv.indexOf(name);
    if (at !== -1 && !argv[at + 1]) throw new Error(`${name} needs a ${name === '--out' ? 'folder' : 'page name'}`);
  }
  const unknown = argv.filter((arg, i) => !['--docs', ...valued].includes(arg) && !valued.includes(argv[i - 1]));
  if (unknown.length > 0) throw new Error(`unknown argument ${unknown[0]}; ${USAGE}`);
  const pageAt = argv.indexOf('--page');
  const page = pageAt === -1 ? 'playground' : argv[pageAt + 1];
  if (!Object.hasOwn(PAGES, page)) throw new Error(`unknown page ${page}; ${USAGE}`);
  if (docs && page !== 'playground') throw new Error('--docs builds the playground only');
  const at = argv.indexOf('--out');
  // --out is relative to the current folder; the defaults to the repository's root.
  const out = at !== -1 ? resolve(argv[at + 1]) : join(ROOT, docs ? 'docs/playground' : `dist/${page}`);
  return { out, mode: docs ? 'docs' : 'server', page };
}

/**
 * Refuses to empty a folder that is not an earlier build of the page: `out` may be missing, empty,
 * or hold an index.html with the page's title; anything else (`--out .`, `--out src`) is an error,
 * and nothing is removed.
 *
 * @example
 * await checkOut('/tmp/playground'); // throws when /tmp/playground holds other files
 */
export async function checkOut(out, page = 'playground') {
  const { title, what } = PAGES[page];
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
  if (!html.includes(`<title>${title}</title>`)) {
    throw new Error(`refusing to empty ${out}: it is not empty and holds no earlier build of ${what} (no index.html titled "${title}"); pick an empty or new folder`);
  }
}

/**
 * Builds the page into `out` (emptied first; {@link checkOut} refuses a folder that is not an earlier build) and returns its files with their sizes.
 *
 * @example
 * await buildPlayground({ out: '/tmp/playground', mode: 'server' });
 */
export async function buildPlayground({ out, mode, page = 'playground' }) {
  const SOURCE = PAGES[page].source;
  await checkOut(out, page);
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [
      { in: join(SOURCE, 'main.ts'), out: page },
      { in: join(SOURCE, 'style.css'), out: page },
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
    const { out, mode, page } = options(process.argv.slice(2));
    const files = await buildPlayground({ out, mode, page });
    const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
    for (const { file, bytes, gzip } of files) console.log(`  ${relative(ROOT, join(out, file))}  ${kb(bytes)} (${kb(gzip)} gzip)`);
  } catch (error) {
    console.error(`build-playground: ${error.message}`);
    process.exit(1);
  }
}
