/**
 * The cost guard of `backlink-query mcp`, end to end: a session budget (`--budget`) and a per-call
 * cap (`--max-call-units`), each refusing a call before it is sent, with the estimate, what is
 * left and the largest limit that fits, worked out by hand from the interface's prices (links:
 * 45 units per returned line; comparison 40 per line, one line per target). The key's balance on
 * the server shows that nothing was sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { KEYS, NOW } from '../server/support/fixture.js';
import { fixtureStore } from '../server/support/helpers.js';
import { startSession, textOf, type Session } from './session.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ store: await fixtureStore(), keys: KEYS, now: () => NOW, port: 0, host: '127.0.0.1', rateLimits: { perSecond: 1000, concurrent: 100 } });
});
afterAll(() => server?.close());

async function unitsLeft(key: string = KEYS[0].key): Promise<number> {
  const response = await fetch(`${server.url}/_api/apis/v4/units/v1/balance`, { headers: { authorization: `Apikey ${key}` } });
  return ((await response.json()) as { data: { units_remaining: number } }).data.units_remaining;
}

const target = { url: 'example.com', scope: 'ROOT_DOMAIN' } as const;
const error = (result: { structuredContent?: unknown }) => (result.structuredContent as { error: Record<string, any> }).error;

describe('--budget', () => {
  let session: Session;
  beforeAll(async () => {
    session = await startSession(['--budget', '1000'], { BACKLINK_QUERY_BASE_URL: server.url, BACKLINK_QUERY_API_KEY: KEYS[0].key });
  });
  afterAll(() => session?.close());

  it('refuses a call whose worst case passes the budget, before sending, and says which limit fits', async () => {
    const before = await unitsLeft();
    // The default limit, 100 rows × 45 = 4,500 > 1,000; 22 × 45 = 990 fits, 23 × 45 = 1,035 does not.
    const result = await session.call('links', target);
    expect(result.isError).toBe(true);
    expect(error(result)).toMatchObject({ kind: 'over_budget', estimate: 4500, remaining: 1000, budget: 1000, change: { parameter: 'limit', max: 22, estimate: 990 } });
    expect(textOf(result)).toContain('could cost up to 4,500 units, but only 1,000 units are left of the session budget');
    expect(textOf(result)).toContain('limit: 22 or less');
    expect(await unitsLeft()).toBe(before);
  });

  it('lets a call that fits through, charges what it cost, and bounds the next by what is left', async () => {
    // limit 5: at most 225 units; the filter selects 3 rows (ids 2, 3, 4 of the fixture): 135 units.
    const first = await session.call('links', { ...target, limit: 5, filter: 'domain_score >= 60 AND is_nofollow = true', fields: ['anchor'] });
    expect(first.isError, textOf(first)).toBeUndefined();
    expect((first.structuredContent as Record<string, any>)['session']).toEqual({ units_spent: 135, budget_remaining: 865 });
    // 20 × 45 = 900 > 865 left; 19 × 45 = 855 fits.
    const second = await session.call('links', { ...target, limit: 20 });
    expect(error(second)).toMatchObject({ kind: 'over_budget', estimate: 900, remaining: 865, change: { parameter: 'limit', max: 19, estimate: 855 } });
    // comparison has no limit: one line per target, 40 units each; 865 / 40 fits 21 targets, so 3 pass.
    const third = await session.call('comparison', { urls: ['example.com', 'rival.com', 'third.com'], scope: 'ROOT_DOMAIN' });
    expect(third.isError, textOf(third)).toBeUndefined();
    expect((third.structuredContent as Record<string, any>)['units']).toBe(120);
    expect((third.structuredContent as Record<string, any>)['session']).toEqual({ units_spent: 255, budget_remaining: 745 });
  });
});

describe('--budget, with calls at the same time', () => {
  it('never lets calls in flight overrun the budget together', async () => {
    const session = await startSession(['--budget', '1000', '--base-url', server.url, '--api-key', KEYS[0].key]);
    try {
      // Each may cost 20 × 45 = 900: either fits alone, both do not.
      const calls = await Promise.all([1, 2].map(() => session.call('links', { ...target, limit: 20 })));
      const refused = calls.filter((result) => result.isError);
      expect(refused.length, calls.map(textOf).join('\n')).toBe(1);
      expect(error(refused[0]!)).toMatchObject({ kind: 'over_budget', estimate: 900, change: { parameter: 'limit' } });
      // The one sent returned the 7 links of example.com: 7 × 45 = 315.
      const sent = calls.find((result) => !result.isError)!;
      expect((sent.structuredContent as Record<string, any>)['session']).toEqual({ units_spent: 315, budget_remaining: 685 });
    } finally {
      await session.close();
    }
  });
});

describe('--max-call-units', () => {
  let session: Session;
  beforeAll(async () => {
    session = await startSession(['--max-call-units', '100', '--base-url', server.url, '--api-key', KEYS[0].key]);
  });
  afterAll(() => session?.close());

  it('caps one call, without a session budget', async () => {
    const before = await unitsLeft();
    // 3 targets × 40 = 120 > 100; 2 targets × 40 = 80 fits.
    const result = await session.call('comparison', { urls: ['example.com', 'rival.com', 'third.com'], scope: 'ROOT_DOMAIN' });
    expect(error(result)).toMatchObject({ kind: 'over_call_limit', estimate: 120, allowed: 100, max_call_units: 100, change: { parameter: 'urls', max: 2, estimate: 80 } });
    expect(textOf(result)).toContain('one call may cost at most 100 units (--max-call-units)');
    // overview costs 45 per request: it fits; metrics 20.
    expect((await session.call('overview', target)).isError).toBeUndefined();
    // score-profile: up to 101 rows × 1 unit > 100, and no parameter makes it smaller.
    const profile = await session.call('score-profile', target);
    expect(error(profile)).toMatchObject({ kind: 'over_call_limit', estimate: 101 });
    expect(error(profile)['change']).toBeUndefined();
    expect(textOf(profile)).toContain('larger --max-call-units');
    expect(await unitsLeft()).toBe(before - 45);
  });
});

describe('the service refusing the key', () => {
  it('answers an unknown key as a tool error with the status and what to do', async () => {
    const session = await startSession(['--base-url', server.url, '--api-key', 'not-a-key-000', '--retries', '0']);
    try {
      const result = await session.call('overview', target);
      expect(result.isError).toBe(true);
      expect(error(result)).toMatchObject({ kind: 'service', status: 401, code: 'unauthorized' });
      expect(error(result)['envelope'].error.code).toBe(401);
      expect(textOf(result)).toContain('--api-key');
    } finally {
      await session.close();
    }
  });

  it('answers a key without enough units as a 402 tool error', async () => {
    const session = await startSession(['--base-url', server.url, '--api-key', KEYS[1].key, '--retries', '0']);
    try {
      // The poor key has 50 units; overview costs 45, so a second one cannot be paid.
      expect((await session.call('overview', target)).isError).toBeUndefined();
      const result = await session.call('overview', target);
      expect(error(result)).toMatchObject({ kind: 'service', status: 402 });
    } finally {
      await session.close();
    }
  });
});
