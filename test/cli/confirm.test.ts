/**
 * The cost question in scripts. Run as a process with stdin a pipe (never a terminal): a plain call
 * at the default limit runs without `--yes` (the default `--confirm-above` is above one default
 * page of every operation); a dearer run is refused with exit 4, nothing sent, and a message that
 * says how to allow it (`--yes`, or `--max-units`, which bounds what the run may spend and so is
 * the answer too). docs/cli.md and `--help` state the same default.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPERATION_NAMES, operations, type OperationName } from '../../src/catalogue/operations.js';
import { estimateUnits } from '../../src/client/units.js';
import { DEFAULT_CONFIRM_ABOVE } from '../../src/cli/confirm.js';
import type { FixtureServer } from '../client/helpers/fixture-server.js';
import { useCliFixture } from './helpers/fixture.js';
import { PROJECT, runCli } from './helpers/run-cli.js';
import { runMain } from './helpers/run-main.js';

let server: FixtureServer;
let env: Record<string, string>;
useCliFixture((fixture) => void ({ server, env } = fixture));

const LINKS = ['links', 'example.com', '--scope', 'ROOT_DOMAIN', '--format', 'ndjson'];

describe('the default threshold', () => {
  it('is 5,000: one call at the default limit of any operation costs less (links, the dearest, 4,500)', () => {
    expect(DEFAULT_CONFIRM_ABOVE).toBe(5000);
    const target = { url: 'example.com', domain: 'example.com', keyword: 'shoes', urls: ['a.com', 'b.com', 'c.com', 'd.com', 'e.com', 'f.com'] };
    const worst = Math.max(...OPERATION_NAMES.map((op: OperationName) => estimateUnits(op, target as never)));
    expect(worst).toBe(4500);
    expect(estimateUnits('links', target as never)).toBe(operations.links.price.units * 100);
    expect(worst).toBeLessThanOrEqual(DEFAULT_CONFIRM_ABOVE);
  });

  it('docs/cli.md and --help state it', async () => {
    const docs = readFileSync(`${PROJECT}docs/cli.md`, 'utf8');
    expect(docs).toContain('(default **5,000**)');
    const help = await runCli(['links', '--help']);
    expect(help.stdout).toContain('(default 5000)');
  });
});

describe('in a script (stdin is not a terminal)', () => {
  it('a plain call at the default limit (4,500 units) runs without --yes', async () => {
    const run = await runCli(LINKS, { env });
    expect(run.stderr).not.toContain('--confirm-above');
    expect(run.code).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(run.stdout.trim().split('\n')).toHaveLength(100);
  });

  it('a call above the threshold is refused with exit 4, nothing sent, and the message names --yes and --max-units', async () => {
    const run = await runCli([...LINKS, '--limit', '200'], { env });
    expect(run.code).toBe(4);
    expect(server.requests).toHaveLength(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'backlink-query links: This call may cost up to 9,000 units (--confirm-above 5,000), and standard input is not a terminal, so nobody can confirm it; nothing was sent. ' +
        'To run it from a script, pass --yes, or --max-units <n> to spend at most n units (--max-units 9000 covers this call).\n',
    );
    // docs/cli.md shows this very message.
    expect(readFileSync(`${PROJECT}docs/cli.md`, 'utf8')).toContain(`$ backlink-query links example.com --scope ROOT_DOMAIN --limit 200 < /dev/null\n${run.stderr}`);
  });

  it('--all without a cap is unbounded: refused, the message says how to bound it', async () => {
    const run = await runCli([...LINKS, '--all'], { env });
    expect(run.code).toBe(4);
    expect(server.requests).toHaveLength(0);
    expect(run.stderr).toContain('may cost up to an unbounded number of units');
    expect(run.stderr).toContain('pass --yes, or --max-units <n> to spend at most n units (or bound the run with --max-rows)');
  });

  it('--yes lets it through; so does --max-units, which the run then never exceeds', async () => {
    const yes = await runCli([...LINKS, '--limit', '200', '--yes'], { env });
    expect(yes.code).toBe(0);
    expect(server.requests).toHaveLength(1);

    const capped = await runCli([...LINKS, '--limit', '200', '--max-units', '9000'], { env });
    expect(capped.code).toBe(0);
    expect(server.requests).toHaveLength(2);

    // A cap below the call's worst case: not asked, and not sent either (the budget refuses it).
    const tooLow = await runCli([...LINKS, '--limit', '200', '--max-units', '8999'], { env });
    expect(tooLow.code).toBe(4);
    expect(server.requests).toHaveLength(2);

    // --all under a cap stops when the next page no longer fits.
    const all = await runCli(['anchors', 'example.com', '--scope', 'PAGE', '--all', '--max-units', '6000', '--format', 'ndjson'], { env });
    expect(all.code).toBe(0);
    expect(all.stdout.trim().split('\n')).toHaveLength(150);
    expect(all.stderr).toContain('150 rows · 6,000 units · 2 pages (--max-units reached)');
  });

  it('a higher --confirm-above lets it through too', async () => {
    const run = await runMain([...LINKS, '--limit', '200', '--confirm-above', '9000'], { env });
    expect(run.code).toBe(0);
    expect(server.requests).toHaveLength(1);
  });
});

describe('on a terminal (in-process)', () => {
  it('asks above the threshold, and runs after "y"', async () => {
    const run = await runMain([...LINKS, '--limit', '120'], { env, tty: true, stdin: 'y\n' });
    expect(run.stderr).toContain('This call may cost up to 5,400 units (--confirm-above 5,000). Continue? [y/N] ');
    expect(run.code).toBe(0);
    expect(server.requests).toHaveLength(1);
  });

  it('does not ask at or below it, nor under --max-units', async () => {
    const plain = await runMain(LINKS, { env, tty: true });
    expect(plain.stderr).not.toContain('Continue?');
    const capped = await runMain([...LINKS, '--limit', '120', '--max-units', '5400'], { env, tty: true });
    expect(capped.stderr).not.toContain('Continue?');
    expect(capped.code).toBe(0);
    expect(server.requests).toHaveLength(2);
  });
});
