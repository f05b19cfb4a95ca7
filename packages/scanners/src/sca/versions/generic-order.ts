import { compareDigits } from './numeric-string';

/**
 * A dotted-numeric order with qualifiers, for ecosystems without a semver-like scheme of their own
 * here (RubyGems, Packagist, Maven, NuGet). Versions split into numbers and words at `.`, `-`,
 * `_`, `+`, `~` and at every digit/letter boundary ("1.0.0-beta2" → 1 0 0 beta 2). Numbers compare
 * as numbers; a missing part counts as 0, so "1.0" equals "1.0.0" (as RubyGems and Maven have it).
 * A word where the other side has a number or nothing marks a pre-release ("1.0.a" < "1.0",
 * "1.0-SNAPSHOT" < "1.0"), except the words that mean a later patch ("sp", "patch", "pl", "p",
 * "post"). Release words ("final", "ga", "release", "stable") count as nothing.
 */
const WORD_RANK: Record<string, number> = {
  dev: 0,
  snapshot: 0,
  a: 1,
  alpha: 1,
  b: 2,
  beta: 2,
  m: 3,
  milestone: 3,
  c: 4,
  cr: 4,
  pre: 4,
  preview: 4,
  rc: 4,
  p: 7,
  patch: 7,
  pl: 7,
  post: 7,
  sp: 7,
};
const RELEASE_WORDS = new Set(['final', 'ga', 'release', 'stable']);
/** Rank of "nothing here": between the pre-release words and the patch words. */
const RELEASE_RANK = 6;

type TPart = { num: string } | { word: string };

export function versionParts(version: string): TPart[] {
  const trimmed = version.trim().replace(/^v(?=\d)/i, '');
  const parts: TPart[] = [];
  for (const piece of trimmed.toLowerCase().split(/[.\-_+~]+/)) {
    for (const m of piece.matchAll(/\d+|[a-z]+/g)) {
      if (/^\d/.test(m[0])) parts.push({ num: m[0] });
      else if (!RELEASE_WORDS.has(m[0])) parts.push({ word: m[0] });
    }
  }
  return parts;
}

function wordRank(word: string): number | undefined {
  return WORD_RANK[word];
}

/** A word against "nothing" (the other version ended, or has a number here). */
function wordVersusRelease(word: string): number {
  const rank = wordRank(word);
  return rank !== undefined && rank > RELEASE_RANK ? 1 : -1;
}

export function compareGeneric(a: string, b: string): number {
  const x = versionParts(a);
  const y = versionParts(b);
  const n = Math.max(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const p = x[i];
    const q = y[i];
    if (p === undefined || q === undefined) {
      const present = (p ?? q) as TPart;
      const missingIsLeft = p === undefined;
      let cmp: number;
      if ('num' in present) {
        if (/^0+$/.test(present.num)) continue;
        cmp = 1;
      } else {
        cmp = wordVersusRelease(present.word);
      }
      return missingIsLeft ? -cmp : cmp;
    }
    if ('num' in p && 'num' in q) {
      const c = compareDigits(p.num, q.num);
      if (c !== 0) return c;
    } else if ('word' in p && 'word' in q) {
      const rp = wordRank(p.word);
      const rq = wordRank(q.word);
      const c = rp !== undefined && rq !== undefined ? rp - rq : p.word < q.word ? -1 : p.word > q.word ? 1 : 0;
      if (c !== 0) return c < 0 ? -1 : 1;
    } else {
      // A number beats a pre-release word, and loses to a patch word.
      return 'word' in p ? wordVersusRelease(p.word) : -wordVersusRelease((q as { word: string }).word);
    }
  }
  return 0;
}
