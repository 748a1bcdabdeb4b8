// Fixed, deterministic data shared by every library's page (same numbers for all).
function rng(seed) { // mulberry32
  return () => {
    seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function months() {
  const r = rng(1);
  const out = [];
  let backlinks = 12000, refdomains = 900;
  for (let i = 0; i < 24; i++) {
    const y = 2024 + Math.floor(i / 12), m = (i % 12) + 1;
    const newLinks = Math.round(300 + r() * 500), lostLinks = Math.round(200 + r() * 400);
    backlinks += newLinks - lostLinks;
    refdomains += Math.round((newLinks - lostLinks) / 12);
    out.push({ month: `${y}-${String(m).padStart(2, '0')}`, backlinks, refdomains, newLinks, lostLinks });
  }
  return out;
}

export function hist() {
  const r = rng(2);
  const out = [];
  for (let s = 0; s <= 100; s++) {
    const bell = Math.exp(-((s - 35) ** 2) / 300) * 800 + Math.exp(-((s - 80) ** 2) / 60) * 200;
    out.push({ score: s, count: Math.round(bell + r() * 40) });
  }
  return out;
}

export function anchors() {
  const words = ['example', 'click here', 'example.com', 'homepage', 'read more', 'best tools', 'link',
    'www.example.com', 'source', 'this article', 'official site', 'pricing', 'docs', 'blog',
    'learn more', 'review', 'download', 'guide', 'here', 'see also'];
  return words.map((anchor, i) => ({ anchor, count: Math.round(5000 / (i + 1) + 7 * i) }));
}

export function points(seed = 3, n = 1000) {
  const r = rng(seed);
  const out = new Array(n);
  let y = 500;
  for (let i = 0; i < n; i++) { y += (r() - 0.5) * 40; out[i] = { x: i, y: Math.round(y * 10) / 10 }; }
  return out;
}
