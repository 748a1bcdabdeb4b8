#!/usr/bin/env node
// The installed command: runs the built CLI.
import('../dist/cli.js').then((cli) => cli.main(process.argv.slice(2))).then(
  (code) => { process.exitCode = code; },
  (error) => { console.error(error); process.exitCode = 70; },
);
