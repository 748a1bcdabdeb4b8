/**
 * The entities of the sample: target sites (with hosts and pages) and referring domains (with
 * scores, IPs clustered in class-C subnets, countries), drawn from a seeded random source.
 *
 * @module
 * @internal
 */
import type { DomainInput } from './dataset.js';
import { Random, Zipf } from './random.js';
import { COUNTRY_WEIGHTS, LANGUAGES, PAGE_SECTIONS, SYLLABLES, TLDS } from './vocabulary.js';

/** A target site. @internal */
export interface TargetSite {
  readonly domain: string;
  readonly brand: string;
  readonly hosts: readonly string[];
  readonly paths: readonly string[];
  readonly score: number;
}

/** A referring domain. @internal */
export interface Referrer extends DomainInput {
  readonly lang: string;
}

/** Every entity of the sample. @internal */
export interface World {
  readonly targets: readonly TargetSite[];
  readonly referrers: readonly Referrer[];
  readonly targetPick: Zipf;
  readonly referrerPick: Zipf;
  readonly pathPick: Zipf;
}

function word(random: Random, parts: number): string {
  let out = '';
  for (let i = 0; i < parts; i++) out += random.pick(SYLLABLES);
  return out;
}

function uniqueName(random: Random, taken: Set<string>): string {
  // Syllable names run out near 190,000 (about 2.2M links); past a few collisions in a row a number
  // makes the name unique (words hold no digits), so any size can be generated, and small samples
  // (where eight collisions in a row practically never happen) stay exactly as they were.
  for (let tries = 0; ; tries++) {
    const base = word(random, random.int(2, 3));
    const name = `${tries < 8 ? base : `${base}${taken.size}`}.${random.weighted(TLDS)}`;
    if (!taken.has(name)) {
      taken.add(name);
      return name;
    }
  }
}

/** A score skewed towards low values, as authority scores are. */
const skewedScore = (random: Random) => Math.min(100, Math.round(100 * Math.pow(random.next(), 2.2)));

function makeTarget(random: Random, domain: string, index: number): TargetSite {
  const brand = domain.split('.')[0]!;
  const paths = ['/', '/about'];
  for (let i = 0; paths.length < 40; i++) {
    const section = random.pick(PAGE_SECTIONS);
    paths.push(`/${section}/${word(random, 3)}${random.chance(0.1) ? `?ref=${i}` : ''}`);
  }
  // The first targets are the best known, as in real link indexes.
  const score = Math.max(5, Math.min(100, 90 - index * 3 + random.int(-5, 5)));
  return { domain, brand, hosts: [domain, `www.${domain}`, `blog.${domain}`, `shop.${domain}`], paths, score };
}

/** Domains that link a lot (low rank) tend to be the stronger ones; the rest are skewed low. */
function makeReferrer(random: Random, domain: string, rank: number, count: number, subnets: readonly string[], subnetPick: Zipf): Referrer {
  const country = random.weighted(COUNTRY_WEIGHTS);
  const strength = Math.pow(1 - rank / count, 6) * 70;
  return {
    domain,
    ip_address: `${subnets[subnetPick.draw(random)]}.${random.int(1, 254)}`,
    country,
    domain_score: Math.min(100, Math.round(strength + skewedScore(random) * 0.4)),
    lang: LANGUAGES[country],
  };
}

function subnet(random: Random): string {
  let first = random.int(1, 223);
  if (first === 10 || first === 127) first = 11;
  return `${first}.${random.int(0, 255)}.${random.int(0, 255)}`;
}

/**
 * Draws the sites of a sample of `links` links. `example.com` is always the first and largest target.
 *
 * @internal
 */
export function makeWorld(random: Random, links: number): World {
  const taken = new Set<string>(['example.com']);
  const targetCount = Math.max(8, Math.round(links / 400));
  const referrerCount = Math.max(60, Math.round(links / 12));
  const targets = [makeTarget(random, 'example.com', 0)];
  while (targets.length < targetCount) targets.push(makeTarget(random, uniqueName(random, taken), targets.length));
  const subnets = Array.from({ length: Math.max(10, Math.round(referrerCount / 6)) }, () => subnet(random));
  const subnetPick = new Zipf(subnets.length, 0.8);
  const referrers = Array.from({ length: referrerCount }, (_, rank) => makeReferrer(random, uniqueName(random, taken), rank, referrerCount, subnets, subnetPick));
  return {
    targets,
    referrers,
    targetPick: new Zipf(targets.length, 1.1),
    referrerPick: new Zipf(referrers.length, 1.05),
    pathPick: new Zipf(40, 1.2),
  };
}
