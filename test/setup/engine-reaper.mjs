/**
 * The reaper of one folder of throwaway database servers (`/tmp/bq-engines-XXXXXX`, made by
 * `makeBaseDir` in engine-processes.ts, which starts this script beside it).
 *
 * It runs in its own session (spawned detached), so the Ctrl+C of a terminal, which signals the
 * whole foreground process group, does not reach it, and it holds a pipe from the process that
 * started it on its stdin. It cleans up when told to (`stop` on the pipe: a normal end, or a
 * start that failed) and when the pipe closes without that word: the process that owned the
 * servers ended without its teardown (SIGINT, SIGTERM, SIGKILL, a crash). One path for all.
 *
 * Cleaning up, in this order:
 * 1. The engine scripts still starting a server in the folder (`bash scripts/engines/*.sh` whose
 *    environment names the folder) are killed, so none of them starts a server after step 3.
 * 2. Each server folder found under the folder is stopped by its own script (`postgres.sh stop`,
 *    `mariadb.sh stop`, `clickhouse.sh stop`/`cluster-stop`): a clean shutdown, in parallel.
 * 3. Any process still running whose command line or environment names the folder gets SIGTERM,
 *    then SIGKILL after 10 s.
 * 4. The folder is removed.
 *
 * Processes are found through /proc by the folder's path, never by name: other runs may have
 * servers of their own. It exits 0 when no such process is left and the folder is gone, else 1.
 *
 * Usage (by engine-processes.ts): `node engine-reaper.mjs '<plan JSON>'`, the plan being
 * `{ base, scripts, servers: [{ name, script, stop, dirEnv }] }`.
 *
 * @module
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const plan = JSON.parse(process.argv[2] ?? '{}');
const base = String(plan.base ?? '');
if (!/^\/.*\/bq-engines-[^/]+$/.test(base)) {
  process.stderr.write(`[engines] reaper: not an engines folder: ${base}\n`);
  process.exit(2);
}
const marker = `${base}/`;

process.stderr.on('error', () => {}); // the terminal or pipe may be gone; cleaning up matters more than the log
const log = (message) => {
  try {
    process.stderr.write(`[engines] ${message}\n`);
  } catch {
    /* see above */
  }
};

/** Processes (other than this one) whose command line or environment names the folder. */
function processesOfBase() {
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let cmdline;
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'latin1');
    } catch {
      continue; // gone meanwhile
    }
    let environ = '';
    try {
      environ = readFileSync(`/proc/${entry}/environ`, 'latin1');
    } catch {
      /* another user's process: its command line decides */
    }
    if (cmdline.includes(marker) || environ.includes(marker)) found.push({ pid: Number(entry), cmdline: cmdline.split('\0').join(' ').trim() });
  }
  return found;
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
};
const signal = (pid, name) => {
  try {
    process.kill(pid, name);
  } catch {
    /* already gone */
  }
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitGone(pids, ms) {
  const until = Date.now() + ms;
  while (pids.some(alive) && Date.now() < until) await sleep(100);
  return pids.filter(alive);
}

function stopServer(server) {
  const dir = join(base, server.name);
  return new Promise((resolve) => {
    execFile(
      'bash',
      [join(plan.scripts, server.script), ...server.stop],
      { env: { ...process.env, [server.dirEnv]: dir, BQ_CLICKHOUSE_KEEP: '0' }, timeout: 90_000 },
      (error, _stdout, stderr) => {
        if (error) log(`reaper: ${server.script} ${server.stop.join(' ')} failed: ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
        resolve();
      },
    );
  });
}

let cleaning = false;
async function cleanUp(why) {
  if (cleaning) return;
  cleaning = true;
  const started = Date.now();
  // 1. Scripts still starting a server here.
  const scripts = processesOfBase().filter((p) => /^(\/\S*\/)?bash /.test(p.cmdline) && p.cmdline.includes(plan.scripts));
  for (const { pid } of scripts) signal(pid, 'SIGKILL');
  await waitGone(scripts.map((p) => p.pid), 5_000);
  // 2. Each server folder, stopped by its script.
  const servers = (plan.servers ?? []).filter((server) => existsSync(join(base, server.name)));
  await Promise.all(servers.map(stopServer));
  // 3. Whatever still runs in the folder.
  let left = processesOfBase();
  if (left.length > 0) {
    log(`reaper: ${left.length} process(es) still running in ${base} after the stop scripts, SIGTERM: ${left.map((p) => `${p.pid} ${p.cmdline.slice(0, 80)}`).join('; ')}`);
    for (const { pid } of left) signal(pid, 'SIGTERM');
    const stubborn = await waitGone(left.map((p) => p.pid), 10_000);
    for (const pid of stubborn) signal(pid, 'SIGKILL');
    await waitGone(stubborn, 5_000);
    left = processesOfBase();
  }
  // 4. The folder.
  for (let attempt = 0; attempt < 5 && existsSync(base); attempt++) {
    try {
      rmSync(base, { recursive: true, force: true });
    } catch (error) {
      if (attempt === 4) log(`reaper: cannot remove ${base}: ${error.message}`);
      else await sleep(200);
    }
  }
  const clean = left.length === 0 && !existsSync(base);
  const what = servers.map((server) => server.name).join(', ') || 'no server';
  if (clean) log(`stopped (${what}) and removed ${base} in ${Date.now() - started} ms (${why})`);
  else log(`reaper: LEFT BEHIND in ${base}: ${left.map((p) => `${p.pid} ${p.cmdline}`).join('; ') || 'the folder'} (${why})`);
  process.exit(clean ? 0 : 1);
}

let received = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  received += chunk;
  if (received.includes('stop\n')) void cleanUp('teardown');
});
process.stdin.on('end', () => void cleanUp('the test process ended without its teardown'));
process.stdin.on('error', () => void cleanUp('the test process ended without its teardown'));
process.stdin.resume();
