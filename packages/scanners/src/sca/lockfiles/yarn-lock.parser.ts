import { parse as parseYaml } from 'yaml';
import { asObject, asString, markDirect, type TJson, type TLockedPackage, type TPackageSource, type TParsedLockfile, type TSiblings } from './locked-package';

/**
 * yarn.lock. Classic (v1) is yarn's own indented format; Berry (yarn >= 2) is YAML with a
 * `__metadata` entry. Either way an entry is keyed by every "name@range" that resolved to it,
 * and dependencies are written as name + range, so edges are found by that same spelling.
 * Direct dependencies: Berry records the workspaces themselves (`@workspace:`); for classic they
 * come from the package.json beside the lockfile, when there is one.
 */
export function parseYarnLock(text: string, siblings: TSiblings): TParsedLockfile {
  return /^__metadata:/m.test(text) ? parseBerry(text) : parseClassic(text, siblings);
}

/** "name@range" → [name, range]; the name may be scoped ("@babel/core@^7.0.0"). */
export function splitSpecifier(spec: string): [string, string] | undefined {
  const at = spec.indexOf('@', 1);
  return at <= 0 ? undefined : [spec.slice(0, at), spec.slice(at + 1)];
}

function unquote(s: string): string {
  const t = s.trim();
  return t.startsWith('"') && t.endsWith('"') && t.length >= 2 ? t.slice(1, -1) : t;
}

function sourceOf(resolved: string | undefined): TPackageSource {
  if (resolved === undefined) return 'registry';
  if (/^(git\+|git:|github:|ssh:)/.test(resolved) || /codeload\.github\.com|\.git(#|$)/.test(resolved)) return 'git';
  if (/^(file:|link:|portal:)/.test(resolved)) return 'path';
  return 'registry';
}

type TClassicEntry = { specs: string[]; line: number; fields: Map<string, string>; deps: Array<[string, string]> };

function readClassicEntries(text: string): TClassicEntry[] {
  const entries: TClassicEntry[] = [];
  let current: TClassicEntry | undefined;
  let inDeps = false;
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) return;
    const indent = raw.length - raw.trimStart().length;
    const line = raw.trim();
    if (indent === 0) {
      current = line.endsWith(':') ? { specs: line.slice(0, -1).split(/,\s*/).map(unquote), line: i + 1, fields: new Map(), deps: [] } : undefined;
      if (current) entries.push(current);
      inDeps = false;
      return;
    }
    if (current === undefined) return;
    if (indent <= 2) {
      inDeps = line === 'dependencies:' || line === 'optionalDependencies:';
      const m = /^("?[^"\s]+"?)\s+(.+)$/.exec(line);
      if (!inDeps && m) current.fields.set(unquote(m[1]), unquote(m[2]));
      return;
    }
    if (inDeps) {
      const m = /^("(?:[^"\\]|\\.)+"|\S+)\s+(.+)$/.exec(line);
      if (m) current.deps.push([unquote(m[1]), unquote(m[2])]);
    }
  });
  return entries;
}

function parseClassic(text: string, siblings: TSiblings): TParsedLockfile {
  const bySpec = new Map<string, TLockedPackage>();
  const packages: TLockedPackage[] = [];
  const pending: Array<[TLockedPackage, Array<[string, string]>]> = [];
  for (const entry of readClassicEntries(text)) {
    const first = splitSpecifier(entry.specs[0] ?? '');
    const version = entry.fields.get('version');
    if (first === undefined || version === undefined) continue;
    // An alias "alias@npm:real@^1" installs the package "real".
    const aliased = first[1].startsWith('npm:') ? splitSpecifier(first[1].slice(4)) : undefined;
    const pkg: TLockedPackage = {
      key: entry.specs[0],
      ecosystem: 'npm',
      name: aliased?.[0] ?? first[0],
      version,
      source: sourceOf(entry.fields.get('resolved')),
      deps: [],
      line: entry.line,
    };
    packages.push(pkg);
    for (const spec of entry.specs) bySpec.set(spec, pkg);
    pending.push([pkg, entry.deps]);
  }
  for (const [pkg, deps] of pending) {
    for (const [name, range] of deps) {
      const target = bySpec.get(`${name}@${range}`);
      if (target) pkg.deps.push(target.key);
    }
  }
  return { packages, knowsDirect: markDirect(packages, manifestDirect(siblings['package.json'], bySpec)) };
}

function manifestDirect(manifest: string | undefined, bySpec: Map<string, TLockedPackage>): Set<string> | undefined {
  if (manifest === undefined) return undefined;
  let doc: TJson;
  try {
    doc = asObject(JSON.parse(manifest)) ?? {};
  } catch {
    return undefined;
  }
  const direct = new Set<string>();
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) {
    for (const [name, range] of Object.entries(asObject(doc[field]) ?? {})) {
      const target = bySpec.get(`${name}@${String(range)}`) ?? bySpec.get(`${name}@npm:${String(range)}`);
      if (target) direct.add(target.key);
    }
  }
  return direct;
}

/** Berry's `resolution` ("lodash@npm:4.17.21", "app@workspace:.") → name and protocol. */
function berryResolution(resolution: string): { name: string; protocol: string } | undefined {
  const split = splitSpecifier(resolution);
  if (split === undefined) return undefined;
  const colon = split[1].indexOf(':');
  return { name: split[0], protocol: colon > 0 ? split[1].slice(0, colon) : 'npm' };
}

function parseBerry(text: string): TParsedLockfile {
  const doc = asObject(parseYaml(text, { maxAliasCount: 1000 })) ?? {};
  const bySpec = new Map<string, TLockedPackage>();
  const packages: TLockedPackage[] = [];
  const workspaces: TJson[] = [];
  const pending: Array<[TLockedPackage, TJson]> = [];
  for (const [keys, value] of Object.entries(doc)) {
    const entry = asObject(value);
    if (keys === '__metadata' || entry === undefined) continue;
    const resolution = berryResolution(asString(entry.resolution) ?? keys.split(',')[0].trim());
    if (resolution === undefined) continue;
    if (resolution.protocol === 'workspace') {
      workspaces.push(entry);
      continue;
    }
    const version = asString(entry.version) ?? (typeof entry.version === 'number' ? String(entry.version) : undefined);
    if (version === undefined) continue;
    const pkg: TLockedPackage = {
      key: keys,
      ecosystem: 'npm',
      name: resolution.name,
      version,
      // A patch of a registry package is still that release.
      source: resolution.protocol === 'npm' || resolution.protocol === 'patch' ? 'registry' : resolution.protocol === 'git' || resolution.protocol.startsWith('git') ? 'git' : 'other',
      deps: [],
    };
    packages.push(pkg);
    for (const spec of keys.split(',')) bySpec.set(spec.trim(), pkg);
    pending.push([pkg, entry]);
  }
  const targets = (entry: TJson): string[] =>
    ['dependencies', 'optionalDependencies', 'peerDependencies'].flatMap((field) =>
      Object.entries(asObject(entry[field]) ?? {}).flatMap(([name, range]) => {
        const target = bySpec.get(`${name}@${String(range)}`) ?? bySpec.get(`${name}@npm:${String(range)}`);
        return target ? [target.key] : [];
      }),
    );
  for (const [pkg, entry] of pending) pkg.deps.push(...targets(entry));
  const direct = new Set(workspaces.flatMap(targets));
  return { packages, knowsDirect: markDirect(packages, workspaces.length > 0 ? direct : undefined) };
}
