import type { TTarget } from '@palisade/contracts';

/**
 * Lockfiles and manifests a dependency scan can read, by exact base name. Lockfiles come first
 * in the list so that, when a repository has both, the reason names the lockfile (the file sca
 * prefers, because it pins versions).
 */
const SCA_FILES = [
  'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lock',
  'poetry.lock', 'Pipfile.lock', 'uv.lock', 'pdm.lock', 'go.sum', 'Cargo.lock', 'Gemfile.lock',
  'composer.lock', 'packages.lock.json', 'mix.lock', 'pubspec.lock', 'Podfile.lock', 'gradle.lockfile',
  'package.json', 'pyproject.toml', 'Pipfile', 'setup.py', 'go.mod', 'Cargo.toml', 'Gemfile',
  'composer.json', 'pom.xml', 'build.gradle', 'build.gradle.kts', 'build.sbt', 'mix.exs', 'pubspec.yaml',
];
const SCA_RANK = new Map(SCA_FILES.map((name, i) => [name, i]));
/** requirements.txt, requirements-dev.txt, requirements/prod.txt and the like. */
const isRequirements = (path: string, base: string) => /^requirements[\w.-]*\.txt$/.test(base) || /(^|\/)requirements\/[\w.-]+\.txt$/.test(path);

const REQUIREMENTS_RANK = SCA_FILES.indexOf('Pipfile.lock') + 0.5;
/** .NET projects: NuGet references live in the project file. */
const DOTNET_PROJECT = /\.(csproj|fsproj|vbproj)$/;

/**
 * The files the built-in sca reads (`@palisade/scanners` src/sca/): lockfiles, plus go.mod and
 * pinned requirements files, which name exact versions. Manifests that only name ranges
 * (package.json, pom.xml, Cargo.toml...) cannot be matched against advisories without a
 * resolver, so a repository that has only those does not get sca: a "succeeded" dependency scan
 * that read nothing would tell the reader the dependencies were checked.
 */
export const BUILTIN_SCA_LOCKFILES = [
  'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'poetry.lock', 'uv.lock', 'pdm.lock',
  'Pipfile.lock', 'go.mod', 'go.sum', 'Cargo.lock', 'Gemfile.lock', 'composer.lock', 'gradle.lockfile',
] as const;
const BUILTIN_SCA_SET = new Set<string>(BUILTIN_SCA_LOCKFILES);

/** Whether the built-in sca reads this file (a relative, `/`-separated path). */
export function isBuiltinScaFile(path: string): boolean {
  const base = baseName(path);
  return BUILTIN_SCA_SET.has(base) || isRequirements(path, base);
}

type TIacKind = { what: string; test: (path: string, base: string) => boolean };

/** The order is the order of preference for the reason line; the first kind found is named. */
const IAC_KINDS: TIacKind[] = [
  { what: 'Kubernetes manifest', test: (p, base) => isKubernetesPath(p, base) },
  { what: 'Dockerfile', test: (_p, base) => /^(dockerfile|containerfile)(\..+)?$/i.test(base) || /\.(dockerfile|containerfile)$/i.test(base) },
  { what: 'compose file', test: (_p, base) => /^(docker-)?compose([.-][\w.-]+)?\.ya?ml$/i.test(base) },
  { what: 'Terraform', test: (_p, base) => /\.tf(\.json)?$/.test(base) },
];

/** Directories whose YAML is, by convention, Kubernetes (raw manifests, kustomize, Helm charts). */
const KUBERNETES_DIRS = /(^|\/)(k8s|kube|kubernetes|manifests|deploy|deployment|deployments|kustomize|overlays|charts|helm)\//i;
const KUBERNETES_FILES = /^(kustomization\.ya?ml|chart\.yaml)$|\.k8s\.ya?ml$/i;

function isKubernetesPath(path: string, base: string): boolean {
  if (KUBERNETES_FILES.test(base)) return true;
  return /\.ya?ml$/i.test(base) && KUBERNETES_DIRS.test(path) && !/(^|\/)\.github\//.test(path);
}

export interface TAutomaticPlan {
  tools: string[];
  /** One line per decision, e.g. "sca: found package-lock.json". */
  reason: string[];
}

/** Paths inside vendored dependencies say nothing about the repository's own stack. */
function isVendored(path: string): boolean {
  return /(^|\/)(node_modules|vendor|\.git|third_party)\//.test(path);
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function pickScaFile(files: readonly string[]): string | undefined {
  let best: { path: string; rank: number } | undefined;
  for (const path of files) {
    const base = baseName(path);
    const rank = SCA_RANK.get(base) ?? (isRequirements(path, base) ? REQUIREMENTS_RANK : DOTNET_PROJECT.test(base) ? SCA_FILES.length : undefined);
    // Shallower paths win ties, so the reason names the root lockfile rather than a fixture's.
    if (rank !== undefined && (!best || rank < best.rank || (rank === best.rank && depth(path) < depth(best.path)))) best = { path, rank };
  }
  return best?.path;
}

function depth(path: string): number {
  return path.split('/').length;
}

function planRepository(files: readonly string[] | undefined): TAutomaticPlan {
  const tools = ['secrets'];
  const reason = ['secrets: always run on a repository'];
  if (files === undefined) {
    reason.push('sca, iac: repository files not listed, so not chosen');
    return { tools, reason };
  }
  const own = files.map((f) => f.replace(/^\.\//, '')).filter((f) => !isVendored(f));
  const notChosen: string[] = [];
  const scaFile = pickScaFile(own.filter(isBuiltinScaFile));
  const manifest = scaFile ? undefined : pickScaFile(own);
  if (scaFile) {
    tools.push('sca');
    reason.push(`sca: found ${scaFile}`);
  } else if (manifest) {
    notChosen.push(`sca: found ${manifest} but no lockfile the built-in sca reads, so not chosen; commit a lockfile or name an external SCA tool`);
  }
  for (const kind of IAC_KINDS) {
    const match = own.find((path) => kind.test(path, baseName(path)));
    if (match) {
      tools.push('iac');
      reason.push(baseName(match) === kind.what ? `iac: found ${match}` : `iac: found ${match} (${kind.what})`);
      break;
    }
  }
  return { tools, reason: [...reason, ...notChosen] };
}

/**
 * The tools an automatic plan runs, from the target kind and, for a repository, the paths of its
 * checkout (relative, `/`-separated). Pure: the caller lists the files (the worker, after cloning).
 * `reason` says why each tool was chosen, in the order of `tools`, then why a candidate was not.
 * The plan says what a target calls for; a built-in tool this deployment cannot run on it ends
 * `skipped` with the reason (builtinToolSkipReason), so the scan shows what was not checked.
 */
export function planAutomatic(target: Pick<TTarget, 'kind'>, repoFiles?: readonly string[]): TAutomaticPlan {
  switch (target.kind) {
    case 'repository':
      return planRepository(repoFiles);
    case 'image':
      return { tools: ['image', 'sca'], reason: ['image: container image target', 'sca: packages installed in the image'] };
    case 'kubernetes':
      return { tools: ['kubernetes'], reason: ['kubernetes: cluster target'] };
    case 'url':
      return { tools: ['dast'], reason: ['dast: URL target'] };
    case 'sbom':
      return { tools: ['sca'], reason: ['sca: SBOM target'] };
    default:
      return { tools: [], reason: [`${target.kind}: no built-in tool applies to this target kind; name the tools explicitly`] };
  }
}
