/**
 * The package's npm lifecycle scripts: `node scripts/lifecycle.mjs prepare|prepack|postpack`.
 *
 * - **prepare** builds dist/ (`npm run build`) when npm installs the clone (`npm ci`,
 *   `npm install`), so that the `backlink-query` command and `import ... from 'backlink-query'`
 *   work right after the README's install command. Two exceptions: the first `npx backlink-query`
 *   in a clone links the clone into npm's npx cache and runs `prepare` again (npm_command=exec);
 *   `npm ci` built the clone already, so under npx it builds only when dist/ is missing. And
 *   `BACKLINK_QUERY_SKIP_PREPARE=1` skips it (.ci/run builds as a step of its own).
 * - **prepack** (`npm pack`, `npm publish`) builds dist/ and takes the `prepare` script out of
 *   package.json, so that the tarball's manifest has none: npm lists a package's `prepare` among
 *   the install scripts it asks a user to approve when the package comes from a file or a git URL,
 *   although it never runs it there. npm reads the scripts again after `prepack`, so `prepare`
 *   does not run (and build a second time) during the pack.
 *   It also rewrites the README's and the guides' relative links to files the tarball does not
 *   carry (contributor pages, benchmark results) to the same files on GitHub, so that every link
 *   of the installed package leads somewhere; the clone and the typedoc site keep relative links.
 * - **postpack** puts package.json and the guides back as they were, byte for byte.
 *
 * The build's log goes to stderr: `npm pack --json` and `npm publish --json` print their JSON on
 * stdout, which the log would break.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MANIFEST = join(ROOT, 'package.json');
// Where prepack keeps the files it changes as they were, for postpack.
const SAVED = join(ROOT, '.tmp', 'before-pack');
const REPOSITORY = 'https://github.com/backlink-query/backlink-query/blob/main';

/** Whether package.json's `files` (globs with `*`, folders, `!` exclusions) takes `path`. */
function packs(files, path) {
  const matches = (pattern) => {
    const source = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*');
    return new RegExp(`^${source}(/.*)?$`).test(path);
  };
  return files.some((entry) => !entry.startsWith('!') && matches(entry)) && !files.some((entry) => entry.startsWith('!') && matches(entry.slice(1)));
}

/** The markdown files the tarball carries (README, CHANGELOG, docs/*.md), relative to the root. */
function packedPages(files) {
  const pages = ['README.md', 'CHANGELOG.md', ...readdirSync(join(ROOT, 'docs')).map((name) => `docs/${name}`)];
  return pages.filter((page) => page.endsWith('.md') && packs(files, page));
}

/** A page's text with its relative links to files the tarball leaves out made absolute; code fences untouched. */
function linkOut(page, text, files) {
  return text
    .split(/(```[\s\S]*?```)/)
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part.replace(/\]\(([^)\s#]+)(#[^)\s]*)?\)/g, (link, target, anchor = '') => {
            if (/^[a-z]+:/i.test(target)) return link;
            const file = normalize(join(dirname(page), target));
            if (file.startsWith('..') || packs(files, file) || !existsSync(join(ROOT, file))) return link;
            return `](${REPOSITORY}/${file}${anchor})`;
          }),
    )
    .join('');
}

function build() {
  // npm_execpath is npm's own CLI script when npm runs this script; otherwise the npm on the PATH.
  const npm = process.env.npm_execpath;
  const stdio = ['inherit', 2, 'inherit'];
  const result = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build'], { stdio })
    : spawnSync('npm', ['run', 'build'], { stdio, shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Puts back, byte for byte, the files prepack saved, and forgets them. */
function restoreSaved() {
  for (const file of readdirSync(SAVED, { recursive: true, withFileTypes: true })) {
    if (file.isFile()) cpSync(join(file.parentPath, file.name), join(ROOT, relative(SAVED, join(file.parentPath, file.name))));
  }
  rmSync(SAVED, { recursive: true });
}

const stage = process.argv[2];
if (stage === 'prepare') {
  if (process.env.npm_command === 'exec' && existsSync(new URL('../dist/cli.js', import.meta.url))) process.exit(0);
  if (process.env.BACKLINK_QUERY_SKIP_PREPARE === '1') process.exit(0);
  build();
} else if (stage === 'prepack') {
  // A pack that failed after prepack never ran postpack: put its originals back first, so that
  // what is saved below is the clone's own package.json and guides, not the packed ones.
  if (existsSync(SAVED)) restoreSaved();
  build();
  const text = readFileSync(MANIFEST, 'utf8');
  const manifest = JSON.parse(text);
  rmSync(SAVED, { recursive: true, force: true });
  const change = (file, changed) => {
    cpSync(join(ROOT, file), join(SAVED, file));
    writeFileSync(join(ROOT, file), changed);
  };
  for (const page of packedPages(manifest.files)) {
    const before = readFileSync(join(ROOT, page), 'utf8');
    const after = linkOut(page, before, manifest.files);
    if (after !== before) change(page, after);
  }
  delete manifest.scripts.prepare;
  change('package.json', `${JSON.stringify(manifest, null, 2)}\n`);
} else if (stage === 'postpack') {
  if (existsSync(SAVED)) restoreSaved();
} else {
  console.error(`usage: node scripts/lifecycle.mjs prepare|prepack|postpack (got ${stage})`);
  process.exit(2);
}
