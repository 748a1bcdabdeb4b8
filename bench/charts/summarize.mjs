// Median of the per-run medians over several runs of run.mjs, with the spread (min-max of run medians).
// Usage: node summarize.mjs results-1.json results-2.json results-3.json > summary.md
import { readFileSync } from 'node:fs';
const files = process.argv.slice(2);
const runs = files.map(f => JSON.parse(readFileSync(f)).results);
const med = (a) => { const s = [...a].sort((x, y) => x - y); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const keys = ['startTo1000Painted', 'draw1000Painted', 'redrawPaint', 'redrawSync', 'freshWarm', 'otherChartsPainted'];
const cell = (lib, k) => { const v = runs.map(r => r[lib][k]); return `${med(v).toFixed(1)} (${Math.min(...v).toFixed(0)}–${Math.max(...v).toFixed(0)})`; };
console.log(`${files.length} runs × 7 loads; each cell: median of the run medians (min–max of run medians), ms\n`);
console.log(`| library | min KB | gzip KB | ${keys.join(' | ')} |`);
console.log(`| --- | ---: | ---: | ${keys.map(() => '---:').join(' | ')} |`);
for (const lib of Object.keys(runs[0])) {
  const r = runs[0][lib];
  console.log(`| ${r.name} | ${(r.min / 1024).toFixed(1)} | ${(r.gzip / 1024).toFixed(1)} | ${keys.map(k => cell(lib, k)).join(' | ')} |`);
}
