import { asObject, asString, type TLockedPackage, type TParsedLockfile } from './locked-package';

/**
 * Pipfile.lock (pipenv): `default` and `develop` map names to `{version: "==1.2.3", hashes}`;
 * git and path entries carry `git`/`path` instead of a version. The lockfile keeps no graph and
 * does not say which packages the Pipfile named, so each package is its own dependency path.
 */
export function parsePipfileLock(text: string): TParsedLockfile {
  const doc = asObject(JSON.parse(text));
  if (doc === undefined) throw new Error('a Pipfile.lock must be a JSON object');
  const packages = new Map<string, TLockedPackage>();
  for (const section of ['default', 'develop']) {
    for (const [name, value] of Object.entries(asObject(doc[section]) ?? {})) {
      const entry = asObject(value) ?? {};
      const pinned = /^===?\s*(\S+)$/.exec(asString(entry.version) ?? '');
      const git = asString(entry.git) !== undefined;
      const local = asString(entry.path) !== undefined || asString(entry.file) !== undefined;
      if (!pinned && !git && !local) continue;
      const version = pinned?.[1] ?? asString(entry.ref) ?? '';
      const key = `${name.toLowerCase()}@${version}`;
      if (!packages.has(key)) packages.set(key, { key, ecosystem: 'PyPI', name, version, source: git ? 'git' : local ? 'path' : 'registry', deps: [] });
    }
  }
  return { packages: [...packages.values()], knowsDirect: false };
}
