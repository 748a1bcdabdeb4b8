// Builds, sizes and times the chart-library candidates for issue 53.
// Usage: nice -n 10 node run.mjs [--rounds 7] [--redraws 20 is fixed in src/harness.js] [--no-time]
// Writes build/, dist/, shots/, results.json and results.md.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync, readFileSync, existsSync, statSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, extname } from 'node:path';

const args = process.argv.slice(2);
const ROUNDS = Number(args[args.indexOf('--rounds') + 1]) || 7;
const TIME = !args.includes('--no-time');
const LIBS = ['uplot', 'chartjs', 'plot', 'vegalite', 'vega'];
const PKG = { uplot: ['uplot'], chartjs: ['chart.js'], plot: ['@observablehq/plot', 'd3'], vegalite: ['vega-lite', 'vega'], vega: ['vega'] };
const NAME = { uplot: 'uPlot', chartjs: 'Chart.js', plot: 'Observable Plot', vegalite: 'Vega-Lite (+Vega)', vega: 'Vega (specs precompiled)' };
const HEIGHTS = { p1000: 300, months: 340, hist: 300, anchors: 420 };

for (const d of ['build', 'dist', ...(TIME ? ['shots'] : [])]) { rmSync(d, { recursive: true, force: true }); mkdirSync(d, { recursive: true }); }

// 1. Vega-Lite specs -> Vega specs at build time (for the "vega" variant).
const vl = await import('vega-lite');
const specs = await import('./src/vl-specs.js');
const vg = Object.fromEntries(['months', 'hist', 'anchors', 'pts'].map(k => [k, vl.compile(specs[k]).spec]));
writeFileSync('build/vg-specs.json', JSON.stringify(vg));

// 2. Size bundles: the chart module alone (exports kept, so only what is used survives tree-shaking).
const gz = (file) => execFileSync('gzip', ['-9', '-c', file]).length;
const version = (p) => JSON.parse(readFileSync(`node_modules/${p}/package.json`)).version;
const sizes = {};
for (const lib of LIBS) {
  const r = await build({ entryPoints: [`src/${lib}.js`], bundle: true, minify: true, format: 'esm', platform: 'browser',
    outdir: 'dist/size', metafile: true, legalComments: 'none', logLevel: 'warning' });
  const files = Object.keys(r.metafile.outputs).filter(f => !f.endsWith('.map'));
  const min = files.reduce((s, f) => s + statSync(f).size, 0);
  const gzip = files.reduce((s, f) => s + gz(f), 0);
  // biggest inputs by package
  const byPkg = {};
  for (const out of Object.values(r.metafile.outputs)) for (const [inp, v] of Object.entries(out.inputs)) {
    const m = inp.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/); const k = m ? m[1] : inp;
    byPkg[k] = (byPkg[k] || 0) + v.bytesInOutput;
  }
  sizes[lib] = { files, min, gzip, versions: Object.fromEntries(PKG[lib].map(p => [p, version(p)])),
    topInputs: Object.entries(byPkg).sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, v]) => `${k} ${(v / 1024).toFixed(1)}K`) };
  console.log(`${lib.padEnd(9)} min ${(min / 1024).toFixed(1)} KB  gzip -9 ${(gzip / 1024).toFixed(1)} KB  [${files.join(', ')}]`);
}

