/**
 * An export without IPs, imported as a process into the embedded store (issue 50, point 4): a
 * Semrush export has no IP column, so its links are stored with `ip_address` '' (the interface's
 * empty value), which is no IP: overview's IP counts are 0, ref-ips answers no row and charges
 * nothing, and score-profile counts none of its referring domains (a Semrush export has no domain
 * score, so they get no record). A second import of two of the links with IPs (the service's own
 * records, which carry a domain score) counts those two. Every expected value is counted by hand
 * from the files below and docs/importing.md ("Unknown values").
 */
import { describe, expect, it } from 'vitest';
import { loadServerDeps } from '../../../src/server/deps.js';
import { createServer } from '../../../src/server/server.js';
import { openStoreAt } from '../../../src/server/store/open.js';
import { importFiles, importInto, link, ndjson } from './import-helpers.js';

const { file, newDb } = importFiles('bq-import-no-ips-');

const HEADER = 'Page ascore,Source title,Source url,Target url,Anchor,External links,Internal links,Nofollow,Sponsored,Ugc,Text,Frame,Form,Image,Sitewide,First seen,Last seen,New link,Lost link';
/** A Semrush row from `source` to `target` with `anchor`. */
const row = (source: string, target: string, anchor: string, nofollow = 'false') =>
  `10,A title,${source},${target},${anchor},5,3,${nofollow},false,false,true,false,false,false,false,2025-01-02,2025-03-04,false,false`;
/**
 * Five links to acme.test from three referring domains: S1 one.test/a and S2 one.test/b, S3
 * two.test/, S4 three.test/p (to www.acme.test) and S5 three.test/q.
 */
const SEMRUSH = [
  HEADER,
  row('https://one.test/a', 'https://acme.test/', 'alpha'),
  row('https://one.test/b', 'https://acme.test/x', 'beta'),
  row('https://two.test/', 'https://acme.test/', 'gamma'),
  row('https://three.test/p', 'https://www.acme.test/', 'delta'),
  row('https://three.test/q', 'https://acme.test/', 'epsilon', 'true'),
].join('\n');

/** S1 and S3 again (the same source, target and anchor: they replace the stored links), with IPs and domain scores. */
const WITH_IPS = ndjson([
  link('one.test', 'alpha', { source_url: 'https://one.test/a', ip_address: '192.0.2.1', domain_score: 40 }),
  link('two.test', 'gamma', { source_url: 'https://two.test/', ip_address: '192.0.2.2', domain_score: 20 }),
]);

/** acme.test's overview counts, ref-ips (with its total and price) and score-profile, as the server answers them. */
async function answers(db: string) {
  const { tldts } = await loadServerDeps();
  const store = await openStoreAt({ kind: 'embedded', file: db }, tldts);
  const key = { id: 'tester', key: 'test-key-no-ips', units: 1_000_000 };
  const app = await createServer({ store, keys: [key], now: () => new Date('2026-06-15T12:00:00Z'), rateLimits: { perSecond: 1_000_000, concurrent: 1_000_000 } });
  const call = async (operation: string, extra: Record<string, string> = {}) => {
    const response = await app.inject({
      method: 'GET', url: `/_api/apis/v4/backlinks/v1/${operation}`, query: { url: 'acme.test', scope: 'ROOT_DOMAIN', ...extra }, headers: { authorization: `Apikey ${key.key}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response;
  };
  try {
    const overview = (await call('overview')).json().data;
    const refIps = await call('ref-ips', { order_by: 'ip_address', direction: 'ASC', fields: 'ip_address,country,backlinks_count,domains_count' });
    return {
      overview: { backlinks_count: overview.backlinks_count, domains_count: overview.domains_count, ips_count: overview.ips_count, ip_class_c_count: overview.ip_class_c_count },
      refIps: refIps.json().data,
      refIpsTotal: refIps.json().meta.total,
      refIpsUnits: refIps.headers['x-units-charged'],
      scoreProfile: (await call('score-profile')).json().data,
    };
  } finally {
    await app.close();
  }
}

describe('an export without IPs', () => {
  it('counts no IP and lists none in ref-ips; a later import with IPs counts those only', async () => {
    const db = newDb();
    expect((await importInto(db, [file('acme.test-backlinks.csv', SEMRUSH)])).summary).toMatchObject({ imported: 5, rejected: 0, files: [{ format: 'semrush' }] });
    expect(await answers(db)).toEqual({
      overview: { backlinks_count: 5, domains_count: 3, ips_count: 0, ip_class_c_count: 0 },
      refIps: [],
      refIpsTotal: 0,
      refIpsUnits: '0',
      scoreProfile: [],
    });

    expect((await importInto(db, [file('with-ips.ndjson', WITH_IPS)])).summary).toMatchObject({ imported: 2, rejected: 0, files: [{ format: 'service' }] });
    expect(await answers(db)).toEqual({
      // Still five links (two replaced); 192.0.2.1 and 192.0.2.2, one /24 network.
      overview: { backlinks_count: 5, domains_count: 3, ips_count: 2, ip_class_c_count: 1 },
      // Each IP's domain has a record derived from the links, which has no country.
      refIps: [
        { ip_address: '192.0.2.1', country: '', backlinks_count: 1, domains_count: 1 },
        { ip_address: '192.0.2.2', country: '', backlinks_count: 1, domains_count: 1 },
      ],
      refIpsTotal: 2,
      refIpsUnits: '40',
      // one.test 40 and two.test 20 from the links; three.test has no record: not counted.
      scoreProfile: [{ domain_score: 20, domains_count: 1 }, { domain_score: 40, domains_count: 1 }],
    });
  });
});
