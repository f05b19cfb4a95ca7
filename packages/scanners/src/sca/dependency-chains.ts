import { chainsToRoot } from '@palisade/domain/reports/package-vuln';
import type { TLockedPackage, TParsedLockfile } from './lockfiles/locked-package';

/** Dependency paths shown per vulnerable package: the shortest few, as other SCA reports do. */
export const MAX_CHAINS = 4;

/**
 * The dependency paths of a lockfile's packages, from a direct dependency (or, where the lockfile
 * does not say which are direct, from a package nothing depends on) down to the package, shortest
 * first. A package the lockfile gives no edges for is its own path.
 */
export function makeChainFinder(lockfile: TParsedLockfile): (pkg: TLockedPackage) => TLockedPackage[][] {
  let parents: Map<string, string[]> | undefined;
  const byKey = new Map(lockfile.packages.map((p) => [p.key, p]));
  return (pkg) => {
    if (parents === undefined) {
      parents = new Map();
      for (const p of lockfile.packages) {
        for (const dep of p.deps) {
          if (dep === p.key) continue;
          const list = parents.get(dep) ?? [];
          list.push(p.key);
          parents.set(dep, list);
        }
      }
    }
    const up = parents;
    const isRoot = (key: string) => lockfile.knowsDirect && byKey.get(key)?.direct === true;
    return chainsToRoot(pkg.key, (key) => up.get(key) ?? [], isRoot, MAX_CHAINS).map((chain) => chain.map((key) => byKey.get(key) as TLockedPackage));
  };
}
