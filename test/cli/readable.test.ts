/**
 * Output people read (docs/cli.md, "Output formats"): the table rounds the fractions of the
 * interface (a competitor's similarity, type `number`, 0 to 1) to three decimals, while json and
 * ndjson keep the service's value whole. Expected tables are written by hand.
 */
import { describe, expect, it } from 'vitest';
import { sendJson, type FixtureServer } from '../client/helpers/fixture-server.js';
import { useCliFixture } from './helpers/fixture.js';
import { runCli } from './helpers/run-cli.js';

let env: Record<string, string>;
let server: FixtureServer;
useCliFixture((fixture) => void ({ env, server } = fixture));

const COMPETITORS = [
  { domain: 'a.example', similarity: 0.365296803652968, common_refdomains: 1200 },
  { domain: 'bb.example', similarity: 1, common_refdomains: 5 },
  { domain: 'c.example', similarity: 0.0104, common_refdomains: 7 },
];

const answerCompetitors = () =>
  server.queue((_, res) => sendJson(res, 200, { meta: { request_id: 'r-1', status_code: 200, success: true, total: 3 }, data: COMPETITORS }));

const ARGS = ['competitors', 'example.com', '--fields', 'domain,similarity,common_refdomains'];

describe('fractions in the table', () => {
  it('similarity to three decimals, right-aligned, in the table', async () => {
    answerCompetitors();
    const run = await runCli([...ARGS, '--format', 'table'], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'domain      similarity  common_refdomains\n' +
        '----------  ----------  -----------------\n' +
        'a.example        0.365               1200\n' +
        'bb.example       1.000                  5\n' +
        'c.example        0.010                  7\n',
    );
  });

  it('json keeps the service value whole', async () => {
    answerCompetitors();
    const run = await runCli([...ARGS, '--format', 'json'], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      '[\n' +
        '  {\n    "domain": "a.example",\n    "similarity": 0.365296803652968,\n    "common_refdomains": 1200\n  },\n' +
        '  {\n    "domain": "bb.example",\n    "similarity": 1,\n    "common_refdomains": 5\n  },\n' +
        '  {\n    "domain": "c.example",\n    "similarity": 0.0104,\n    "common_refdomains": 7\n  }\n' +
        ']\n',
    );
  });

  it('ndjson keeps the service value whole', async () => {
    answerCompetitors();
    const run = await runCli([...ARGS, '--format', 'ndjson'], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      '{"domain":"a.example","similarity":0.365296803652968,"common_refdomains":1200}\n' +
        '{"domain":"bb.example","similarity":1,"common_refdomains":5}\n' +
        '{"domain":"c.example","similarity":0.0104,"common_refdomains":7}\n',
    );
  });
});
