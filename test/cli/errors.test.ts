/**
 * The CLI's error messages, from the real process: did-you-mean for unknown commands and options,
 * no sentence ending in "?.", a parameter checked before any question about cost, and every detail
 * of the service's refusal printed (parameter, rule, message, and a caret for a filter). Expected
 * texts are written from docs/cli.md.
 */
import { describe, expect, it } from 'vitest';
import { fail, type FixtureServer } from '../client/helpers/fixture-server.js';
import { useCliFixture } from './helpers/fixture.js';
import { runCli } from './helpers/run-cli.js';

let server: FixtureServer;
let env: Record<string, string>;
useCliFixture((fixture) => void ({ server, env } = fixture));

describe('did you mean', () => {
  it('names only the unknown command, with the closest one', async () => {
    const run = await runCli(['linkz', 'example.com', '--scope', 'ROOT_DOMAIN']);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe('backlink-query: unknown command "linkz"; did you mean links?');
    expect(run.stderr).not.toContain('example.com');
  });

  it('takes the two words of a group command, and lists the commands when nothing is close', async () => {
    const check = await runCli(['filter', 'chek', 'a = 1']);
    expect(check.code).toBe(2);
    expect(check.stderr.split('\n')[0]).toBe('backlink-query: unknown command "filter chek"; did you mean filter check?');
    const far = await runCli(['frobnicate']);
    expect(far.code).toBe(2);
    expect(far.stderr.split('\n')[0]).toBe('backlink-query: unknown command "frobnicate".');
    expect(far.stderr).toContain('  links ');
  });

  it('help <command>: one command\'s help, the group\'s commands, or the closest command', async () => {
    const fields = await runCli(['help', 'fields']);
    expect(fields.code).toBe(0);
    expect(fields.stdout.split('\n')[0]).toBe('Usage: backlink-query fields <operation> [--format table|json]');
    const group = await runCli(['help', 'filter']);
    expect(group).toMatchObject({ code: 0, stdout: 'Commands:\n  filter check  Check a filter and print its canonical form or its issues\n' });
    const typo = await runCli(['help', 'linkz']);
    expect(typo.code).toBe(2);
    expect(typo.stderr.split('\n')[0]).toBe('backlink-query: unknown command "linkz"; did you mean links?');
  });

  it('suggests the closest option of an operation command, and of the program', async () => {
    const run = await runCli(['links', 'example.com', '--scope', 'ROOT_DOMAIN', '--limt', '5'], { env });
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe('backlink-query links: unknown option --limt; did you mean --limit?');
    expect(run.stderr).not.toContain("To specify a positional argument");
    const program = await runCli(['--versoin']);
    expect(program.code).toBe(2);
    expect(program.stderr.split('\n')[0]).toBe('backlink-query: unknown option --versoin; did you mean --version?');
    expect(server.requests).toHaveLength(0);
  });

  it('suggests the closest option of a server command', async () => {
    const run = await runCli(['serve', '--prot', '3000']);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe('backlink-query serve: unknown option --prot; did you mean --port?');
  });

  it('takes a long option written with one dash for the two-dash one it means', async () => {
    const limit = await runCli(['links', 'example.com', '--scope', 'ROOT_DOMAIN', '-limit', '5'], { env });
    expect(limit.code).toBe(2);
    expect(limit.stderr.split('\n')[0]).toBe('backlink-query links: unknown option -limit; did you mean --limit?');
    // -format would otherwise be -f with the value "ormat".
    const format = await runCli(['links', 'example.com', '--scope', 'ROOT_DOMAIN', '-format', 'json'], { env });
    expect(format.stderr.split('\n')[0]).toBe('backlink-query links: unknown option -format; did you mean --format?');
    const typo = await runCli(['links', 'example.com', '--scope', 'ROOT_DOMAIN', '-limt', '5'], { env });
    expect(typo.stderr.split('\n')[0]).toBe('backlink-query links: unknown option -limt; did you mean --limit?');
    const program = await runCli(['-version']);
    expect(program.stderr.split('\n')[0]).toBe('backlink-query: unknown option -version; did you mean --version?');
    // The value of an option is not read as an option written with one dash.
    const value = await runCli(['links', 'example.com', '--scope', 'ROOT_DOMAIN', '--fields', '-limit'], { env });
    expect(value.stderr.split('\n')[0]).toBe('backlink-query links: --fields needs a value; one that starts with "-" is written --fields=<value>.');
    // An unknown one-letter option stays as it is.
    const short = await runCli(['links', 'example.com', '--scope', 'ROOT_DOMAIN', '-x'], { env });
    expect(short.stderr.split('\n')[0]).toBe('backlink-query links: unknown option -x.');
    expect(server.requests).toHaveLength(0);
  });

  it('suggests the scope and the direction whatever their case', async () => {
    const scope = await runCli(['links', 'example.com', '--scope', 'root_domin'], { env });
    expect(scope.code).toBe(2);
    expect(scope.stderr.split('\n')[0]).toBe(
      'backlink-query links: --scope (invalid_value): scope must be one of ROOT_DOMAIN, SUBDOMAIN, SUBFOLDER, PAGE, not "root_domin"; did you mean ROOT_DOMAIN?',
    );
    const direction = await runCli(['links', 'example.com', '--scope', 'PAGE', '--direction', 'dsc'], { env });
    expect(direction.stderr.split('\n')[0]).toBe('backlink-query links: --direction (invalid_value): direction must be one of ASC, DESC, not "dsc"; did you mean DESC?');
  });

  it('says an option needs a value in its own words', async () => {
    const run = await runCli(['links', 'example.com', '--scope', 'ROOT_DOMAIN', '--limit'], { env });
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe('backlink-query links: --limit needs a value.');
  });
});

