/**
 * The embedded store's files served by `backlink-query serve` as a process (apart from
 * embedded-helpers.ts, so that the files importing only those helpers start no process: test:quick
 * runs them).
 */
import { spawnCli, waitFor } from '../../../support/cli-process.js';

/**
 * The nofollow links of example.com as `backlink-query serve --db FILE` answers them over HTTP (a
 * process of its own), in the shape of embedded-helpers.ts' `NOFOLLOW`; the server is stopped before this returns.
 */
export async function servedNofollow(file: string): Promise<{ total: number; rows: unknown[][] }> {
  const serve = spawnCli(['serve', '--port', '0', '--db', file, '--now', '2026-06-15', '--quiet'], { BACKLINK_QUERY_KEYS: 'ci:ci-key-123456:100000' });
  try {
    const [, url] = await waitFor(serve.out, /listening on (http:\/\/\S+)/, serve.exit);
    const response = await fetch(`${url}/_api/apis/v4/backlinks/v1/links?url=example.com&scope=ROOT_DOMAIN&filter=is_nofollow%20%3D%20true&fields=source_url`, {
      headers: { authorization: 'Apikey ci-key-123456' },
    });
    const body = (await response.json()) as { data: { source_url: string }[]; meta: { total: number } };
    return { total: body.meta.total, rows: body.data.map((row) => [row.source_url]) };
  } finally {
    serve.child.kill('SIGTERM');
    await serve.exit;
  }
}
