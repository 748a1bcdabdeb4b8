/**
 * The referring domains' own data that links give, for links loaded without domain records: per
 * source domain, the domain_score and IP address of its most recently seen link (the higher score
 * on a tie). `import` and the test service (`createTestService`) both derive them so.
 *
 * @module
 */
import type { DomainInput, LinkInput } from '../store/inputs.js';
import type { GraphWriter } from '../store/store.js';

/**
 * Domain records derived from links, gathered batch by batch and written only for domains without
 * a record of their own (`keep`).
 *
 * @example
 * ```ts
 * const derived = new DerivedDomains();
 * derived.add(links);
 * await derived.write(writer, 1_000);
 * ```
 */
export class DerivedDomains {
  readonly #byDomain = new Map<string, { score: number; ip: string; seen: string }>();

  /** Takes in a batch of links. */
  add(links: readonly LinkInput[]): void {
    for (const link of links) {
      if (link.source_domain === '') continue;
      const known = this.#byDomain.get(link.source_domain);
      if (known === undefined) this.#byDomain.set(link.source_domain, { score: link.domain_score, ip: link.ip_address, seen: link.last_seen_at });
      else if (link.last_seen_at > known.seen || (link.last_seen_at === known.seen && link.domain_score > known.score)) {
        known.score = link.domain_score;
        known.ip = link.ip_address;
        known.seen = link.last_seen_at;
      }
    }
  }

  /** How many domains the links gave. */
  get size(): number {
    return this.#byDomain.size;
  }

  /** The records (a country is not in a link: empty). */
  records(): DomainInput[] {
    return [...this.#byDomain].map(([domain, own]) => ({ domain, domain_score: own.score, ip_address: own.ip, country: '' }));
  }

  /** Writes the records in batches, only for domains without one (`keep`). */
  async write(writer: GraphWriter, batchSize: number): Promise<void> {
    const rows = this.records();
    for (let i = 0; i < rows.length; i += batchSize) await writer.domains(rows.slice(i, i + batchSize), { keep: true });
  }
}
