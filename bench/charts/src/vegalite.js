// Vega-Lite 5 + Vega 5: SVG renderer, specs compiled to Vega in the page.
import { compile } from 'vega-lite';
import * as specs from './vl-specs.js';
import { view, update } from './vega-common.js';

const vg = (s) => compile(s).spec;
export const drawMonths = (el, d) => view(el, vg(specs.months), 'months', d);
export const drawHist = (el, d) => view(el, vg(specs.hist), 'hist', d);
export const drawAnchors = (el, d) => view(el, vg(specs.anchors), 'anchors', d);
export const draw1000 = (el, d) => view(el, vg(specs.pts), 'pts', d);
export const redraw1000 = (v, d) => update(v, 'pts', d);
