import { packageTables, parseToml } from './toml';
import { asString, markDirect, type TJson, type TLockedPackage, type TPackageSource, type TParsedLockfile } from './locked-package';

/**
 * Cargo.lock (versions 1 to 4). `[[package]]` tables without a `source` are the workspace's own
 * crates (and path dependencies): their dependencies are the direct ones. A dependency is written
 * "name", "name version" or "name version (source)", the longer forms only where one name is
 * locked at several versions.
 */
export function parseCargoLock(text: string): TParsedLockfile {
  const doc: TJson = parseToml(text);
  const tables = packageTables(doc);
  const packages: TLockedPackage[] = [];
  const byName = new Map<string, TLockedPackage[]>();
  const members: TJson[] = [];
  const pending: Array<[TLockedPackage, TJson]> = [];
  for (const table of tables) {
    const name = asString(table.name);
    const version = asString(table.version);
    if (name === undefined || version === undefined) continue;
    const source = asString(table.source);
    if (source === undefined) {
      members.push(table);
      continue;
    }
    const pkg: TLockedPackage = { key: `${name}@${version}`, ecosystem: 'crates.io', name, version, source: sourceOf(source), deps: [] };
    packages.push(pkg);
    byName.set(name, [...(byName.get(name) ?? []), pkg]);
    pending.push([pkg, table]);
  }
  const resolve = (table: TJson): string[] =>
    (Array.isArray(table.dependencies) ? table.dependencies : []).flatMap((dep) => {
      const [name, version] = String(dep).split(' ');
      const candidates = byName.get(name) ?? [];
      return candidates.filter((p) => version === undefined || p.version === version).map((p) => p.key);
    });
  for (const [pkg, table] of pending) pkg.deps = resolve(table);
  return { packages, knowsDirect: markDirect(packages, members.length > 0 ? new Set(members.flatMap(resolve)) : undefined) };
}

function sourceOf(source: string): TPackageSource {
  if (source.startsWith('registry+') || source.startsWith('sparse+')) return 'registry';
  if (source.startsWith('git+')) return 'git';
  if (source.startsWith('path+')) return 'path';
  return 'other';
}
