/** A server on a small generated sample (deterministic: 4,000 links, seed 7), on this run's store. */
import { createServer } from '../../../src/server/server.js';
import { loadServerDeps } from '../../../src/server/deps.js';
import { seedSample } from '../../../src/server/sample/generate.js';
import { KEYS } from './fixture.js';
import { emptyStore } from './helpers.js';

export const SAMPLE_NOW = new Date('2026-06-15T00:00:00Z');

export async function sampleServer(links = 4_000, seed = 7) {
  const store = await emptyStore();
  const { tldts } = await loadServerDeps();
  const stats = await seedSample(store, tldts, { links, seed, now: SAMPLE_NOW });
  const app = await createServer({ store, keys: KEYS, now: () => SAMPLE_NOW, rateLimits: { perSecond: 1e9, concurrent: 1e9 } });
  return { app, store, stats };
}
