import { packageTables, parseToml } from './toml';
import { matchKey } from '../ecosystems';
import { asObject, asString, markDirect, type TJson, type TLockedPackage, type TPackageSource, type TParsedLockfile, type TSiblings } from './locked-package';

/**
 * The TOML lockfiles of Python: poetry.lock, uv.lock and pdm.lock. All three list
 * `[[package]]` tables with a name and a version; they differ in how dependencies are written:
 *   poetry  [package.dependencies] name = "constraint" | {version = ...} | [...]
 *   uv      dependencies = [{ name = "x" }, { name = "y", version = "1.0", marker = "..." }]
 *   pdm     dependencies = ["requests>=2.0", "idna<4,>=2.5"]
 * uv records the project itself (source `editable`/`virtual`), whose dependencies are the direct
 * ones; for poetry and pdm they come from the pyproject.toml beside the lockfile.
 * uv may lock one name at several versions (forks by marker): edges without a version go to each.
 */
export function parsePythonTomlLock(text: string, siblings: TSiblings): TParsedLockfile {
  const doc: TJson = parseToml(text);
  const tables = packageTables(doc);
  const packages: TLockedPackage[] = [];
  const byName = new Map<string, TLockedPackage[]>();
  const projects: TJson[] = [];
  const pending: Array<[TLockedPackage, TJson]> = [];
  for (const table of tables) {
    const name = asString(table.name);
    const version = asString(table.version);
    if (name === undefined) continue;
    const source = asObject(table.source) ?? {};
    // uv writes the project and its workspace members as editable or virtual sources.
    if (source.editable !== undefined || source.virtual !== undefined) {
      projects.push(table);
      continue;
    }
    if (version === undefined) continue;
    const pkg: TLockedPackage = { key: `${pythonKey(name)}@${version}`, ecosystem: 'PyPI', name, version, source: sourceOf(source), deps: [] };
    packages.push(pkg);
    const list = byName.get(pythonKey(name)) ?? [];
    list.push(pkg);
    byName.set(pythonKey(name), list);
    pending.push([pkg, table]);
  }
  const resolve = (refs: TDepRef[]): string[] =>
    refs.flatMap((ref) => (byName.get(pythonKey(ref.name)) ?? []).filter((p) => ref.version === undefined || p.version === ref.version).map((p) => p.key));
  for (const [pkg, table] of pending) pkg.deps = [...new Set(resolve(dependencyRefs(table)))];
  let direct: Set<string> | undefined;
  if (projects.length > 0) direct = new Set(resolve(projects.flatMap(dependencyRefs)));
  else {
    const names = pyprojectDependencies(siblings['pyproject.toml']);
    if (names !== undefined) direct = new Set(resolve(names.map((name) => ({ name }))));
  }
  return { packages, knowsDirect: markDirect(packages, direct) };
}

type TDepRef = { name: string; version?: string };

function pythonKey(name: string): string {
  return matchKey('PyPI', name);
}

function sourceOf(source: TJson): TPackageSource {
  const type = asString(source.type);
  if (type === 'git' || source.git !== undefined) return 'git';
  if (type === 'directory' || type === 'file' || source.path !== undefined || source.directory !== undefined || source.editable !== undefined) return 'path';
  if (type === 'url' || source.url !== undefined) return 'other';
  return 'registry';
}

/** The project name at the start of a PEP 508 requirement ("requests[socks]>=2; python_version<'3'"). */
export function requirementName(requirement: string): string | undefined {
  return /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)/.exec(requirement)?.[1];
}

function dependencyRefs(table: TJson): TDepRef[] {
  const refs: TDepRef[] = [];
  const add = (value: unknown) => {
    if (typeof value === 'string') {
      const name = requirementName(value);
      if (name) refs.push({ name });
    } else if (Array.isArray(value)) {
      for (const item of value) {
        const o = asObject(item);
        const name = o === undefined ? undefined : asString(o.name);
        if (o === undefined) add(item);
        else if (name) refs.push({ name, ...(asString(o.version) ? { version: asString(o.version) } : {}) });
      }
    }
  };
  const deps = table.dependencies;
  // poetry: a table of name → constraint.
  if (asObject(deps) !== undefined) for (const name of Object.keys(asObject(deps) ?? {})) refs.push({ name });
  else add(deps);
  for (const field of ['optional-dependencies', 'dev-dependencies']) for (const group of Object.values(asObject(table[field]) ?? {})) add(group);
  return refs;
}

/** Direct dependency names in a pyproject.toml: PEP 621, PEP 735 groups, Poetry and PDM tables. */
function pyprojectDependencies(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  let doc: TJson;
  try {
    doc = parseToml(text);
  } catch {
    return undefined;
  }
  const names: string[] = [];
  const fromList = (list: unknown) => {
    for (const item of Array.isArray(list) ? list : []) {
      const name = typeof item === 'string' ? requirementName(item) : undefined;
      if (name) names.push(name);
    }
  };
  const fromTable = (table: unknown) => names.push(...Object.keys(asObject(table) ?? {}).filter((name) => name.toLowerCase() !== 'python'));
  const project = asObject(doc.project) ?? {};
  fromList(project.dependencies);
  for (const group of Object.values(asObject(project['optional-dependencies']) ?? {})) fromList(group);
  for (const group of Object.values(asObject(doc['dependency-groups']) ?? {})) fromList(group);
  const tool = asObject(doc.tool) ?? {};
  const poetry = asObject(tool.poetry) ?? {};
  fromTable(poetry.dependencies);
  fromTable(poetry['dev-dependencies']);
  for (const group of Object.values(asObject(poetry.group) ?? {})) fromTable(asObject(group)?.dependencies);
  for (const group of Object.values(asObject(asObject(tool.pdm)?.['dev-dependencies']) ?? {})) fromList(group);
  return names;
}
