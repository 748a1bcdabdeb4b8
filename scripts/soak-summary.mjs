// `npm run soak` ends here: the figures each soak scenario recorded (test/server/load/load-kit.ts,
// recordFigures), one row per scenario, then the file is removed for the next run.
import { existsSync, readFileSync, rmSync } from 'node:fs';

const FILE = '.tmp/soak/figures.ndjson';
if (!existsSync(FILE)) {
  console.error('soak: no figures were recorded (did the load tests run?)');
  process.exit(1);
}
const rows = readFileSync(FILE, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
rmSync(FILE);
const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
const cell = (value) => (value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));
const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => cell(row[column]).length)));
const line = (cells) => cells.map((text, i) => text.padEnd(widths[i])).join('  ');
console.log('\nsoak figures');
console.log(line(columns));
for (const row of rows) console.log(line(columns.map((column) => cell(row[column]))));
