import { asObject, asString, markDirect, type TJson, type TLockedPackage, type TPackageSource, type TParsedLockfile, type TSiblings } from './locked-package';

/**
 * composer.lock: `packages` and `packages-dev`, each with `require` edges by name. Platform
 * requirements (php, ext-*, lib-*, composer-*) are not packages. Branch versions ("dev-main",
 * "2.x-dev") are not releases an advisory range can speak of. Direct dependencies come from the
 * composer.json beside the lockfile, when there is one.
 */
const PLATFORM = /^(php(-64bit|-ipv6|-zts|-debug)?|hhvm|ext-.+|lib-.+|composer(-plugin|-runtime)?-api|composer)$/i;

export function parseComposerLock(text: string, siblings: TSiblings): TParsedLockfile {
  const doc = asObject(JSON.parse(text));
  if (doc === undefined) throw new Error('a composer.lock must be a JSON object');
  const packages = new Map<string, TLockedPackage>();
  const pending: Array<[TLockedPackage, TJson]> = [];
  for (const section of ['packages', 'packages-dev']) {
    for (const value of Array.isArray(doc[section]) ? doc[section] : []) {
      const entry = asObject(value) ?? {};
      const name = asString(entry.name);
      const version = asString(entry.version);
      if (name === undefined || version === undefined) continue;
      const key = name.toLowerCase();
      if (packages.has(key)) continue;
      const pkg: TLockedPackage = { key, ecosystem: 'Packagist', name, version, source: sourceOf(version, entry), deps: [] };
      packages.set(key, pkg);
      pending.push([pkg, entry]);
    }
  }
  const targets = (require: unknown): string[] =>
    Object.keys(asObject(require) ?? {})
      .filter((name) => !PLATFORM.test(name))
      .map((name) => name.toLowerCase())
      .filter((key) => packages.has(key));
  for (const [pkg, entry] of pending) pkg.deps = targets(entry.require);
  const list = [...packages.values()];
  return { packages: list, knowsDirect: markDirect(list, manifestDirect(siblings['composer.json'], targets)) };
}

function sourceOf(version: string, entry: TJson): TPackageSource {
  if (/^dev-|\.x-dev$|-dev$/.test(version)) return 'git';
  const dist = asObject(entry.dist);
  if (asString(dist?.type) === 'path') return 'path';
  return 'registry';
}

function manifestDirect(manifest: string | undefined, targets: (require: unknown) => string[]): Set<string> | undefined {
  if (manifest === undefined) return undefined;
  try {
    const doc = asObject(JSON.parse(manifest)) ?? {};
    return new Set([...targets(doc.require), ...targets(doc['require-dev'])]);
  } catch {
    return undefined;
  }
}
