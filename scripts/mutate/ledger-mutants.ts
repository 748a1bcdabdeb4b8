/**
 * Mutants of the charge book (`src/server/accounts/charge-book.ts`): holds and their boundary,
 * charges, releases, commits, balance reads made while a write runs, the batch of a group commit
 * (every key, one unit), a failed statement in a batch, the retry, the next write, and the close's
 * three tries. Each is caught by `test/server/accounts/charge-book.test.ts` (a real SQLite store's ledger,
 * balances worked out by hand); the four older ledger mutants stay in `mutants.ts`.
 *
 * @internal
 * @module
 */
import type { Mutant } from './mutant.js';

const FILE = 'src/server/accounts/charge-book.ts';
const LEDGER = ['test/server/accounts/charge-book.test.ts'];
/** The charge book's test opens its own SQLite store: it runs once, in `all`. */
const PROJECT = 'all';

const mutant = (name: string, find: string, replace: string): Mutant => ({ name, area: 'ledger', file: FILE, find, replace, tests: LEDGER, project: PROJECT });

export const LEDGER_MUTANTS: readonly Mutant[] = [
  // ---- holds
  mutant('ledger-hold-exact-balance-refused', 'if (available < units) return { ok: false, remaining: available };', 'if (available <= units) return { ok: false, remaining: available };'),
  mutant(
    'ledger-refusal-not-reread',
    'if (state.stored === undefined || this.#available(state) < units) await this.#read(keyId, state);',
    'if (state.stored === undefined) await this.#read(keyId, state);',
  ),
  // ---- charges, releases, commits
  mutant('ledger-charge-keeps-hold', '    state.held -= hold.units;\n    state.charged += units;\n', '    state.charged += units;\n'),
  mutant('ledger-charge-over-hold-allowed', 'if (hold.charged || units > hold.units) throw', 'if (hold.charged || units > hold.units + 1) throw'),
  mutant('ledger-charge-twice-allowed', 'if (hold.charged || units > hold.units) throw', 'if (units > hold.units) throw'),
  mutant('ledger-release-of-charge-skipped', 'if (hold.charged) state.charged -= hold.units;', 'if (hold.charged) state.charged -= 0;'),
  mutant('ledger-release-of-hold-skipped', 'else state.held -= hold.units;', 'else state.held -= 0;'),
  mutant("ledger-commit-of-hold-allowed", "if (!hold.charged) throw new RangeError('Only a charge is committed.');", ''),
  // An answer's charge written before the answer was (at charge, not at commit).
  mutant(
    'ledger-charge-written-before-commit',
    '    state.charged += units;\n    return {',
    '    state.charged += units;\n    state.committed += units;\n    this.#schedule();\n    return {',
  ),
  // ---- balances
  mutant('ledger-balance-ignores-unwritten', '    return (state.stored ?? 0) - state.charged;\n', '    return state.stored ?? 0;\n'),
  mutant('ledger-read-during-running-write-kept', 'if (between && writes === this.#writes) {', 'if (writes === this.#writes) {'),
  mutant('ledger-read-across-writes-kept', 'if (between && writes === this.#writes) {', 'if (between) {'),
  mutant('ledger-read-not-retried', 'for (let attempt = 0; attempt < 3; attempt++) {\n      await this.#writing;', 'for (let attempt = 0; attempt < 1; attempt++) {\n      await this.#writing;'),
  mutant('ledger-read-replaces-reported', 'if (attempt === 2) state.stored ??= stored;', 'if (attempt === 2) state.stored = stored;'),
  mutant('ledger-read-without-waiting', '      await this.#writing;\n      const writes = this.#writes;', '      const writes = this.#writes;'),
  // ---- writes: the batch, a failed statement, the retry, the next write, the close
  // (The batch's own `committed > 0` as `> 1` is not listed: with a one-unit charge alone, every write
  // would find it pending and carry nothing, starting the next at once, a loop with no end.)
  mutant('ledger-one-unit-not-pending', 'for (const state of this.#keys.values()) if (state.committed > 0) return true;', 'for (const state of this.#keys.values()) if (state.committed > 1) return true;'),
  mutant('ledger-batch-first-key-only', 'for (const [keyId, state, units] of batch) {', 'for (const [keyId, state, units] of batch.slice(0, 1)) {'),
  mutant('ledger-batch-stops-at-failure', '          failed = true;\n', '          failed = true;\n          break;\n'),
  mutant('ledger-written-balance-not-kept', '      state.stored = result.remaining;\n      state.charged -= units;\n      return;', '      state.charged -= units;\n      return;'),
  mutant('ledger-written-charge-kept', '      state.stored = result.remaining;\n      state.charged -= units;\n      return;', '      state.stored = result.remaining;\n      return;'),
  mutant('ledger-retry-not-scheduled', 'if (failed) this.#retry = setTimeout(', 'if (false) this.#retry = setTimeout('),
  mutant('ledger-next-write-not-started', '      else if (this.#pending()) void this.#write();\n', ''),
  mutant('ledger-close-tries-twice', 'for (let attempt = 0; attempt < 3; ) {', 'for (let attempt = 0; attempt < 2; ) {'),
  mutant(
    'ledger-flush-not-waiting-for-next-write',
    '      if (this.#writing) {\n        await this.#writing;\n        continue;\n      }\n',
    '      await this.#writing;\n',
  ),
  mutant('ledger-lost-units-miscounted', 'this.#options.onLost?.(keyId, units - (last.ok ? left : 0));', 'this.#options.onLost?.(keyId, units);'),
];
