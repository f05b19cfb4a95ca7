import { matchKey, versionOrder, type TEcosystem } from './ecosystems';
import type { TLockedPackage, TParsedLockfile } from './lockfiles/locked-package';
import type { TAdvisory } from './osv/osv-advisory';
import { matchAffected } from './osv/osv-range';

/** One release in one lockfile that one vulnerability (one advisory and its aliases) affects. */
export type TVulnerableRelease = {
  ecosystem: TEcosystem;
  name: string;
  version: string;
  /** Every entry of the lockfile that is this release (npm may install it at several paths). */
  packages: TLockedPackage[];
  /** The advisories that describe this vulnerability, the one that names the finding first. */
  advisories: TAdvisory[];
  /** Fixed versions above the locked one, lowest first. */
  fixed: string[];
};

/**
 * Matches a lockfile's registry packages against the advisories that name them. Advisories that
 * are aliases of one another (a GHSA and the PYSEC or RUSTSEC record of the same issue, linked by
 * `aliases`) are one vulnerability: one finding, not one per database.
 */
export function matchLockfile(lockfile: TParsedLockfile, byPackage: ReadonlyMap<string, readonly TAdvisory[]>): TVulnerableRelease[] {
  const releases = new Map<string, TLockedPackage[]>();
  for (const pkg of lockfile.packages) {
    if (pkg.source !== 'registry') continue;
    const key = `${matchKey(pkg.ecosystem, pkg.name)}\u0000${pkg.version}`;
    releases.set(key, [...(releases.get(key) ?? []), pkg]);
  }
  const out: TVulnerableRelease[] = [];
  for (const packages of releases.values()) {
    const { ecosystem, name, version } = packages[0];
    const key = matchKey(ecosystem, name);
    const order = versionOrder(ecosystem);
    const hits: Array<{ advisory: TAdvisory; fixed: string[] }> = [];
    for (const advisory of byPackage.get(key) ?? []) {
      const fixed: string[] = [];
      let hit = false;
      for (const affected of advisory.affected) {
        if (matchKey(affected.ecosystem, affected.name) !== key) continue;
        const m = matchAffected(version, affected, order);
        if (m === undefined) continue;
        hit = true;
        fixed.push(...m.fixed);
      }
      if (hit) hits.push({ advisory, fixed });
    }
    for (const group of groupAliases(hits)) {
      const fixed = [...new Set(group.flatMap((h) => h.fixed))].sort(order);
      out.push({ ecosystem, name, version, packages, advisories: group.map((h) => h.advisory).sort(byPreference), fixed });
    }
  }
  return out;
}

/** GitHub's id names a finding before an ecosystem database's, and both before a bare CVE record. */
function preference(id: string): number {
  if (/^GHSA-/i.test(id)) return 0;
  if (/^CVE-/i.test(id)) return 2;
  return 1;
}

function byPreference(a: TAdvisory, b: TAdvisory): number {
  return preference(a.id) - preference(b.id) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Connected groups of advisories sharing an id or alias (union-find over the names). */
function groupAliases<T extends { advisory: TAdvisory }>(hits: T[]): T[][] {
  const parent = hits.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const owner = new Map<string, number>();
  hits.forEach((hit, i) => {
    for (const name of [hit.advisory.id, ...hit.advisory.aliases]) {
      const seen = owner.get(name.toUpperCase());
      if (seen === undefined) owner.set(name.toUpperCase(), i);
      else parent[find(i)] = find(seen);
    }
  });
  const groups = new Map<number, T[]>();
  hits.forEach((hit, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), hit]));
  return [...groups.values()];
}
