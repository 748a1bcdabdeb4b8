/**
 * Sample keyword metrics: a vocabulary of keywords, each with metrics by country and month over
 * the last three years, and a second (later) snapshot in some months so "latest snapshot" matters.
 *
 * @module
 * @internal
 */
import { addMonths } from '../clock.js';
import type { KeywordSnapshotInput } from './dataset.js';
import type { Random } from './random.js';
import { INTENTS, KEYWORD_COUNTRIES, KEYWORD_HEADS, KEYWORD_TAILS, SERP_FEATURES } from './vocabulary.js';

const COUNTRY_FACTOR: Readonly<Record<string, number>> = { US: 1, UK: 0.25, DE: 0.2, FR: 0.15, ES: 0.1, IT: 0.08, CA: 0.12, AU: 0.07, IN: 0.3, BR: 0.1 };

function subset(random: Random, items: readonly string[], p: number): string[] {
  const chosen = items.filter(() => random.chance(p));
  return chosen.length > 0 ? chosen : [items[0]!];
}

/**
 * Every snapshot of the sample vocabulary, in a stable order, ending at `month` (`YYYY-MM`).
 *
 * @internal
 */
export function* keywordSnapshots(random: Random, month: string): Generator<KeywordSnapshotInput> {
  const keywords = KEYWORD_HEADS.flatMap((head) => KEYWORD_TAILS.map((tail) => `${head} ${tail}`));
  // The 36 months, oldest first, once rather than per keyword and country.
  const months = Array.from({ length: 36 }, (_, i) => addMonths(month, i - 35));
  for (const [rank, keyword] of keywords.entries()) {
    const base = Math.round(200_000 / Math.pow(rank + 1, 0.9));
    const intents = subset(random, INTENTS.slice(0, 2), 0.6);
    for (const country of KEYWORD_COUNTRIES) {
      const trend = Array.from({ length: 12 }, () => random.int(30, 100));
      for (const m of months) {
        const volume = Math.max(10, Math.round(base * COUNTRY_FACTOR[country]! * (0.7 + random.next() * 0.6)));
        const snapshot = (day: number): KeywordSnapshotInput => ({
          keyword, country, month: m, snapshot_at: `${m}-${String(day).padStart(2, '0')}T00:00:00`,
          search_volume: String(volume + (day > 10 ? random.int(0, 50) : 0)),
          cpc: (random.next() * 8 + 0.1).toFixed(2),
          competitive_density: random.int(0, 100),
          keyword_difficulty: random.int(0, 100),
          number_of_results: String(random.int(1_000_000, 2_000_000_000)),
          intents,
          serp_features: subset(random, SERP_FEATURES, 0.35),
          trends: trend.map((t) => Math.max(0, Math.min(100, t + random.int(-10, 10)))),
        });
        yield snapshot(1);
        if (random.chance(0.2)) yield snapshot(15);
      }
    }
  }
}
