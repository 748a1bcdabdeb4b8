/**
 * Where a server process's main thread spends its time, from a V8 `.cpuprofile` (written by
 * `bench/server/mixed-probe.ts --cpu-prof DIR`): each sample's own function (self time) is put in
 * one of a few kinds by its source (Node's HTTP and sockets, Fastify and its libraries, this
 * package's request path, its stores and their threads, promises and async context, ...), so the
 * kinds add up to the whole profile. With `--calls N` each kind is also given per call.
 *
 * Run: `npx tsx bench/server/profile-summary.ts FILE.cpuprofile [--calls N]` (the main thread's file
 * is the largest of the run).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string };
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** The kinds, first match wins; a frame is matched by `url` and, for V8's own frames, by name. */
const KINDS: readonly { readonly kind: string; readonly url?: RegExp; readonly name?: RegExp }[] = [
  { kind: 'idle (waiting for work)', name: /^\(idle\)$/ },
  { kind: 'garbage collection', name: /^\(garbage collector\)$/ },
  { kind: 'startup: loading modules', url: /node:internal\/modules|\/tsx\/|esm\/|node:internal\/deps\/cjs/, name: /^makeAsyncRequest$/ },
  { kind: 'Node: HTTP, sockets, streams', url: /node:(_http|net|internal\/stream|internal\/streams|stream|events|internal\/http|internal\/net|internal\/url)/, name: /^(writev|writeUtf8String|writeBuffer|writeLatin1String|shutdown|close|readStart|onStreamRead|execute|parserOnHeadersComplete)$/ },
  // fast-json-stringify's serializers are compiled with `new Function`: no url, named anonymousN.
  { kind: 'Fastify and its libraries (routing, hooks, reply, JSON serialization, logging)', name: /^anonymous\d*$/, url: /node_modules\/(fastify|find-my-way|fast-json-stringify|fast-querystring|fast-uri|avvio|pino|sonic-boom|@fastify|light-my-request|toad-cache|rfdc|abstract-logging|safe-stable-stringify|process-warning|secure-json-parse|ret|json-schema-ref-resolver|ajv)/ },
  { kind: 'this package: stores, their threads and DuckDB', url: /src\/server\/store\/|node_modules\/@duckdb|node:internal\/worker/, name: /^(postMessage|receiveMessageOnPort|drainMessagePort)$/ },
  { kind: 'this package: guard, validation, answers, errors', url: /\/src\// },
  { kind: 'promises, async context, abort signals, timers', url: /node:(internal\/async_hooks|async_hooks|internal\/abort_controller|internal\/event_target|internal\/process\/task_queues|internal\/timers|timers)/, name: /^(runMicrotasks|set natives)$/ },
  { kind: 'crypto (key hashes, request ids)', url: /node:internal\/crypto|node:crypto/ },
];
const OTHER = 'other (V8 and Node internals not named above)';

/** Self time per kind, in microseconds. */
export function summarize(profile: Profile): Map<string, number> {
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const totals = new Map<string, number>([...KINDS.map(({ kind }) => [kind, 0] as const), [OTHER, 0]]);
  for (const node of profile.nodes) {
    const time = self.get(node.id);
    if (!time) continue;
    const { url, functionName } = node.callFrame;
    const kind = KINDS.find((k) => (k.url !== undefined && url !== '' && k.url.test(url)) || (k.name !== undefined && url === '' && k.name.test(functionName)))?.kind ?? OTHER;
    totals.set(kind, totals.get(kind)! + time);
  }
  return totals;
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { calls: { type: 'string' } } });
if (positionals.length !== 1) throw new Error('Usage: npx tsx bench/server/profile-summary.ts FILE.cpuprofile [--calls N]');
const totals = summarize(JSON.parse(readFileSync(positionals[0]!, 'utf8')) as Profile);
const all = [...totals.values()].reduce((a, b) => a + b, 0);
const calls = values.calls === undefined ? undefined : Number(values.calls);
console.log(`| kind | ms | share${calls ? ' | µs per call' : ''} |`);
console.log(`| --- | --- | --- |${calls ? ' --- |' : ''}`);
for (const [kind, time] of [...totals].sort((a, b) => b[1] - a[1])) {
  console.log(`| ${kind} | ${Math.round(time / 1000).toLocaleString('en-US')} | ${((100 * time) / all).toFixed(1)}% |${calls ? ` ${Math.round(time / calls)} |` : ''}`);
}
console.log(`| all | ${Math.round(all / 1000).toLocaleString('en-US')} | 100% |${calls ? ` ${Math.round(all / calls)} |` : ''}`);
