/**
 * `serve`'s banner (docs/server.md, "Running"): its example call names the domain with the most
 * links in the served database, here an imported one whose top domain is not the sample's, and an
 * empty database gets no example. Links written by hand from `import --template ndjson`.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnCli, waitFor } from '../server/support/cli-process.js';
import { BASE } from '../server/support/helpers.js';

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
          `Charts: ${url}/explore/?url=fjordwidgets.no&scope=ROOT_DOMAIN\n` +
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

  it('a database that cannot say which domain has most links leaves the placeholder, says why on stderr, and serve goes on serving', async () => {
    const project = mkdtempSync(join(dir, 'broken-'));
    const template = spawnCli(['import', '--template', 'ndjson'], {}, project);
    expect(await template.exit).toBe(0);
    writeFileSync(join(project, 'links.ndjson'), `${JSON.stringify({ ...JSON.parse(template.out()), source_url: 'https://a.example.org/1', source_domain: 'a.example.org', target_url: 'https://fjordwidgets.no/' })}\n`);
    const file = join(project, 'links.db');
    const load = spawnCli(['import', 'links.ndjson', '--database-url', `sqlite:${file}`], {}, project);
    expect(await load.exit, load.err()).toBe(0);
    // The rollup the lookup reads is gone; the links are there (the database has links).
    const db = new Database(file);
    db.exec('DROP TABLE r_targets');
    db.close();
    const serve = spawnCli(['serve', '--port', '0', '--database-url', `sqlite:${file}`, '--quiet'], { BACKLINK_QUERY_KEYS: 'ci:ci-key-123456:1000' }, project);
    try {
      const [, url] = await waitFor(serve.out, /listening on (http:\/\/\S+)/, serve.exit);
      await waitFor(serve.out, /Stop: Ctrl\+C/, serve.exit);
      expect(serve.out()).toBe(
        `backlink-query server listening on ${url}\n` +
          `Try: curl -H 'Authorization: Apikey <your key>' '${url}${BASE}/overview?url=<domain>&scope=ROOT_DOMAIN'\n` +
          `OpenAPI: ${url}/openapi.json   Stop: Ctrl+C (SIGINT) or SIGTERM\n`,
      );
      expect(serve.err()).toBe('The example call names no domain: the database did not say which has most links (no such table: r_targets).\n');
      const health = await fetch(`${url}/health`);
      expect([health.status, (await health.json()).data]).toEqual([200, { store: 'sqlite', answering: true }]);
    } finally {
      serve.child.kill('SIGTERM');
    }
    expect(await serve.exit).toBe(0);
  }, 120_000);
});
