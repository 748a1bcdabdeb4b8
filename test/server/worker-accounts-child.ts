/**
 * The worker side of test/server/worker-accounts.test.ts: a process forked with an IPC channel that
 * uses the primary's accounts through `remoteAccounts`, step by step as the test tells it (`{ step }`
 * messages), reporting each result (`{ report }`).
 */
import { remoteAccounts } from '../../src/server/worker-accounts.js';
import type { Hold } from '../../src/server/accounts/charge-book.js';

const accounts = remoteAccounts();
const report = (report: unknown) => process.send!({ report });
let hold: Hold | undefined;

process.on('message', async (message: { step?: string }) => {
  switch (message.step) {
    case 'admit-and-hold': {
      const admission = await accounts.admit('k', { perSecond: 100, concurrent: 1 });
      const held = await accounts.hold('k', 45);
      if (held.ok) hold = held.hold;
      return report({ admitted: admission.ok, held: held.ok });
    }
    case 'charge': {
      const charged = await accounts.charge(hold!, 40);
      hold = charged.hold;
      return report({ remaining: charged.remaining });
    }
    case 'commit':
      accounts.commit(hold!);
      // The commit goes with the next batch; flush sends it now, before this report.
      await accounts.flush();
      return report({ committed: true });
    case 'balance':
      return report({ balance: await accounts.balance('k') });
    case 'admit-release-admit': {
      // The key has one slot: a second call is refused until the first gives it back.
      const limits = { perSecond: 100, concurrent: 1 };
      const first = await accounts.admit('k', limits);
      const second = await accounts.admit('k', limits);
      if (first.ok) first.release();
      const third = await accounts.admit('k', limits);
      if (third.ok) third.release();
      await accounts.flush();
      return report({ admitted: [first.ok, second.ok, third.ok] });
    }
    case 'hold-release': {
      // A call refused or failed after its hold: the hold goes back, nothing is charged.
      const held = await accounts.hold('k', 30);
      if (held.ok) accounts.release(held.hold);
      await accounts.flush();
      return report({ held: held.ok });
    }
    case 'charge-and-hold': {
      // One call charged 45 (not written yet) and another holding 45: both the worker's at once.
      const first = await accounts.hold('k', 45);
      if (first.ok) await accounts.charge(first.hold, 45);
      const second = await accounts.hold('k', 45);
      return report({ held: [first.ok, second.ok] });
    }
    case 'hold-down':
      // The primary's store cannot read this key's balance: what the worker gets.
      return report(
        await accounts.hold('down', 1).then(
          () => ({ held: true }),
          (error: Error & { retryAfterSeconds?: number }) => ({ name: error.name, retryAfterSeconds: error.retryAfterSeconds }),
        ),
      );
  }
});
report({ ready: true });