describe('no message ends with "?."', () => {
  it.each([
    ['an unknown command', ['linkz', 'example.com']],
    ['an unknown option', ['links', 'example.com', '--scope', 'PAGE', '--limt', '5']],
    ['an unknown operation for filter check', ['filter', 'check', 'a = 1', '--operation', 'linkz']],
    ['an unknown field in --fields', ['links', 'example.com', '--scope', 'PAGE', '--fields', 'anchr']],
    ['an unknown field in --filter', ['links', 'example.com', '--scope', 'PAGE', '--filter', 'domain_scor > 5']],
    ['a scope with a typo', ['links', 'example.com', '--scope', 'ROOT_DOMAN']],
    ['an unknown option of serve', ['serve', '--prot', '1']],
  ])('%s', async (_, args) => {
    const run = await runCli(args, { env });
    expect(run.code).not.toBe(0);
    expect(`${run.stdout}${run.stderr}`).toMatch(/did you mean/);
    expect(run.stdout).not.toContain('?.');
    expect(run.stderr).not.toContain('?.');
  });
});

describe('parameters before cost', () => {
  it('reports a --limit above the documented maximum (10,000) as the parameter, not as 4,500,000 units', async () => {
    const run = await runCli(['links', 'example.com', '--scope', 'ROOT_DOMAIN', '--limit', '100000'], { env });
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe(
      "backlink-query links: --limit (too_large): limit must be at most 10000 (the service's maximum unless it is configured otherwise), not 100000; pass --yes to send it anyway.",
    );
    expect(run.stderr).not.toContain('units');
    expect(server.requests).toHaveLength(0);
  });

  it('reports a broken client rule with its parameter and rule before asking about cost', async () => {
    const run = await runCli(['summary', 'example.com', '--scope', 'SUBFOLDER', '--limit', '5000'], { env });
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toMatch(/^backlink-query summary: --scope \(invalid_value\): /);
    expect(run.stderr).not.toContain('units');
  });
});

const LINKS = ['links', 'example.com', '--scope', 'ROOT_DOMAIN', '--filter', 'domain_score > 5', '--limit', '5', '--format', 'ndjson'];

describe("every detail of the service's refusal", () => {
  it('prints parameter, rule and message of each detail, and a caret under a filter detail (current body)', async () => {
    server.queue(
      fail.status(400, {
        meta: { request_id: 'req-7', status_code: 400, success: false },
        error: {
          type: `${server.baseUrl}/errors#invalid_request`,
          code: 400,
          message: 'The request has 2 invalid parameter values; the first: Field domain_score is not available here.',
          retryable: false,
          details: [
            { parameter: 'filter', rule: 'unknown_field', message: 'Field domain_score is not available here.', offset: 0, length: 12, line: 1, column: 1 },
            { parameter: 'limit', rule: 'too_large', message: 'limit must be at most 3.' },
          ],
        },
      }),
    );
    const run = await runCli(LINKS, { env });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      [
        'backlink-query links: the service refused the call with 400 invalid_request (request req-7), 2 problems:',
        '  --filter (unknown_field) at 1:1: Field domain_score is not available here.',
        '    domain_score > 5',
        '    ^^^^^^^^^^^^',
        '  --limit (too_large): limit must be at most 3.',
        '',
      ].join('\n'),
    );
  });

  it('reads the older body too: a string code, and details with code instead of rule', async () => {
    server.queue(
      fail.status(400, {
        meta: { request_id: 'req-8', status_code: 400, success: false },
        error: {
          code: 'invalid_request',
          message: 'The request has 1 invalid parameter value.',
          retryable: false,
          details: [{ parameter: 'limit', code: 'too_large', message: 'limit must be at most 10000.' }],
        },
      }),
    );
    const run = await runCli(LINKS, { env });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      [
        'backlink-query links: the service refused the call with 400 invalid_request (request req-8), 1 problem:',
        '  --limit (too_large): limit must be at most 10000.',
        '',
      ].join('\n'),
    );
  });

  it('names the target by its argument and keeps a parameter the command line does not set', async () => {
    server.queue(
      fail.status(400, {
        meta: { request_id: 'req-9', status_code: 400, success: false },
        error: {
          type: '/errors#invalid_request',
          code: 400,
          message: 'Two problems.',
          retryable: false,
          details: [
            { parameter: 'url', rule: 'invalid_target', message: 'url must have a host name.' },
            { parameter: 'key', rule: 'not_allowed', message: 'The key may not be sent in the query.' },
          ],
        },
      }),
    );
    const run = await runCli(LINKS, { env });
    expect(run.stderr.split('\n').slice(1, 3)).toEqual(['  <url> (invalid_target): url must have a host name.', '  key (not_allowed): The key may not be sent in the query.']);
  });
});
