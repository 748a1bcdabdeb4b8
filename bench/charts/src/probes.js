// Test-side read-back of what each library drew (not part of the measured bundles' size).
// Each returns { histBars, anchorBars, anchorLabels, x1000: [min, max], monthsLabels } read the way a test would.
const txt = (nodes) => [...nodes].map(n => n.textContent.trim()).filter(Boolean);

export const uplot = (h) => ({
  how: 'uPlot instance: u.data, u.scales, u.axes[i]._values (internal)',
  histBars: h.hist.data[1].filter(v => v != null).length,
  anchorBars: h.anchors.data[1].length,
  anchorLabels: h.anchors.axes[0]._values,
  x1000: [h.p1000.scales.x.min, h.p1000.scales.x.max],
  legendInDom: txt(h.months.root.querySelectorAll('.u-legend th')),
});

export const chartjs = (h) => ({
  how: 'Chart instance: getDatasetMeta(i).data, scales[id].min/max, scales[id].ticks',
  histBars: h.hist.getDatasetMeta(0).data.length,
  anchorBars: h.anchors.getDatasetMeta(0).data.length,
  anchorLabels: h.anchors.scales.y.ticks.map(t => h.anchors.scales.y.getLabelForValue(t.value)),
  x1000: [h.p1000.scales.x.min, h.p1000.scales.x.max],
  monthsXTicks: h.months.scales.x.ticks.length,
});

export const plot = (h, els) => ({
  how: 'SVG DOM (g[aria-label=...]) and figure.scale(name)',
  histBars: els.hist.querySelectorAll('g[aria-label="rect"] rect').length,
  anchorBars: els.anchors.querySelectorAll('g[aria-label="bar"] rect').length,
  anchorLabels: txt(els.anchors.querySelectorAll('g[aria-label="y-axis tick label"] text')),
  x1000: h.p1000.svg.scale('x').domain,
  monthBars: els.months.querySelectorAll('g[aria-label="bar"] rect').length,
});

const vegaProbe = (h, els) => ({
  how: 'SVG DOM (g.mark-rect path, g.role-axis-label text, axis aria-label) and view.scale(name).domain()',
  histBars: els.hist.querySelectorAll('g.mark-rect path').length,
  anchorBars: els.anchors.querySelectorAll('g.mark-rect path').length,
  anchorLabels: txt(els.anchors.querySelectorAll('g[aria-label^="Y-axis"] g.role-axis-label text')),
  x1000: h.p1000.scale('x').domain(),
  x1000AxisAria: els.p1000.querySelector('g[aria-label^="X-axis"]')?.getAttribute('aria-label'),
});
export const vegalite = vegaProbe;
export const vega = vegaProbe;
