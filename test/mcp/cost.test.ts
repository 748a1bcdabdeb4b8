/**
 * The cost guard alone (`checkCost`), on cases whose figures are worked out by hand from the
 * interface's prices (Limits and prices): links 45 units per line, ref-ips 20, matrix and
 * comparison 40, score-profile 1 (at most 101 rows), metrics 20 per request, overview 45.
 */
import { describe, expect, it } from 'vitest';
import { checkCost } from '../../src/mcp/cost.js';

const target = { url: 'example.com', scope: 'ROOT_DOMAIN' };
const none = { maxCallUnits: undefined, remaining: undefined, budget: undefined };

describe('checkCost', () => {
  it('lets through what fits, up to the bound itself', () => {
    expect(checkCost('links', { ...target, limit: 100 }, none)).toBeUndefined();
    // 100 × 45 = 4,500: exactly the cap, exactly what is left.
    expect(checkCost('links', { ...target, limit: 100 }, { maxCallUnits: 4500, remaining: 4500, budget: 9000 })).toBeUndefined();
    expect(checkCost('metrics', { keyword: 'seo', country: 'US' }, { maxCallUnits: 20, remaining: 20, budget: 20 })).toBeUndefined();
  });

  it('prices the default limit when none is given, and suggests the largest limit that fits', () => {
    // ref-ips: 100 × 20 = 2,000 > 1,000; 50 × 20 = 1,000 fits.
    expect(checkCost('ref-ips', target, { maxCallUnits: 1000, remaining: undefined, budget: undefined })).toMatchObject({
      code: 'over_call_limit',
      estimate: 2000,
      allowed: 1000,
      change: { parameter: 'limit', max: 50, estimate: 1000 },
    });
  });

  it('names the tighter bound: what is left of the budget, or the per-call cap', () => {
    const params = { urls: ['a.com', 'b.com'], scope: 'ROOT_DOMAIN', limit: 10 }; // matrix: 10 × 40 = 400
    expect(checkCost('matrix', params, { maxCallUnits: 300, remaining: 200, budget: 1000 })).toMatchObject({ code: 'over_budget', allowed: 200, change: { parameter: 'limit', max: 5 } });
    expect(checkCost('matrix', params, { maxCallUnits: 200, remaining: 300, budget: 1000 })).toMatchObject({ code: 'over_call_limit', allowed: 200, change: { parameter: 'limit', max: 5 } });
    expect(checkCost('matrix', params, { maxCallUnits: 200, remaining: 300, budget: 1000 })!.message).toBe(
      'Not sent: this matrix call could cost up to 400 units, but one call may cost at most 200 units (--max-call-units). Pass limit: 5 or less (worst case 200 units), and page with offset.',
    );
  });

  it('suggests fewer targets for comparison, which has no limit', () => {
    const params = { urls: ['a.com', 'b.com', 'c.com', 'd.com'], scope: 'ROOT_DOMAIN' }; // 4 × 40 = 160
    expect(checkCost('comparison', params, { maxCallUnits: undefined, remaining: 100, budget: 500 })).toMatchObject({
      code: 'over_budget',
      estimate: 160,
      remaining: 100,
      change: { parameter: 'urls', max: 2, estimate: 80 },
    });
  });

  it('has no change to suggest for a price per request, score-profile, or when not one row fits', () => {
    const overview = checkCost('overview', target, { maxCallUnits: 40, remaining: undefined, budget: undefined });
    expect(overview).toMatchObject({ code: 'over_call_limit', estimate: 45 });
    expect(overview!.change).toBeUndefined();
    expect(overview!.message).toContain('the user can restart the server with a larger --max-call-units');
    expect(checkCost('score-profile', target, { maxCallUnits: 100, remaining: undefined, budget: undefined })).toMatchObject({ estimate: 101 });
    expect(checkCost('score-profile', target, { maxCallUnits: 100, remaining: undefined, budget: undefined })!.change).toBeUndefined();
    // 44 units left: not one links row (45).
    const spent = checkCost('links', { ...target, limit: 1 }, { maxCallUnits: undefined, remaining: 44, budget: 1000 });
    expect(spent).toMatchObject({ code: 'over_budget', estimate: 45 });
    expect(spent!.change).toBeUndefined();
    expect(spent!.message).toBe(
      'Not sent: this links call could cost up to 45 units, but only 44 units are left of the session budget (--budget 1,000). No smaller call of this operation fits: the session budget is spent for it; the user can restart the server with a larger --budget.',
    );
  });
});
