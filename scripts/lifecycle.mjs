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
 * - **postpack** puts package.json back as it was, byte for byte.
 *
 * The build's log goes to stderr: `npm pack --json` and `npm publish --json` print their JSON on
 * stdout, which the log would break.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const MANIFEST = new URL('../package.json', import.meta.url);
// Where prepack keeps package.json as it was, for postpack.
const SAVED = new URL('../.tmp/package.json.before-pack', import.meta.url);

function build() {
  // npm_execpath is npm's own CLI script when npm runs this script; otherwise the npm on the PATH.
  const npm = process.env.npm_execpath;
  const stdio = ['inherit', 2, 'inherit'];
  const result = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build'], { stdio })
    : spawnSync('npm', ['run', 'build'], { stdio, shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const stage = process.argv[2];
if (stage === 'prepare') {
  if (process.env.npm_command === 'exec' && existsSync(new URL('../dist/cli.js', import.meta.url))) process.exit(0);
  if (process.env.BACKLINK_QUERY_SKIP_PREPARE === '1') process.exit(0);
  build();
} else if (stage === 'prepack') {
  build();
  const text = readFileSync(MANIFEST, 'utf8');
  const manifest = JSON.parse(text);
  mkdirSync(new URL('.', SAVED), { recursive: true });
  writeFileSync(SAVED, text);
  delete manifest.scripts.prepare;
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
} else if (stage === 'postpack') {
  if (existsSync(SAVED)) {
    writeFileSync(MANIFEST, readFileSync(SAVED));
    rmSync(SAVED);
  }
} else {
  console.error(`usage: node scripts/lifecycle.mjs prepare|prepack|postpack (got ${stage})`);
  process.exit(2);
}
