import { markDirect, type TLockedPackage, type TPackageSource, type TParsedLockfile } from './locked-package';

/**
 * Gemfile.lock (Bundler). Sections GEM (rubygems.org or another gem server), GIT and PATH each
 * list `specs:`: a gem at four spaces ("nokogiri (1.13.10-x86_64-linux)"), its dependencies at
 * six. DEPENDENCIES names what the Gemfile asks for (a trailing "!" marks a git/path source).
 * A platform suffix is not part of the version: Bundler writes prereleases as "1.0.0.pre1", so
 * everything after the first "-" is the platform.
 */
const SECTION_SOURCE: Record<string, TPackageSource> = { GEM: 'registry', GIT: 'git', PATH: 'path' };

export function parseGemfileLock(text: string): TParsedLockfile {
  const packages = new Map<string, TLockedPackage>();
  const byName = new Map<string, TLockedPackage>();
  const edges: Array<[TLockedPackage, string]> = [];
  const directNames: string[] = [];
  let section = '';
  let inSpecs = false;
  let current: TLockedPackage | undefined;
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === '') return;
    const indent = raw.length - raw.trimStart().length;
    const line = raw.trim();
    if (indent === 0) {
      section = line;
      inSpecs = false;
      return;
    }
    if (section === 'DEPENDENCIES' && indent === 2) {
      const name = /^([^\s!(]+)/.exec(line)?.[1];
      if (name) directNames.push(name);
      return;
    }
    const source = SECTION_SOURCE[section];
    if (source === undefined) return;
    if (indent === 2) {
      inSpecs = line === 'specs:';
      return;
    }
    if (!inSpecs) return;
    const m = /^([^\s(]+)(?:\s+\(([^)]*)\))?/.exec(line);
    if (!m) return;
    if (indent === 4 && m[2] !== undefined) {
      const version = m[2].split('-')[0];
      const key = `${m[1]}@${version}`;
      current = packages.get(key);
      if (current === undefined) {
        current = { key, ecosystem: 'RubyGems', name: m[1], version, source, deps: [], line: i + 1 };
        packages.set(key, current);
        byName.set(m[1], current);
      }
    } else if (indent >= 6 && current !== undefined) {
      edges.push([current, m[1]]);
    }
  });
  for (const [pkg, name] of edges) {
    const target = byName.get(name);
    if (target && !pkg.deps.includes(target.key)) pkg.deps.push(target.key);
  }
  const list = [...packages.values()];
  const direct = new Set(directNames.flatMap((name) => (byName.has(name) ? [(byName.get(name) as TLockedPackage).key] : [])));
  return { packages: list, knowsDirect: markDirect(list, directNames.length > 0 ? direct : undefined) };
}
