import semver, { type SemVer } from 'semver';
import { compareGeneric } from './generic-order';

/**
 * Semantic versions (npm, crates.io, Go, and OSV `SEMVER` ranges). A leading "v" is dropped (Go
 * writes v1.2.3, OSV's Go ranges 1.2.3) and short versions are padded ("1.0" → 1.0.0: advisories
 * write them, e.g. GHSA-r683-j2x4-v87g introduces node-fetch at "1.0"). Build metadata is ignored
 * as semver says ("+incompatible" on Go modules). Pre-releases order before their release, so
 * 5.0.0-alpha.1 < 5.0.0-beta.3 < 5.0.0. Anything semver cannot read falls back to the generic
 * order, for both sides, so the order stays total.
 */
export function parseSemver(version: string): SemVer | null {
  const text = version.trim().replace(/^v(?=\d)/i, '');
  const padded = /^\d+(\.\d+)?$/.test(text) ? `${text}${text.includes('.') ? '.0' : '.0.0'}` : text;
  return semver.parse(padded, { loose: true });
}

export function compareSemver(a: string, b: string): number {
  const x = parseSemver(a);
  const y = parseSemver(b);
  if (x === null || y === null) return compareGeneric(a, b);
  return x.compare(y);
}
