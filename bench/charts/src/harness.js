// Measures one page load: cold draw of the 1,000-point chart, then the other charts, then 20 redraws.
import * as data from './data.js';

const nextPaint = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));

export async function run(lib, probe) {
  const tModule = performance.now();           // library code has been parsed and evaluated
  const els = Object.fromEntries(['p1000', 'months', 'hist', 'anchors'].map(id => [id, document.getElementById(id)]));
  const pts = data.points(3);
  const h = {};
  const t1 = performance.now();
  h.p1000 = await lib.draw1000(els.p1000, pts);
  els.p1000.getBoundingClientRect();           // force style + layout (SVG)
  const t2 = performance.now();
  await nextPaint();
  const t3 = performance.now();
  h.months = await lib.drawMonths(els.months, data.months());
  h.hist = await lib.drawHist(els.hist, data.hist());
  h.anchors = await lib.drawAnchors(els.anchors, data.anchors());
  document.body.getBoundingClientRect();
  const t4 = performance.now();
  await nextPaint();
  const t5 = performance.now();
  const redrawSync = [], redrawPaint = [];
  for (let i = 0; i < 20; i++) {
    const p = data.points(100 + i);
    const s = performance.now();
    h.p1000 = await lib.redraw1000(h.p1000, p);
    els.p1000.getBoundingClientRect();
    const m = performance.now();
    await nextPaint();
    redrawSync.push(m - s); redrawPaint.push(performance.now() - s);
  }
  // a fresh 1,000-point chart once the library is warm (new instance in a new box), median of 5
  const fresh = [];
  for (let i = 0; i < 5; i++) {
    const box = document.createElement('div');
    box.style.cssText = els.p1000.style.cssText; box.className = 'c';
    document.body.appendChild(box);
    const s = performance.now();
    await lib.draw1000(box, data.points(200 + i));
    box.getBoundingClientRect();
    await nextPaint();
    fresh.push(performance.now() - s);
    box.style.display = 'none';
  }
  let probed;
  try { probed = probe(h, els); } catch (e) { probed = { error: String(e) }; }
  window.__result = {
    t0: window.__t0, tModule, startToModule: tModule - window.__t0,
    startTo1000Painted: t3 - window.__t0, draw1000Sync: t2 - t1, draw1000Painted: t3 - t1,
    otherChartsSync: t4 - t3, otherChartsPainted: t5 - t3,
    redrawSync, redrawPaint, fresh, probe: probed,
  };
  window.__h = h;
}
