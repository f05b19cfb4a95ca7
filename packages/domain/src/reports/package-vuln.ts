import type { TEvidence } from '@palisade/contracts';
import type { TFindingPackage } from '../findings/normalized-finding';

/** Shared shapes for "vulnerability X in package P" findings, so every SCA parser reads alike. */
export function packageVulnTitle(id: string, pkg: TFindingPackage | undefined): string {
  if (pkg === undefined) return id;
  return `${id} in ${pkg.name}${pkg.version === undefined ? '' : `@${pkg.version}`}`;
}

/** How a package is named in a dependency path: its purl when known, else name@version. */
export function packageRef(pkg: TFindingPackage): string {
  return pkg.purl ?? (pkg.version === undefined ? pkg.name : `${pkg.name}@${pkg.version}`);
}

export function dependencyPathEvidence(pkg: TFindingPackage, path: string[] | undefined, fixedVersions: string[] | undefined): TEvidence {
  const chain = path !== undefined && path.length > 0 ? path : [packageRef(pkg)];
  const fixed = (fixedVersions ?? []).filter((v) => v.trim() !== '');
  return fixed.length === 0 ? { kind: 'dependency_path', path: chain, package: pkg } : { kind: 'dependency_path', path: chain, package: pkg, fixed_versions: fixed };
}

/** An OCI/Docker digest "sha256:abc..." as artifact_hash evidence. */
export function digestEvidence(digest: string | undefined, artifact: string | undefined): TEvidence | undefined {
  if (digest === undefined) return undefined;
  const m = /^([a-z0-9-]+):([a-f0-9]{16,})$/i.exec(digest.trim());
  if (!m) return undefined;
  return artifact === undefined ? { kind: 'artifact_hash', algorithm: m[1].toLowerCase(), digest: m[2] } : { kind: 'artifact_hash', algorithm: m[1].toLowerCase(), digest: m[2], artifact };
}

/** A copy without undefined keys, so optional fields are absent, not present-and-undefined. */
export function defined<T extends object>(o: T): T {
  const out = {} as T;
  for (const k in o) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

/**
 * Shortest chains from a root down to `target` over child → parents edges (breadth-first,
 * at most `limit` chains, each at most 256 long); roots are nodes without parents or `isRoot`.
 */
export function chainsToRoot(target: string, parents: (node: string) => readonly string[], isRoot: (node: string) => boolean, limit = 8): string[][] {
  const chains: string[][] = [];
  const queue: string[][] = [[target]];
  let steps = 0;
  while (queue.length > 0 && chains.length < limit && steps++ < 10_000) {
    const chain = queue.shift() as string[];
    const head = chain[0];
    const ups = parents(head).filter((p) => !chain.includes(p));
    if (isRoot(head) || ups.length === 0) {
      chains.push(chain);
      if (ups.length === 0) continue;
    }
    if (chain.length >= 256) continue;
    for (const up of ups) if (queue.length < 10_000) queue.push([up, ...chain]);
  }
  return chains;
}
