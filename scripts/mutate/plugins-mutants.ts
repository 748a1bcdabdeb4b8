/**
 * Mutants of what stands between a call and the store: the charge book
 * (`accounts/charge-book.ts`), admission (`plugins/guard.ts`, `accounts/rate-limiter.ts`) and the
 * workers' shared accounts (`server/worker-accounts.ts`).
 *
 * @internal
 * @module
 */
import type { Mutant } from './mutant.js';

/** The limiter's rules worked out by hand on a stepped clock (fast: no server). */
const LIMITER = ['test/unit/server/accounts/rate-limiter.test.ts'];
/** The guard's answers: 401, 429 with Retry-After, the log line. */
const GUARD = ['test/server/http/guard.test.ts'];
/** Clients that leave while their admission waits, as a worker's wait for its primary (real HTTP, real accounts). */
const ADMISSION = ['test/server/http/admission-wait.test.ts'];
const ABANDON = ['test/server/http/abandon.test.ts'];
/** The workers' accounts over a real IPC channel to a forked process, on a real SQLite store. */
const WORKER_ACCOUNTS = ['test/server/worker-accounts.test.ts'];

const LIMITER_FILE = 'src/server/accounts/rate-limiter.ts';
const GUARD_FILE = 'src/server/plugins/guard.ts';
const WORKER_ACCOUNTS_FILE = 'src/server/worker-accounts.ts';

/** Admission: the per-key rate and concurrency limits, and the guard that applies them. */
const LIMITS_MUTANTS: readonly Mutant[] = [
  {
    name: 'rate-window-keeps-its-edge',
    area: 'limits',
    file: LIMITER_FILE,
    find: 'state.starts[0]! <= now - 1000',
    replace: 'state.starts[0]! < now - 1000',
    tests: LIMITER,
    project: 'unit',
  },
  {
    name: 'rate-window-two-seconds',
    area: 'limits',
    file: LIMITER_FILE,
    find: '<= now - 1000) state.starts.shift();',
    replace: '<= now - 2000) state.starts.shift();',
    tests: LIMITER,
    project: 'unit',
  },
  {
    name: 'rate-one-over',
    area: 'limits',
    file: LIMITER_FILE,
    find: 'if (state.starts.length >= limits.perSecond) {',
    replace: 'if (state.starts.length > limits.perSecond) {',
    tests: LIMITER,
    project: 'unit',
  },
  {
    name: 'concurrency-one-over',
    area: 'limits',
    file: LIMITER_FILE,
    find: 'if (state.active >= limits.concurrent)',
    replace: 'if (state.active > limits.concurrent)',
    tests: LIMITER,
    project: 'unit',
  },
  {
    name: 'concurrency-refusal-spends-rate',
    area: 'limits',
    file: LIMITER_FILE,
    find: "    if (state.active >= limits.concurrent) return { ok: false, reason: 'concurrency', retryAfterSeconds: 1 };\n    state.starts.push(now);\n",
    replace: "    state.starts.push(now);\n    if (state.active >= limits.concurrent) return { ok: false, reason: 'concurrency', retryAfterSeconds: 1 };\n",
    tests: LIMITER,
    project: 'unit',
  },
  {
    name: 'concurrency-retry-after-zero',
    area: 'limits',
    file: LIMITER_FILE,
    find: "reason: 'concurrency', retryAfterSeconds: 1 }",
    replace: "reason: 'concurrency', retryAfterSeconds: 0 }",
    tests: LIMITER,
    project: 'unit',
  },
  {
    name: 'rate-retry-after-in-ms',
    area: 'limits',
    file: LIMITER_FILE,
    find: 'Math.ceil(wait / 1000)',
    replace: 'Math.ceil(wait)',
    tests: LIMITER,
    project: 'unit',
  },
  {
    name: 'release-twice-frees-two-slots',
    area: 'limits',
    file: LIMITER_FILE,
    find: '        if (released) return;\n',
    replace: '',
    tests: LIMITER,
    project: 'unit',
  },
  {
    name: 'limits-shared-across-keys',
    area: 'limits',
    file: LIMITER_FILE,
    find: 'let state = this.#keys.get(keyId);',
    replace: 'let state = this.#keys.get(keyId) ?? [...this.#keys.values()][0];',
    tests: LIMITER,
    project: 'unit',
  },
  {
    name: 'slot-kept-after-answer',
    area: 'limits',
    file: GUARD_FILE,
    find: "    fastify.addHook('onResponse', async (request) => request.admittedCall?.release());\n",
    replace: '',
    tests: ADMISSION,
    project: 'server-embedded',
  },
  {
    name: 'limits-of-another-key',
    area: 'limits',
    file: GUARD_FILE,
    find: 'accounts.admit(keyId, limitsOf(keyId))',
    replace: "accounts.admit(keyId, limitsOf(''))",
    tests: ADMISSION,
    project: 'server-embedded',
  },
  {
    name: '429-without-retry-after',
    area: 'limits',
    file: GUARD_FILE,
    find: "          'Retry-After': String(admission.retryAfterSeconds),\n",
    replace: '',
    tests: GUARD,
    project: 'server-embedded',
  },
  {
    name: 'abandoned-logged-as-nothing-running',
    area: 'limits',
    file: GUARD_FILE,
    find: 'cancelled: working,',
    replace: 'cancelled: false,',
    tests: ABANDON,
    project: 'server-embedded',
  },
  // A client that leaves while its admission is decided (with `serve --workers`, a round trip to
  // the primary): issue 48 item 3.
  {
    name: 'left-during-admission-slot-kept',
    area: 'limits',
    file: GUARD_FILE,
    find: '        if (admission.ok) admission.release();\n',
    replace: '',
    tests: ADMISSION,
    project: 'server-embedded',
  },
  {
    name: 'left-during-admission-not-logged',
    area: 'limits',
    file: GUARD_FILE,
    find: '        onAbandoned(request, { keyId, units: 0, cancelled: false, ms: reply.elapsedTime });\n',
    replace: '',
    tests: ADMISSION,
    project: 'server-embedded',
  },
  {
    name: 'left-during-admission-answered',
    area: 'limits',
    file: GUARD_FILE,
    find: '        reply.hijack();\n        return;\n',
    replace: '',
    tests: ADMISSION,
    project: 'server-embedded',
  },
  {
    name: 'left-during-admission-not-seen',
    area: 'limits',
    file: GUARD_FILE,
    find: '      else if (deciding.has(request)) leftWhileDeciding.add(request);\n',
    replace: '',
    tests: ADMISSION,
    project: 'server-embedded',
  },
];

