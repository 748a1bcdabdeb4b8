/**
 * One autocannon run (programmatic API, in this process; the server runs in another). Latency
 * percentiles are computed from autocannon's own per-response times (its `response` event, in
 * fractional milliseconds): its summary histogram keeps whole milliseconds only, too coarse for
 * sub-millisecond answers and for the overhead ratio.
 */
import autocannon from 'autocannon';
import { BENCH_KEY } from './databases.js';
import { callPath, type BenchCall } from './calls.js';

/** What one run measured. */
export interface LoadResult {
  readonly connections: number;
  /** Seconds the run lasted. */
  readonly seconds: number;
  /** Responses received (any status). */
  readonly responses: number;
  /** 2xx responses per second. */
  readonly rps: number;
  /** Percentiles of the 2xx responses' latency, in milliseconds. */
  readonly p50: number;
  readonly p99: number;
  readonly mean: number;
  readonly max: number;
  readonly non2xx: number;
  /** Connection errors and timeouts. */
  readonly errors: number;
  readonly timeouts: number;
  /** Responses by status code. */
  readonly statusCodes: Readonly<Record<string, number>>;
}

/** The `p` quantile (0..1) of sorted values, nearest rank. */
export function quantile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length)));
  return sorted[rank - 1]!;
}

/** Whether a run had any failed call. */
export const failed = (r: LoadResult): boolean => r.non2xx > 0 || r.errors > 0 || r.timeouts > 0;

/** Runs `calls` (each connection sends them in turn) against `baseUrl`. */
export function load(baseUrl: string, calls: readonly BenchCall[], options: { connections: number; duration: number }): Promise<LoadResult> {
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl,
        connections: options.connections,
        duration: options.duration,
        timeout: 30,
        headers: { authorization: `Apikey ${BENCH_KEY.key}` },
        requests: calls.map((call) => ({ method: 'GET', path: callPath(call) })),
      },
      (error, result) => {
        if (error) return reject(error);
        const sorted = Float64Array.from(latencies).sort();
        const statusCodes: Record<string, number> = {};
        for (const [code, { count }] of Object.entries(result.statusCodeStats)) statusCodes[code] = count;
        const responses = Object.values(statusCodes).reduce((a, b) => a + b, 0);
        resolve({
          connections: options.connections,
          seconds: result.duration,
          responses,
          rps: result['2xx'] / result.duration,
          p50: quantile(sorted, 0.5),
          p99: quantile(sorted, 0.99),
          mean: sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length),
          max: sorted.length > 0 ? sorted[sorted.length - 1]! : Number.NaN,
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          statusCodes,
        });
      },
    );
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
}
