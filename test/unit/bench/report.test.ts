/**
 * What bench:server's generated-workload goals hold (bench/server/report.ts): cold phases their
 * whole phase; warm paging the pages after each filter's first (issue 51's goal: "warm paging
 * (pages 2+ of a filter seen once)"), since a filter's first page is a cold call.
 */
import { describe, expect, it } from 'vitest';
import { heldToGoal } from '../../../bench/server/report.js';
import type { GroupSummary, PhaseResult } from '../../../bench/server/generated-run.js';

const group = (name: string, p50: number, p99: number): GroupSummary => ({ name, responses: 10, p50, p90: p99, p99, max: p99, non2xx: 0 });

describe('heldToGoal', () => {
  it('warm paging: the later pages, not the phase with its cold first pages', () => {
    const warm = { phase: 'warm', p50: 20, p99: 120, groups: [group('all', 20, 120), group('first page (offset 0)', 70, 130), group('later pages (offset 100-900)', 5, 40)] } as unknown as PhaseResult;
    expect(heldToGoal(warm)).toMatchObject({ p50: 5, p99: 40 });
  });

  it('cold phases: the whole phase', () => {
    for (const phase of ['cold-c1', 'cold-c10']) {
      const cold = { phase, p50: 12, p99: 90, groups: [group('all', 12, 90), group('later pages (offset 100-900)', 1, 2)] } as unknown as PhaseResult;
      expect(heldToGoal(cold)).toMatchObject({ p50: 12, p99: 90 });
    }
  });

  it('warm paging without later pages measured: nothing to hold (NaN), never the first pages', () => {
    const warm = { phase: 'warm', p50: 20, p99: 120, groups: [group('all', 20, 120), group('first page (offset 0)', 20, 120)] } as unknown as PhaseResult;
    const held = heldToGoal(warm);
    expect(Number.isNaN(held.p50) && Number.isNaN(held.p99)).toBe(true);
  });
});
