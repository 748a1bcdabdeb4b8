// Observable Plot: SVG (d3 pieces bundled); no update API, so a redraw replaces the SVG.
import * as Plot from '@observablehq/plot';

const W = 800;
function put(el, node) { el.replaceChildren(node); return node; }

export function drawMonths(el, months) {
  const rows = months.flatMap(m => [{ month: m.month, series: 'backlinks', value: m.backlinks },
    { month: m.month, series: 'referring domains', value: m.refdomains }]);
  const nl = months.flatMap(m => [{ month: m.month, kind: 'new', n: m.newLinks }, { month: m.month, kind: 'lost', n: -m.lostLinks }]);
  const domain = months.map(m => m.month);
  const top = Plot.plot({
    title: 'Backlinks and referring domains per month', width: W, height: 200,
    ariaLabel: 'Backlinks and referring domains per month', marginLeft: 60,
    x: { type: 'point', domain, label: null, tickFormat: () => '' }, y: { grid: true, label: 'backlinks / domains' },
    color: { legend: true },
    marks: [Plot.lineY(rows, { x: 'month', y: 'value', stroke: 'series', tip: true })],
  });
  const bottom = Plot.plot({
    width: W, height: 140, ariaLabel: 'New and lost links per month', marginLeft: 60, marginBottom: 40,
    x: { type: 'band', domain, label: null, tickRotate: -45 }, y: { grid: true, label: 'new / lost' },
    color: { domain: ['new', 'lost'], range: ['#3ca951', '#ff725c'] },
    marks: [Plot.barY(nl, { x: 'month', y: 'n', fill: 'kind', title: d => `${d.month} ${d.kind}: ${Math.abs(d.n)}` }), Plot.ruleY([0])],
  });
  const div = document.createElement('div'); div.append(top, bottom);
  return put(el, div);
}

export function drawHist(el, hist) {
  return put(el, Plot.plot({
    title: 'Authority score profile', width: W, height: 300, ariaLabel: 'Authority score profile',
    x: { label: 'score', domain: [0, 101] }, y: { grid: true, label: 'backlinks' },
    marks: [Plot.rectY(hist, { x1: 'score', x2: d => d.score + 1, y: 'count', insetLeft: 0.5, fill: '#4269d0', title: d => `score ${d.score}: ${d.count}` }), Plot.ruleY([0])],
  }));
}

export function drawAnchors(el, anchors) {
  return put(el, Plot.plot({
    title: 'Top anchors', width: W, height: 420, marginLeft: 120, ariaLabel: 'Top anchors',
    x: { grid: true, label: 'backlinks' }, y: { label: null },
    marks: [Plot.barX(anchors, { x: 'count', y: 'anchor', sort: { y: '-x' }, fill: '#4269d0', title: d => `${d.anchor}: ${d.count}` }), Plot.ruleX([0])],
  }));
}

function plot1000(points) {
  return Plot.plot({ title: '1,000 points', width: W, height: 300, ariaLabel: '1,000 points', y: { grid: true },
    marks: [Plot.lineY(points, { x: 'x', y: 'y', stroke: '#4269d0' })] });
}
export function draw1000(el, points) { return { el, svg: put(el, plot1000(points)) }; }
export function redraw1000(h, points) { h.svg = put(h.el, plot1000(points)); return h; }
