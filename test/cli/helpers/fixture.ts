/**
 * The fixture service the CLI tests call: started once per test file, reset before each test and
 * closed after the file; `env` points the CLI at it with a key.
 *
 * @internal
 * @module
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../client/helpers/fixture-server.js';

/** The running fixture service and the environment that points the CLI at it. @internal */
export interface CliFixture {
  readonly server: FixtureServer;
  readonly env: Record<string, string>;
}

/** Registers the file's hooks; `onStart` receives the fixture once it runs. @internal */
export function useCliFixture(onStart: (fixture: CliFixture) => void): void {
  let server: FixtureServer | undefined;
  beforeAll(async () => {
    server = await startFixtureServer();
    onStart({ server, env: { BACKLINK_QUERY_API_KEY: 'cli-key', BACKLINK_QUERY_BASE_URL: server.baseUrl } });
  });
  afterAll(() => server?.close());
  beforeEach(() => server?.reset());
}
