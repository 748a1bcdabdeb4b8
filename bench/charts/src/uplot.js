// uPlot: canvas; the legend is an HTML table in the DOM.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

const W = 800, H = 300;
const bars = (o) => uPlot.paths.bars(o);

export function drawMonths(el, months) {
  const xs = months.map((_, i) => i);
  const labels = months.map(m => m.month);
  const data = [xs, months.map(m => m.backlinks), months.map(m => m.refdomains),
    months.map(m => m.newLinks), months.map(m => -m.lostLinks)];
  return new uPlot({
    title: 'Backlinks and referring domains per month', width: W, height: H,
    scales: { x: { time: false, range: [-0.5, xs.length - 0.5] }, y: {}, n: {} },
    axes: [
      { values: (u, splits) => splits.map(i => labels[i] ?? ''), space: 40 },
      { scale: 'y', label: 'backlinks / domains' },
      { scale: 'n', side: 1, label: 'new / lost', grid: { show: false } },
    ],
    series: [{ label: 'month', value: (u, i) => labels[i] ?? '' },
      { label: 'backlinks', stroke: '#4269d0', width: 2, scale: 'y' },
      { label: 'referring domains', stroke: '#efb118', width: 2, scale: 'y' },
      { label: 'new', fill: '#3ca951aa', stroke: '#3ca951', scale: 'n', paths: bars({ size: [0.6] }) },
      { label: 'lost', fill: '#ff725caa', stroke: '#ff725c', scale: 'n', paths: bars({ size: [0.6] }) }],
  }, data, el);
}

export function drawHist(el, hist) {
  return new uPlot({
    title: 'Authority score profile', width: W, height: H,
    scales: { x: { time: false, range: [-0.5, 100.5] } },
    axes: [{ label: 'score' }, { label: 'backlinks' }],
    series: [{ label: 'score' }, { label: 'backlinks', fill: '#4269d0', stroke: '#4269d0', paths: bars({ size: [1], gap: 1 }) }],
  }, [hist.map(h => h.score), hist.map(h => h.count)], el);
}

export function drawAnchors(el, anchors) {
  const labels = anchors.map(a => a.anchor);
  return new uPlot({
    title: 'Top anchors', width: W, height: 420,
    scales: { x: { time: false, ori: 1, dir: -1, range: [-0.5, labels.length - 0.5] }, y: { ori: 0, dir: 1, range: (u, min, max) => [0, max * 1.05] } },
    axes: [
      { side: 3, size: 130, space: 10, incrs: [1], values: (u, splits) => splits.map(i => labels[i] ?? ''), grid: { show: false } },
      { side: 2 },
    ],
    series: [{ label: 'anchor', value: (u, i) => labels[i] ?? '' }, { label: 'backlinks', fill: '#4269d0', paths: bars({ size: [0.7] }) }],
  }, [anchors.map((_, i) => i), anchors.map(a => a.count)], el);
}

function pts2data(points) {
  const xs = new Float64Array(points.length), ys = new Float64Array(points.length);
  for (let i = 0; i < points.length; i++) { xs[i] = points[i].x; ys[i] = points[i].y; }
  return [xs, ys];
}

export function draw1000(el, points) {
  return new uPlot({
    title: '1,000 points', width: W, height: H,
    scales: { x: { time: false } },
    series: [{ label: 'x' }, { label: 'y', stroke: '#4269d0', width: 1 }],
  }, pts2data(points), el);
}

export function redraw1000(u, points) { u.setData(pts2data(points)); return u; }
