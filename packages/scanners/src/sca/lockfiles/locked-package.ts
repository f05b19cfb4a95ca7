import { lineIndexOf, lineStarts } from '../../text-lines';
import type { TEcosystem } from '../ecosystems';

/**
 * Where a locked package comes from. Only `registry` packages are matched against advisories:
 * OSV ranges speak of registry releases, and a git commit or a local folder with the same name
 * and version string is not that release.
 */
export type TPackageSource = 'registry' | 'git' | 'path' | 'other';

export type TLockedPackage = {
  /** Unique within its lockfile; what `deps` refer to. */
  key: string;
  ecosystem: TEcosystem;
  name: string;
  version: string;
  source: TPackageSource;
  /** Keys of the packages this one depends on, as far as the lockfile says. */
  deps: string[];
  /** Named by the project itself (package.json, go.mod without `// indirect`, DEPENDENCIES...). */
  direct?: boolean;
  /** 1-based line of the package's entry, where the format makes it cheap to know. */
  line?: number;
};

export type TParsedLockfile = {
  packages: TLockedPackage[];
  /**
   * True when `direct` was known for the packages (from the lockfile or the manifest beside it);
   * otherwise dependency paths start at packages nothing else depends on.
   */
  knowsDirect: boolean;
};

/** Manifests beside a lockfile that some parsers read for the direct dependencies, by base name. */
export type TSiblings = Readonly<Record<string, string | undefined>>;

export type TLockfileParser = (text: string, siblings: TSiblings) => TParsedLockfile;

export type TJson = Record<string, unknown>;

export function asObject(value: unknown): TJson | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as TJson) : undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** Line numbers of character offsets (1-based), by binary search over the line starts. */
export function lineIndex(text: string): (offset: number) => number {
  const starts = lineStarts(text);
  return (offset) => lineIndexOf(starts, offset) + 1;
}

/** Marks the packages whose key is in `direct`; the result says whether anything was known. */
export function markDirect(packages: TLockedPackage[], direct: ReadonlySet<string> | undefined): boolean {
  if (direct === undefined) return false;
  for (const pkg of packages) if (direct.has(pkg.key)) pkg.direct = true;
  return true;
}
