import { asObject, asString, lineIndex, markDirect, type TJson, type TLockedPackage, type TPackageSource, type TParsedLockfile, type TSiblings } from './locked-package';

/**
 * package-lock.json / npm-shrinkwrap.json, every layout:
 * - v2 and v3 (npm >= 7): `packages` keyed by install path ("node_modules/a/node_modules/b"),
 *   "" being the project and other paths without node_modules being workspace folders;
 * - v1 (npm 5-6): a `dependencies` tree nested the way node_modules is, edges in `requires`.
 * The v1 tree is flattened into the v2 shape, so both resolve dependencies the way Node does:
 * from the dependent's own node_modules up to the root's. The project's direct dependencies are
 * the root's (and each workspace's) in v2/v3; v1 does not record them, so they come from the
 * package.json beside the lockfile when there is one.
 */
export function parseNpmLock(text: string, siblings: TSiblings): TParsedLockfile {
  const doc = asObject(JSON.parse(text));
  if (doc === undefined) throw new Error('a package-lock.json must be a JSON object');
  const packages = asObject(doc.packages);
  if (packages !== undefined) return fromInstallPaths(packages as Record<string, TJson>, text, undefined);
  const flat: Record<string, TJson> = { '': { dependencies: manifestDependencies(siblings['package.json']) ?? {} } };
  flattenV1(asObject(doc.dependencies) ?? {}, '', flat);
  const rootKnown = siblings['package.json'] !== undefined;
  return fromInstallPaths(flat, text, rootKnown ? undefined : false);
}

const DEP_FIELDS = ['dependencies', 'optionalDependencies', 'peerDependencies', 'devDependencies'] as const;

/** Names a v1 entry or the manifest depends on, in the v2 `dependencies` shape. */
function manifestDependencies(manifest: string | undefined): TJson | undefined {
  if (manifest === undefined) return undefined;
  try {
    const doc = asObject(JSON.parse(manifest)) ?? {};
    return Object.assign({}, ...DEP_FIELDS.map((field) => asObject(doc[field]) ?? {}));
  } catch {
    return undefined;
  }
}

function flattenV1(deps: TJson, parentPath: string, out: Record<string, TJson>): void {
  for (const [name, value] of Object.entries(deps)) {
    const entry = asObject(value);
    if (entry === undefined) continue;
    const installPath = parentPath === '' ? `node_modules/${name}` : `${parentPath}/node_modules/${name}`;
    const version = asString(entry.version) ?? '';
    // v1 writes an aliased dependency as "npm:<real name>@<version>".
    const alias = /^npm:((?:@[^/@]+\/)?[^@]+)@(.+)$/.exec(version);
    out[installPath] = {
      version: alias ? alias[2] : version,
      ...(alias ? { name: alias[1] } : {}),
      resolved: entry.resolved ?? (alias ? undefined : version),
      dependencies: asObject(entry.requires) ?? {},
    };
    flattenV1(asObject(entry.dependencies) ?? {}, installPath, out);
  }
}

function nameFromPath(installPath: string): string {
  return installPath.slice(installPath.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

function sourceOf(version: string, resolved: string | undefined): TPackageSource {
  const where = resolved ?? version;
  if (/^(git\+|git:|github:|gitlab:|bitbucket:)/.test(where) || /^(git|github|gitlab|bitbucket)[:+]/.test(version)) return 'git';
  if (/^(file:|link:)/.test(where)) return 'path';
  if (/^https?:/.test(where) && !/\.tgz(\?|$)/.test(where)) return 'other';
  return 'registry';
}

/** The line of each `"node_modules/...": {` key (v2/v3), found in one pass over the text. */
function installPathLines(text: string): Map<string, number> {
  const lineOf = lineIndex(text);
  const lines = new Map<string, number>();
  for (const m of text.matchAll(/"((?:[^"\\\n]|\\.)*node_modules\/(?:[^"\\\n]|\\.)*)":\s*\{/g)) {
    if (!lines.has(m[1])) lines.set(m[1], lineOf(m.index ?? 0));
  }
  return lines;
}

/** The install path Node would load `dep` from when required by the package at `from`. */
function resolve(all: Record<string, TJson>, from: string, dep: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = base === '' ? `node_modules/${dep}` : `${base}/node_modules/${dep}`;
    if (all[candidate] !== undefined) return candidate;
    if (base === '') return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut >= 0 ? base.slice(0, cut) : '';
  }
}

function dependencyNames(entry: TJson): string[] {
  return [...new Set(DEP_FIELDS.flatMap((field) => Object.keys(asObject(entry[field]) ?? {})))];
}

/**
 * Builds the packages from install paths. `rootKnown` false means the root's dependencies are
 * not known (v1 without a package.json beside it).
 */
function fromInstallPaths(all: Record<string, TJson>, text: string, rootKnown: false | undefined): TParsedLockfile {
  const lines = installPathLines(text);
  const packages: TLockedPackage[] = [];
  const byPath = new Map<string, TLockedPackage>();
  for (const [installPath, value] of Object.entries(all)) {
    const entry = asObject(value);
    // "" is the project and paths outside node_modules are workspace folders: our own code.
    if (entry === undefined || !installPath.includes('node_modules/') || entry.link === true) continue;
    const version = asString(entry.version);
    if (version === undefined) continue;
    const line = lines.get(installPath);
    const pkg: TLockedPackage = {
      key: installPath,
      ecosystem: 'npm',
      name: asString(entry.name) ?? nameFromPath(installPath),
      version,
      source: sourceOf(version, asString(entry.resolved)),
      deps: [],
      ...(line !== undefined ? { line } : {}),
    };
    packages.push(pkg);
    byPath.set(installPath, pkg);
  }
  const direct = new Set<string>();
  for (const [installPath, value] of Object.entries(all)) {
    const entry = asObject(value);
    if (entry === undefined) continue;
    const isProject = !installPath.includes('node_modules/') && entry.link !== true;
    const from = byPath.get(installPath);
    if (from === undefined && !isProject) continue;
    for (const dep of dependencyNames(entry)) {
      const target = resolve(all, installPath, dep);
      if (target === undefined || !byPath.has(target)) continue;
      if (from) from.deps.push(target);
      else direct.add(target);
    }
  }
  return { packages, knowsDirect: rootKnown === false ? false : markDirect(packages, direct) };
}
