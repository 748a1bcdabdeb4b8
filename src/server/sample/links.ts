/**
 * One sample link: anchors (branded, exact-match, URL, generic, image), rel and placement flags
 * in realistic proportions, first and last seen over three years, lost links.
 *
 * @module
 * @internal
 */
import { formatTimestamp } from '../clock.js';
import type { LinkInput } from './dataset.js';
import type { Random } from './random.js';
import { GENERIC_ANCHORS, KEYWORD_HEADS, KEYWORD_TAILS, TITLE_WORDS } from './vocabulary.js';
import type { Referrer, TargetSite } from './world.js';

const DAY = 86_400_000;
const THREE_YEARS = 3 * 365 * DAY;
const ANCHOR_KINDS = { branded: 35, exact: 20, url: 15, generic: 30 } as const;
const RESPONSE_CODES = { '200': 93, '301': 3, '404': 2, '403': 1, '500': 1 } as const;

function anchorFor(random: Random, target: TargetSite, url: string): string {
  switch (random.weighted(ANCHOR_KINDS)) {
    case 'branded':
      return random.pick([target.brand, target.brand[0]!.toUpperCase() + target.brand.slice(1), target.domain, `${target.brand} Inc`]);
    case 'exact':
      return `${random.pick(KEYWORD_HEADS)} ${random.pick(KEYWORD_TAILS)}`;
    case 'url':
      return random.chance(0.5) ? url : url.replace(/^https?:\/\//, '');
    case 'generic':
      return random.pick(GENERIC_ANCHORS);
  }
}

function seen(random: Random, now: number): { first: number; last: number; lost: boolean } {
  const first = now - Math.floor(random.next() * THREE_YEARS);
  const lost = random.chance(0.12) && now - first > 14 * DAY;
  const last = lost ? first + Math.floor(random.next() * (now - first - 7 * DAY)) : Math.max(first, now - Math.floor(random.next() * 14 * DAY));
  return { first, last, lost };
}

/**
 * A link from `from` to `target`, drawn from `random`.
 *
 * @internal
 */
export function makeLink(random: Random, target: TargetSite, path: string, from: Referrer, now: number): LinkInput {
  const host = random.pick(target.hosts.slice(0, random.chance(0.8) ? 2 : 4));
  const targetUrl = `${random.chance(0.9) ? 'https' : 'http'}://${host}${path}`;
  const image = random.chance(0.08);
  const ugc = random.chance(0.04);
  const sponsored = random.chance(0.03);
  const nofollow = random.chance(0.2) || (ugc && random.chance(0.8)) || (sponsored && random.chance(0.7));
  const { first, last, lost } = seen(random, now);
  const slug = `${random.pick(TITLE_WORDS).toLowerCase().replace(/ /g, '-')}-${random.int(1, 400)}`;
  return {
    source_url: `https://${random.chance(0.3) ? 'www.' : ''}${from.domain}/${slug}`,
    target_url: targetUrl,
    anchor: image ? '' : anchorFor(random, target, targetUrl),
    redirect_url: random.chance(0.04) ? `https://${host}/old${path === '/' ? '' : path}` : '',
    source_title: `${random.pick(TITLE_WORDS)} ${random.pick(KEYWORD_HEADS)} ${random.pick(TITLE_WORDS).toLowerCase()}`,
    target_title: random.chance(0.1) ? target.brand : '',
    image_url: image ? `https://${from.domain}/images/${slug}.png` : '',
    image_alt: image && random.chance(0.7) ? `${target.brand} logo` : '',
    ip_address: from.ip_address,
    lang: from.lang,
    source_size: Math.round(2000 * Math.exp(random.next() * 5)),
    external_links_count: Math.floor(Math.pow(random.next(), 2) * 300),
    internal_links_count: 5 + Math.floor(random.next() * 400),
    response_code: Number(random.weighted(RESPONSE_CODES)),
    page_score: Math.max(0, Math.min(100, from.domain_score + random.int(-15, 10))),
    domain_score: from.domain_score,
    first_seen_at: formatTimestamp(new Date(first)),
    last_seen_at: formatTimestamp(new Date(last)),
    source_domain: from.domain,
    is_nofollow: nofollow,
    is_ugc: ugc,
    is_sponsored: sponsored,
    is_form: random.chance(0.005),
    is_frame: random.chance(0.01),
    is_image: image,
    is_sitewide_main: random.chance(0.03),
    is_lost: lost,
  };
}
