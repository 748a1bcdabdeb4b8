/**
 * What one round trip between a cluster primary and its worker costs on this machine (the price
 * `serve --workers N` pays three times per call): 5,000 requests shaped like the workers' accounts
 * requests, each answered before the next, over node:cluster's IPC channel, with JSON and with V8
 * serialization.
 *
 * Run: `npx tsx bench/server/ipc-round-trip.ts`
 */
import cluster from 'node:cluster';

const ROUND_TRIPS = 5_000;

if (cluster.isPrimary) {
  for (const serialization of ['json', 'advanced'] as const) {
    cluster.setupPrimary({ serialization });
    const worker = cluster.fork();
    worker.on('message', (message: { id?: number; done?: number }) => {
      if (message.done !== undefined) {
        console.log(`${serialization}: ${(message.done / 1000).toFixed(0)} µs per round trip`);
        worker.kill();
        return;
      }
      worker.send({ bq: 'accounts', answers: [[message.id, true, { ok: true, hold: { keyId: 'k', units: 45, charged: false } }]] });
    });
    await new Promise((resolve) => worker.once('exit', resolve));
  }
} else {
  let sent = 0;
  const started = process.hrtime.bigint();
  const next = () => {
    if (sent === ROUND_TRIPS) return process.send!({ done: Number(process.hrtime.bigint() - started) / ROUND_TRIPS });
    process.send!({ bq: 'accounts', id: sent++, requests: [[sent, 'hold', ['k', 45]]] });
  };
  process.on('message', next);
  next();
}
