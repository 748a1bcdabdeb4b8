// Vega 5 only: the same Vega-Lite specs compiled to Vega at build time (build/vg-specs.json), SVG renderer.
import specs from '../build/vg-specs.json';
import { view, update } from './vega-common.js';

export const drawMonths = (el, d) => view(el, specs.months, 'months', d);
export const drawHist = (el, d) => view(el, specs.hist, 'hist', d);
export const drawAnchors = (el, d) => view(el, specs.anchors, 'anchors', d);
export const draw1000 = (el, d) => view(el, specs.pts, 'pts', d);
export const redraw1000 = (v, d) => update(v, 'pts', d);