/** The accounts the workers of `serve --workers` share through their primary, over IPC. */
const WORKERS_MUTANTS: readonly Mutant[] = [
  {
    name: 'free-never-sent',
    area: 'workers',
    file: WORKER_ACCOUNTS_FILE,
    find: "release: () => void (freed || ((freed = true), tell('free', [id])))",
    replace: "release: () => void (freed && ((freed = true), tell('free', [id])))",
    tests: WORKER_ACCOUNTS,
    project: 'all',
  },
  {
    name: 'free-of-the-free-request-id',
    area: 'workers',
    file: WORKER_ACCOUNTS_FILE,
    find: '        admissions.get(a)?.();\n',
    replace: '        admissions.get(id)?.();\n',
    tests: WORKER_ACCOUNTS,
    project: 'all',
  },
  {
    name: 'admission-filed-under-next-id',
    area: 'workers',
    file: WORKER_ACCOUNTS_FILE,
    find: 'else admissions.set(id, admission.release);',
    replace: 'else admissions.set(id + 1, admission.release);',
    tests: WORKER_ACCOUNTS,
    project: 'all',
  },
  {
    name: 'dead-worker-slots-kept',
    area: 'workers',
    file: WORKER_ACCOUNTS_FILE,
    find: '    for (const release of admissions.values()) release();\n',
    replace: '',
    tests: WORKER_ACCOUNTS,
    project: 'all',
  },
  {
    name: 'dead-worker-holds-kept',
    area: 'workers',
    file: WORKER_ACCOUNTS_FILE,
    find: '    for (const hold of holds.drain()) accounts.release(hold);\n',
    replace: '',
    tests: WORKER_ACCOUNTS,
    project: 'all',
  },
  {
    name: 'held-by-ignores-kind',
    area: 'workers',
    file: WORKER_ACCOUNTS_FILE,
    find: "`${hold.charged ? 'c' : 'h'}${hold.units}:${hold.keyId}`",
    replace: '`${hold.units}:${hold.keyId}`',
    tests: WORKER_ACCOUNTS,
    project: 'all',
  },
  {
    name: 'release-sent-as-commit',
    area: 'workers',
    file: WORKER_ACCOUNTS_FILE,
    find: "release: (hold) => void tell('release', [hold]),",
    replace: "release: (hold) => void tell('commit', [hold]),",
    tests: WORKER_ACCOUNTS,
    project: 'all',
  },
  {
    name: 'primary-commits-a-release',
    area: 'workers',
    file: WORKER_ACCOUNTS_FILE,
    find: 'if (holds.take(a)) accounts.release(a);',
    replace: 'if (holds.take(a)) accounts.commit(a);',
    tests: WORKER_ACCOUNTS,
    project: 'all',
  },
  {
    name: 'charged-hold-not-tracked',
    area: 'workers',
    file: WORKER_ACCOUNTS_FILE,
    find: '            holds.add(charged.hold);\n',
    replace: '',
    tests: WORKER_ACCOUNTS,
    project: 'all',
  },
  {
    name: 'flush-drops-last-requests',
    area: 'workers',
    file: WORKER_ACCOUNTS_FILE,
    find: '      else send(batch, resolve);',
    replace: '      else resolve();',
    tests: WORKER_ACCOUNTS,
    project: 'all',
  },
  {
    name: 'store-failure-as-500',
    area: 'workers',
    file: WORKER_ACCOUNTS_FILE,
    find: 'failure.retryAfterSeconds === undefined',
    replace: 'true',
    tests: WORKER_ACCOUNTS,
    project: 'all',
  },
  {
    name: 'balance-of-no-key',
    area: 'workers',
    file: WORKER_ACCOUNTS_FILE,
    find: 'return answer(id, accounts.balance(a));',
    replace: 'return answer(id, accounts.balance(b));',
    tests: WORKER_ACCOUNTS,
    project: 'all',
  },
  {
    name: 'failure-reply-dropped',
    area: 'workers',
    file: WORKER_ACCOUNTS_FILE,
    find: '      (error: unknown) =>\n        answers.push(',
    replace: '      (error: unknown) =>\n        void 0 && answers.push(',
    tests: WORKER_ACCOUNTS,
    project: 'all',
  },
];

export const PLUGINS_MUTANTS: readonly Mutant[] = [...LIMITS_MUTANTS, ...WORKERS_MUTANTS];
