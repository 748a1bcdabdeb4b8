#!/usr/bin/env node
// The installed command: runs the built CLI. In a clone, `npm ci` (or `npm install`) builds it
// through the `prepare` script; when dist/ is missing all the same, say how to build it.
const built = new URL('../dist/cli.js', import.meta.url);
import(built.href).then(
  (cli) => cli.main(process.argv.slice(2)),
  (error) => {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || error.url !== built.href) throw error;
    const root = new URL('..', import.meta.url).pathname;
    console.error(`backlink-query: the command is not built (${built.pathname} is missing). Run "npm run build" in ${root} (npm ci and npm install run it).`);
    return 70;
  },
).then(
  (code) => { process.exitCode = code; },
  (error) => { console.error(error); process.exitCode = 70; },
);
