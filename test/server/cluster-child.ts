/**
 * The worker side of test/server/cluster.test.ts: a process forked with an IPC channel that uses
 * the primary's accounts through `remoteAccounts`, step by step as the test tells it (`{ step }`
 * messages), reporting each result (`{ report }`).
 */
import { remoteAccounts } from '../../src/server/cluster.js';
import type { Hold } from '../../src/server/plugins/ledger.js';

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
