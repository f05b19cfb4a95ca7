import { parse as parseYaml } from 'yaml';
import { asObject, asString, markDirect, type TJson, type TLockedPackage, type TPackageSource, type TParsedLockfile } from './locked-package';

/**
 * pnpm-lock.yaml, lockfile versions 5.x, 6.x and 9.x. Packages are keyed
 *   5.x  "/name/1.2.3" or "/@scope/name/1.2.3_peer@2.0.0"
 *   6.x  "/name@1.2.3" or "/@scope/name@1.2.3(peer@2.0.0)"
 *   9.x  "name@1.2.3" in `packages`, with the dependency edges under `snapshots`.
 * Peer-dependency variants of one release are one package here: advisories speak of releases.
 * Direct dependencies are the `importers` (workspace projects) or, before workspaces, the
 * top-level dependencies.
 */
export function parsePnpmLock(text: string): TParsedLockfile {
  const doc = asObject(parseYaml(text, { maxAliasCount: 1000 })) ?? {};
  const slashStyle = Number.parseFloat(String(doc.lockfileVersion ?? '9')) < 6;
  const packages = new Map<string, TLockedPackage>();
  const ensure = (ref: TPackageRef, entry: TJson | undefined): TLockedPackage => {
    const key = `${ref.name}@${ref.version}`;
    let pkg = packages.get(key);
    if (pkg === undefined) {
      pkg = { key, ecosystem: 'npm', name: ref.name, version: ref.version, source: 'registry', deps: [] };
      packages.set(key, pkg);
    }
    if (entry !== undefined) pkg.source = sourceOf(entry, pkg.source);
    return pkg;
  };
  const edges: Array<[TLockedPackage, TJson]> = [];
  for (const section of ['packages', 'snapshots']) {
    for (const [key, value] of Object.entries(asObject(doc[section]) ?? {})) {
      const entry = asObject(value) ?? {};
      const ref = explicitRef(entry) ?? parseKey(key, slashStyle);
      if (ref === undefined) continue;
      const pkg = ensure(ref, section === 'packages' ? entry : undefined);
      edges.push([pkg, entry]);
    }
  }
  const targetsOf = (deps: TJson): string[] =>
    Object.entries(deps).flatMap(([name, value]) => {
      const version = typeof value === 'string' ? value : asString(asObject(value)?.version);
      const ref = version === undefined ? undefined : dependencyRef(name, version, slashStyle);
      const key = ref === undefined ? undefined : `${ref.name}@${ref.version}`;
      return key !== undefined && packages.has(key) ? [key] : [];
    });
  for (const [pkg, entry] of edges) {
    for (const field of ['dependencies', 'optionalDependencies']) pkg.deps.push(...targetsOf(asObject(entry[field]) ?? {}));
  }
  const direct = new Set<string>();
  const importers = asObject(doc.importers) ?? { '.': doc };
  for (const importer of Object.values(importers)) {
    for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
      for (const key of targetsOf(asObject(asObject(importer)?.[field]) ?? {})) direct.add(key);
    }
  }
  const list = [...packages.values()];
  for (const pkg of list) pkg.deps = [...new Set(pkg.deps)];
  return { packages: list, knowsDirect: markDirect(list, direct) };
}

type TPackageRef = { name: string; version: string };

/** Tarball and git packages carry their name and version in the entry. */
function explicitRef(entry: TJson): TPackageRef | undefined {
  const name = asString(entry.name);
  const version = asString(entry.version);
  return name !== undefined && version !== undefined ? { name, version } : undefined;
}

function sourceOf(entry: TJson, current: TPackageSource): TPackageSource {
  const resolution = asObject(entry.resolution) ?? {};
  if (resolution.type === 'git' || asString(resolution.repo) !== undefined) return 'git';
  if (resolution.type === 'directory') return 'path';
  const tarball = asString(resolution.tarball);
  if (tarball !== undefined && /^file:/.test(tarball)) return 'path';
  if (tarball !== undefined && /codeload\.github\.com|gitlab\.com\/.*\/-\/archive/.test(tarball)) return 'git';
  return current;
}

/** 6.x and 9.x append peers in parentheses ("1.2.3(react@18.2.0)"). */
function stripParens(text: string): string {
  const paren = text.indexOf('(');
  return paren > 0 ? text.slice(0, paren) : text;
}

/** 5.x appends peers after "_" ("1.2.3_react@18.2.0"); a version never holds "_", a name may. */
function stripUnderscorePeers(version: string): string {
  return version.split('_')[0];
}

function parseKey(key: string, slashStyle: boolean): TPackageRef | undefined {
  const k = stripParens(key.startsWith('/') ? key.slice(1) : key);
  if (slashStyle) {
    const slash = k.lastIndexOf('/');
    if (slash > 0) return { name: k.slice(0, slash), version: stripUnderscorePeers(k.slice(slash + 1)) };
  }
  const at = k.lastIndexOf('@');
  return at > 0 ? { name: k.slice(0, at), version: k.slice(at + 1) } : undefined;
}

/**
 * A dependency's version as pnpm writes it: "1.2.3", "1.2.3(peer@1.0.0)", "1.2.3_peer@1.0.0", an
 * alias as a full key ("/string-width/4.2.3", "string-width@4.2.3"), or "link:../pkg" (a
 * workspace folder, not a package).
 */
function dependencyRef(name: string, version: string, slashStyle: boolean): TPackageRef | undefined {
  if (version.startsWith('link:') || version.startsWith('file:')) return undefined;
  const bare = slashStyle ? stripUnderscorePeers(stripParens(version)) : stripParens(version);
  if (/^\d/.test(bare)) return { name, version: bare };
  return parseKey(version, slashStyle);
}
