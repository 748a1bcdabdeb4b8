/**
 * The `prepare` script: builds dist/ (`npm run build`) when npm installs the clone (`npm ci`,
 * `npm install`) and before `npm pack` and `npm publish`, so that the `backlink-query` command
 * and `import ... from 'backlink-query'` work right after the README's install command.
 *
 * One exception: the first `npx backlink-query` in a clone links the clone into npm's npx cache
 * and runs `prepare` again (npm_command=exec). `npm ci` built the clone already; building it again
 * would stall that first call for half a minute, so under npx it builds only when dist/ is missing.
 * `BACKLINK_QUERY_SKIP_PREPARE=1` skips the build (.ci/run builds as a step of its own).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (process.env.npm_command === 'exec' && existsSync(new URL('../dist/cli.js', import.meta.url))) process.exit(0);
// .ci/run builds as a step of its own, right after `npm ci`.
if (process.env.BACKLINK_QUERY_SKIP_PREPARE === '1') process.exit(0);
// npm_execpath is npm's own CLI script when npm runs this script; otherwise the npm on the PATH.
const npm = process.env.npm_execpath;
const result = npm
  ? spawnSync(process.execPath, [npm, 'run', 'build'], { stdio: 'inherit' })
  : spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
process.exit(result.status ?? 1);
