// Shared by the Vega-Lite (compile in the page) and Vega (specs compiled at build time) entries.
import { View, parse } from 'vega';

export async function view(el, vgSpec, name, values) {
  const v = new View(parse(vgSpec), { renderer: 'svg', container: el, hover: false });
  v.data(name, values);
  await v.runAsync();
  return v;
}
export async function update(v, name, values) { v.data(name, values); await v.runAsync(); return v; }
