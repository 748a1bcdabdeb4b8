/**
 * The accounts of `serve --workers N` over a real IPC channel (`src/server/worker-accounts.ts`):
 * a forked process (test/server/worker-accounts-child.ts) uses them through `remoteAccounts` while
 * this process keeps them (`shareAccounts` over `localAccounts` on a real SQLite store). What the
 * stored balance must be at each step is worked out by hand from the units below (the key starts
 * at 100).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { shareAccounts } from '../../src/server/worker-accounts.js';
import { localAccounts } from '../../src/server/accounts/accounts.js';
import { StoreUnavailableError } from '../../src/server/store/connection.js';
import { openSqliteStore } from '../../src/server/store/engines/sqlite/sqlite-store.js';
import type { Store } from '../../src/server/store/store.js';

const CHILD = new URL('./worker-accounts-child.ts', import.meta.url).pathname;
const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function primary() {
  const store: Store = await openSqliteStore({ file: ':memory:' });
  cleanup.push(() => store.close());
  await store.ledger.upsertKeys([{ id: 'k', key: 'worker-accounts-test-key', units: 100 }]);
  // A key whose balance the store cannot read, as a database that is down answers.
  const accounts = localAccounts(
    { charge: (keyId, units) => store.ledger.charge(keyId, units), balance: (keyId) => (keyId === 'down' ? Promise.reject(new StoreUnavailableError('down', { retryAfterSeconds: 2 })) : store.ledger.balance(keyId)) },
    Date.now,
  );
  const child: ChildProcess = fork(CHILD, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  cleanup.push(() => child.kill('SIGKILL'));
  shareAccounts(child, accounts);
  const reports: unknown[] = [];
  let waiter: (() => void) | undefined;
  child.on('message', (message: { report?: unknown }) => {
    if (message.report === undefined) return;
    reports.push(message.report);
    waiter?.();
  });
  const next = async () => {
    while (reports.length === 0) await new Promise<void>((resolve) => (waiter = resolve));
    return reports.shift();
  };
  expect(await next()).toEqual({ ready: true });
  const step = async (name: string) => {
    child.send({ step: name });
    return next();
  };
  return { store, accounts, child, step };
}

describe('accounts shared with a worker process', () => {
  it('write a charge only once the worker commits it (its answer was written)', async () => {
    const { store, accounts, step } = await primary();
    expect(await step('admit-and-hold')).toEqual({ admitted: true, held: true });
    // Charged 40 of the 45 held: 100 - 40 = 60 left as the ledger sees it.
    expect(await step('charge')).toEqual({ remaining: 60 });
    await accounts.flush();
    expect(await store.ledger.balance('k')).toBe(100);
    expect(await step('commit')).toEqual({ committed: true });
    await accounts.flush();
    expect(await store.ledger.balance('k')).toBe(60);
    expect(await step('balance')).toEqual({ balance: 60 });
  });

  it("give a dead worker's slots and holds back", async () => {
    const { accounts, child, step } = await primary();
    expect(await step('admit-and-hold')).toEqual({ admitted: true, held: true });
    // Its call holds the key's one slot and 45 of its 100 units.
    expect(await accounts.admit('k', { perSecond: 100, concurrent: 1 })).toMatchObject({ ok: false, reason: 'concurrency' });
    expect(await accounts.hold('k', 100)).toEqual({ ok: false, remaining: 55 });
    const gone = new Promise((resolve) => child.once('disconnect', resolve));
    child.kill('SIGKILL');
    await gone;
    expect(await accounts.admit('k', { perSecond: 100, concurrent: 1 })).toMatchObject({ ok: true });
    expect(await accounts.hold('k', 100)).toMatchObject({ ok: true });
  });

  it('give a slot back when the worker releases its call', async () => {
    const { accounts, step } = await primary();
    expect(await step('admit-release-admit')).toEqual({ admitted: [true, false, true] });
    // The third call's release has arrived too: the key's one slot is free here.
    expect(await accounts.admit('k', { perSecond: 100, concurrent: 1 })).toMatchObject({ ok: true });
  });

  it('give a released hold back whole, charging nothing', async () => {
    const { store, accounts, step } = await primary();
    expect(await step('hold-release')).toEqual({ held: true });
    expect(await accounts.hold('k', 100)).toMatchObject({ ok: true });
    await accounts.flush();
    expect(await store.ledger.balance('k')).toBe(100);
  });

  it("give back each of a dead worker's holds and unwritten charges, whatever their kind", async () => {
    const { store, accounts, child, step } = await primary();
    expect(await step('charge-and-hold')).toEqual({ held: [true, true] });
    // 45 charged and 45 held of 100: 10 left as the ledger sees it.
    expect(await accounts.hold('k', 11)).toEqual({ ok: false, remaining: 10 });
    const gone = new Promise((resolve) => child.once('disconnect', resolve));
    child.kill('SIGKILL');
    await gone;
    expect(await accounts.balance('k')).toBe(100);
    await accounts.flush();
    expect(await store.ledger.balance('k')).toBe(100);
  });

  it("lose a dead worker's unwritten charge, in the client's favour", async () => {
    const { store, accounts, child, step } = await primary();
    await step('admit-and-hold');
    expect(await step('charge')).toEqual({ remaining: 60 });
    const gone = new Promise((resolve) => child.once('disconnect', resolve));
    child.kill('SIGKILL');
    await gone;
    await accounts.flush();
    expect(await store.ledger.balance('k')).toBe(100);
    expect(await accounts.balance('k')).toBe(100);
  });

  it("pass the store's failure on as it is (a retryable 503 in one process stays one with workers)", async () => {
    const { step } = await primary();
    expect(await step('hold-down')).toEqual({ name: 'StoreUnavailableError', retryAfterSeconds: 2 });
    // A failure whose answer never crosses leaves the step waiting: a bound well above its time
    // fails it sooner than the default's minute.
  }, 20_000);
});