// 3. Bench bundles (chart module + fixed data + harness + read-back probe) and their pages.
for (const lib of LIBS) {
  await build({ entryPoints: [`src/bench-${lib}.js`], bundle: true, minify: true, format: 'esm', platform: 'browser',
    outfile: `dist/bench/${lib}.js`, legalComments: 'none', logLevel: 'warning' });
  // the library's CSS (uPlot) is inlined: the real page ships one style sheet anyway, and an extra request would blur the timing
  const css = existsSync(`dist/bench/${lib}.css`) ? `<style>${readFileSync(`dist/bench/${lib}.css`, 'utf8')}</style>` : '';
  const box = (id) => `<div id="${id}" class="c" style="${lib === 'chartjs' ? `position:relative;height:${HEIGHTS[id]}px` : `min-height:${HEIGHTS[id]}px`}"></div>`;
  writeFileSync(`dist/bench/${lib}.html`, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${NAME[lib]}</title>
<script>window.__t0 = performance.now();</script>${css}
<style>body{font:13px sans-serif;margin:8px;width:820px;background:#fff}.c{width:800px;margin-bottom:24px}</style></head>
<body>${Object.keys(HEIGHTS).map(box).join('\n')}
<script type="module" src="${lib}.js"></script></body></html>`);
}
if (!TIME) process.exit(0);

// 4. Serve dist/bench on 127.0.0.1 only.
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
const server = createServer((req, res) => {
  const f = join('dist/bench', new URL(req.url, 'http://x').pathname.replace(/\.\./g, ''));
  if (!existsSync(f)) { res.writeHead(404).end(); return; }
  res.writeHead(200, { 'content-type': TYPES[extname(f)] || 'application/octet-stream', 'cache-control': 'no-store' }).end(readFileSync(f));
});
await new Promise(r => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;

// 5. Time in real Chromium, libraries interleaved (order rotated each round), a fresh context per load.
const { chromium } = await import('playwright-core');
const browser = await chromium.launch({ executablePath: process.env.BQ_CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu-vsync', '--disable-frame-rate-limit'] });
const chromiumVersion = browser.version();
const runs = Object.fromEntries(LIBS.map(l => [l, []]));
const extra = {};
for (let round = 0; round < ROUNDS; round++) {
  const order = LIBS.map((_, i) => LIBS[(i + round) % LIBS.length]);
  for (const lib of order) {
    const ctx = await browser.newContext({ viewport: { width: 840, height: 900 }, deviceScaleFactor: 1 });
    const page = await ctx.newPage();
    const outside = [], errors = [];
    await page.route('**/*', (route) => {
      const u = route.request().url();
      if (u.startsWith(origin)) return route.continue();
      outside.push(u); return route.abort();
    });
    page.on('pageerror', e => errors.push(String(e)));
    page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(`${origin}/${lib}.html`);
    await page.waitForFunction(() => window.__result, null, { timeout: 60000 });
    const r = await page.evaluate(() => window.__result);
    if (r.error) throw new Error(`${lib}: ${r.error}`);
    runs[lib].push(r);
    if (round === 0) {
      await page.screenshot({ path: `shots/${lib}.png`, fullPage: true });
      const a11y = await page.evaluate(() => {
        const q = (s) => document.querySelectorAll(s).length;
        const text = [...document.querySelectorAll('.c')].map(c => c.innerText.replace(/\s+/g, ' ').trim()).join(' | ');
        return { canvases: q('.c canvas'), svgs: q('.c svg'), svgTextNodes: q('.c svg text'), svgTitleEls: q('.c svg title'),
          ariaLabelled: q('.c [aria-label]'), roles: [...new Set([...document.querySelectorAll('.c [role]')].map(e => e.getAttribute('role')))],
          focusable: q('.c [tabindex], .c a[href], .c button'), domTextChars: text.length, domTextSample: text.slice(0, 300),
          bodyNodes: q('.c *') };
      });
      const aria = {};
      for (const id of Object.keys(HEIGHTS)) aria[id] = (await page.locator(`#${id}`).ariaSnapshot()).split('\n').slice(0, 12).join('\n');
      extra[lib] = { a11y, aria, outside, errors };
    } else if (outside.length || errors.length) { extra[lib].outside.push(...outside); extra[lib].errors.push(...errors); }
    await ctx.close();
  }
  process.stdout.write(`round ${round + 1}/${ROUNDS} done\n`);
}
await browser.close();
server.close();

// 6. Summaries.
const med = (a) => { const s = [...a].sort((x, y) => x - y); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const f1 = (x) => x.toFixed(1);
const results = {};
for (const lib of LIBS) {
  const R = runs[lib];
  results[lib] = {
    name: NAME[lib], ...sizes[lib],
    startTo1000Painted: med(R.map(r => r.startTo1000Painted)), startToModule: med(R.map(r => r.startToModule)),
    draw1000Sync: med(R.map(r => r.draw1000Sync)), draw1000Painted: med(R.map(r => r.draw1000Painted)),
    otherChartsPainted: med(R.map(r => r.otherChartsPainted)),
    freshWarm: med(R.map(r => med(r.fresh))),
    // median of the 20 redraws within each load, then the median over loads
    redrawSync: med(R.map(r => med(r.redrawSync))), redrawPaint: med(R.map(r => med(r.redrawPaint))),
    raw: R.map(r => ({ startTo1000Painted: r.startTo1000Painted, draw1000Painted: r.draw1000Painted, redrawPaintMedian: med(r.redrawPaint), freshMedian: med(r.fresh) })),
    probe: R[0].probe, ...extra[lib],
  };
}
writeFileSync('results.json', JSON.stringify({ when: new Date().toISOString(), rounds: ROUNDS, chromium: chromiumVersion, results }, null, 2));
const rows = LIBS.map(l => { const r = results[l]; return `| ${r.name} | ${Object.entries(r.versions).map(([p, v]) => `${p} ${v}`).join(', ')} | ${f1(r.min / 1024)} | ${f1(r.gzip / 1024)} | ${f1(r.startToModule)} | ${f1(r.startTo1000Painted)} | ${f1(r.draw1000Sync)} / ${f1(r.draw1000Painted)} | ${f1(r.redrawSync)} / ${f1(r.redrawPaint)} | ${f1(r.freshWarm)} | ${f1(r.otherChartsPainted)} |`; });
const md = [`Run ${new Date().toISOString()}, ${ROUNDS} loads per library (interleaved), 20 redraws per load; times in ms, medians; relative only (shared 2-core machine, nice -n 10).`, '',
  '| library | versions | min KB | gzip -9 KB | start→module ran | start→1,000 pts painted | draw 1,000 (sync / painted) | redraw (sync / painted) | new 1,000-pt chart, warm | 3 other charts painted |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |', ...rows, '',
  ...LIBS.map(l => `- ${NAME[l]}: biggest inputs ${results[l].topInputs.join(', ')}; probe ${JSON.stringify(results[l].probe)}; outside requests ${results[l].outside.length}; page errors ${results[l].errors.length}`)].join('\n');
writeFileSync('results.md', md + '\n');
console.log(md);
