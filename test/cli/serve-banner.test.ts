/**
 * `serve`'s banner (docs/server.md, "Running"): its example call names the domain with the most
 * links in the served database, here an imported one whose top domain is not the sample's, and an
 * empty database gets no example. Links written by hand from `import --template ndjson`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnCli, waitFor } from '../server/cli-process.js';
import { BASE } from '../server/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'bq-serve-banner-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the banner of serve', () => {
  it("serve's banner tries the domain with most links in the served database, and tries nothing on an empty one", async () => {
    const project = mkdtempSync(join(dir, 'banner-'));
    const template = spawnCli(['import', '--template', 'ndjson'], {}, project);
    expect(await template.exit).toBe(0);
    const record = JSON.parse(template.out());
    const link = (source: string, target: string) => JSON.stringify({ ...record, source_url: source, source_domain: new URL(source).hostname, target_url: target });
    // Two links to fjordwidgets.no, one to example.com: the banner's example must name fjordwidgets.no.
    writeFileSync(
      join(project, 'links.ndjson'),
      [link('https://a.example.org/1', 'https://www.fjordwidgets.no/x'), link('https://b.example.org/2', 'https://fjordwidgets.no/y'), link('https://c.example.org/3', 'https://www.example.com/')].join('\n') + '\n',
    );
    const db = join(project, 'links.db');
    const load = spawnCli(['import', 'links.ndjson', '--db', db], {}, project);
    expect(await load.exit, load.err()).toBe(0);
    const keys = { BACKLINK_QUERY_KEYS: 'ci:ci-key-123456:1000' };
    const serve = spawnCli(['serve', '--port', '0', '--db', db, '--quiet'], keys, project);
    try {
      const [, url] = await waitFor(serve.out, /listening on (http:\/\/\S+)/, serve.exit);
      await waitFor(serve.out, /Stop: Ctrl\+C/, serve.exit);
      const overview = `${url}${BASE}/overview?url=fjordwidgets.no&scope=ROOT_DOMAIN`;
      expect(serve.out()).toBe(
        `backlink-query server listening on ${url}\n` +
          `Try: curl -H 'Authorization: Apikey <your key>' '${overview}'\n` +
          `OpenAPI: ${url}/openapi.json   Stop: Ctrl+C (SIGINT) or SIGTERM\n`,
      );
      const response = await fetch(overview, { headers: { authorization: 'Apikey ci-key-123456' } });
      expect((await response.json()).data.backlinks_count).toBe(2);
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exit;
    }
    const empty = spawnCli(['serve', '--port', '0', '--quiet'], keys, project);
    try {
      const [, url] = await waitFor(empty.out, /listening on (http:\/\/\S+)/, empty.exit);
      await waitFor(empty.out, /Stop: Ctrl\+C/, empty.exit);
      expect(empty.out()).toBe(`backlink-query server listening on ${url}\nOpenAPI: ${url}/openapi.json   Stop: Ctrl+C (SIGINT) or SIGTERM\n`);
    } finally {
      empty.child.kill('SIGTERM');
      await empty.exit;
    }
  }, 120_000);
});
