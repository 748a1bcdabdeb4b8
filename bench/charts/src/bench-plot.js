import * as lib from './plot.js';
import { plot as probe } from './probes.js';
import { run } from './harness.js';
run(lib, probe).catch(e => { window.__result = { error: String(e && e.stack || e) }; });
