import { hash } from 'node:crypto';
import type { TNormalizedFinding } from './normalized-finding';

/**
 * Finding identity (API.md "Fingerprints"): one result about one place is one finding; the
 * same result re-posted is the same finding; two results of one rule at two positions, even on
 * one line, are two findings. Three rules, tried in order:
 *
 * 1. the report vouches for an identity (SARIF fingerprints / partialFingerprints, a tool's
 *    stable id): entity + tool + rule + that identity;
 * 2. a package vulnerability: entity + tool + package (name@version, else purl, else name) +
 *    vulnerability id (+ the logical place, e.g. the workload, when the report names one), so
 *    the same CVE on the same package found at two paths of one image is one finding;
 * 3. otherwise: entity + tool + rule + normalized path + line + column + logical place +
 *    occurrence index (the n-th identical position in this report).
 *
 * Every part goes through JSON.stringify of an array, so no two different inputs can run
 * together into one string. A version prefix lets the scheme change without silent collisions.
 */
const SCHEME = 'palisade-fp-v1';

export type TFingerprintFinding = Pick<TNormalizedFinding, 'rule' | 'location' | 'fingerprint_hint' | 'occurrence'>;

export function computeFingerprint({ entityKey, tool, finding }: { entityKey: string; tool: string; finding: TFingerprintFinding }): string {
  const ruleId = finding.rule.id;
  const loc = finding.location;
  let parts: (string | number)[];
  if (finding.fingerprint_hint !== undefined && finding.fingerprint_hint !== '') {
    parts = [SCHEME, 'hint', entityKey, tool, ruleId, finding.fingerprint_hint];
  } else if (loc.package !== undefined) {
    parts = [SCHEME, 'package', entityKey, tool, packageIdentity(loc.package), ruleId, loc.logical ?? ''];
  } else {
    parts = [SCHEME, 'location', entityKey, tool, ...positionKey(finding), finding.occurrence ?? 0];
  }
  // One-shot hash: a Hash object per finding was a tenth of a large report's parse time.
  return hash('sha256', JSON.stringify(parts), 'hex');
}

function packageIdentity(pkg: NonNullable<TNormalizedFinding['location']['package']>): string {
  if (pkg.version !== undefined && pkg.version !== '') return `${pkg.ecosystem ?? ''}:${pkg.name}@${pkg.version}`;
  if (pkg.purl !== undefined && pkg.purl !== '') return pkg.purl;
  return `${pkg.ecosystem ?? ''}:${pkg.name}`;
}

/** The parts of a location-based identity before the occurrence index; also the occurrence key. */
export function positionKey(finding: Pick<TNormalizedFinding, 'rule' | 'location'>): (string | number)[] {
  const loc = finding.location;
  return [
    finding.rule.id,
    loc.path === undefined ? '' : normalizeFindingPath(loc.path),
    loc.logical ?? '',
    loc.start_line ?? 0,
    loc.start_column ?? 0,
  ];
}

/** Forward slashes, no leading "./", no doubled or trailing slashes. */
export function normalizeFindingPath(path: string): string {
  let p = path.replace(/\\/g, '/').replace(/\/{2,}/g, '/');
  while (p.startsWith('./')) p = p.slice(2);
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  return p;
}

/**
 * Numbers the findings of one report that share a rule and a position (rule 3 above), in report
 * order: the first distinct result at a position gets 0, a second, different one (another
 * message or extent, e.g. two issues on one line of a tool that reports no columns) gets 1, and
 * so on. An exact repeat of a result (same rule, position, extent and message: a duplicated run,
 * a tool that prints a match twice) gets the index of its first appearance, so it stays one
 * finding.
 */
export function makeOccurrenceCounter(): (finding: Pick<TNormalizedFinding, 'rule' | 'location' | 'message' | 'title'>) => number {
  const indexOf = makeVariantIndex();
  return (finding) => {
    const position = JSON.stringify(positionKey(finding));
    const loc = finding.location;
    return indexOf(position, JSON.stringify([loc.end_line ?? 0, loc.end_column ?? 0, finding.title, finding.message ?? '']));
  };
}

/**
 * Numbers the places that one reported identity (rule + fingerprint_hint, rule 1 above) is found
 * at within one report: the first place 0, another place 1, and so on; the same identity at a
 * place already seen (a repeated run) gets that place's index. For tools whose fingerprint does
 * not tell two places apart (a hash of the line's text, as flawfinder's contextHash: the same
 * call on two lines of a file), the parser adds the index to the identity, so those stay two
 * findings, as GitHub's occurrence suffix on primaryLocationLineHash keeps them.
 */
export function makeHintOccurrenceCounter(): (finding: Pick<TNormalizedFinding, 'rule' | 'location' | 'fingerprint_hint'>) => number {
  const indexOf = makeVariantIndex();
  return (finding) => {
    const loc = finding.location;
    return indexOf(JSON.stringify([finding.rule.id, finding.fingerprint_hint ?? '']), JSON.stringify([...positionKey(finding), loc.end_line ?? 0, loc.end_column ?? 0]));
  };
}

/**
 * The index of `variant` among the distinct variants of `group` seen so far (first seen, first
 * numbered). Memory is a few numbers per distinct variant (53-bit hashes of the keys), about a
 * megabyte for 100k findings; a hash collision can only shift an index, never merge two findings.
 */
function makeVariantIndex(): (group: string, variant: string) => number {
  const distinct = new Map<number, number>(); // group → number of distinct variants seen
  const indexOf = new Map<number, number>(); // (group, variant) → its index
  return (group, variant) => {
    const key = hash53(group);
    const signature = hash53(group + variant);
    const known = indexOf.get(signature);
    if (known !== undefined) return known;
    const n = distinct.get(key) ?? 0;
    distinct.set(key, n + 1);
    indexOf.set(signature, n);
    return n;
  };
}

/** cyrb53: a fast non-cryptographic 53-bit string hash (public domain). */
function hash53(str: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < str.length; i++) {
    const ch = str.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
