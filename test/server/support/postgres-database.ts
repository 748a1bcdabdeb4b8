/**
 * Fresh, empty databases on the PostgreSQL server the global setup started, one per suite or
 * test, dropped when the file's tests end. A run without that server fails loudly here.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { onFileEnd } from '../../helpers/file-end.js';


async function onServer<T>(server: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The URL of a new empty database named `bq_<prefix>_<random>` on the server at `server`. */
export async function freshPostgresDatabase(server: string | undefined, prefix: string): Promise<string> {
  if (!server) throw new Error('postgresUrl was not provided: the global setup started no PostgreSQL for this run (see test/setup/engine-selection.ts).');
  const name = `bq_${prefix}_${randomBytes(6).toString('hex')}`;
  await onServer(server, (client) => client.query(`CREATE DATABASE ${name}`));
  onFileEnd(() => onServer(server, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)));
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}
