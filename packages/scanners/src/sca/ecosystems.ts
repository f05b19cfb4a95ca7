import { PackageURL } from 'packageurl-js';
import { compareGeneric } from './versions/generic-order';
import { comparePep440 } from './versions/pep440-order';
import { compareSemver } from './versions/semver-order';

/** OSV ecosystem names (https://ossf.github.io/osv-schema/#affectedpackage-field), spelled as OSV spells them. */
export const ECOSYSTEMS = ['npm', 'PyPI', 'Go', 'crates.io', 'RubyGems', 'Packagist', 'Maven'] as const;
export type TEcosystem = (typeof ECOSYSTEMS)[number];

export type TVersionOrder = (a: string, b: string) => number;

type TEcosystemRules = {
  purlType: string;
  order: TVersionOrder;
  /** The name as advisories and lockfiles must agree on it. */
  matchName: (name: string) => string;
};

const lower = (name: string) => name.toLowerCase();

const RULES: Record<TEcosystem, TEcosystemRules> = {
  // npm names are lower-case today, but older packages and some advisories are not
  // (GHSA-8hc4-vh64-cxmj names "Axios"); the registry treats them as one.
  npm: { purlType: 'npm', order: compareSemver, matchName: lower },
  // PEP 503 normalization: case and runs of "-", "_", "." do not distinguish projects.
  PyPI: { purlType: 'pypi', order: comparePep440, matchName: (name) => name.toLowerCase().replace(/[-_.]+/g, '-') },
  // Module paths are case-sensitive (the proxy escapes capitals), so they match exactly.
  Go: { purlType: 'golang', order: compareSemver, matchName: (name) => name },
  // crates.io refuses a crate whose name differs from another only in case or "-"/"_".
  'crates.io': { purlType: 'cargo', order: compareSemver, matchName: (name) => name.toLowerCase().replace(/_/g, '-') },
  RubyGems: { purlType: 'gem', order: compareGeneric, matchName: lower },
  Packagist: { purlType: 'composer', order: compareGeneric, matchName: lower },
  Maven: { purlType: 'maven', order: compareGeneric, matchName: (name) => name },
};

export function isEcosystem(value: string): value is TEcosystem {
  return (ECOSYSTEMS as readonly string[]).includes(value);
}

/**
 * The ecosystem of an OSV `affected[].package.ecosystem`, which may carry a suffix ("Debian:11",
 * "Ubuntu:Pro:22.04:LTS"); undefined for ecosystems no lockfile here yields. The match is exact,
 * as OSV tools have it: an npm package listed under another ecosystem (a revision of
 * GHSA-j8xg-fqg3-53r7 names "GitHub Actions" for word-wrap) is not an npm advisory.
 */
export function ecosystemOf(osvEcosystem: string): TEcosystem | undefined {
  const base = osvEcosystem.split(':')[0].trim();
  return isEcosystem(base) ? base : undefined;
}

export function versionOrder(ecosystem: TEcosystem): TVersionOrder {
  return RULES[ecosystem].order;
}

/** The key under which a package meets its advisories. */
export function matchKey(ecosystem: TEcosystem, name: string): string {
  return `${ecosystem}\u0000${RULES[ecosystem].matchName(name)}`;
}

/** The package URL of a locked package, or undefined when the name does not make one. */
export function packageUrl(ecosystem: TEcosystem, name: string, version: string | undefined): string | undefined {
  const type = RULES[ecosystem].purlType;
  let namespace: string | undefined;
  let short = name;
  const split = (sep: string) => {
    const at = name.lastIndexOf(sep);
    if (at > 0) {
      namespace = name.slice(0, at);
      short = name.slice(at + 1);
    }
  };
  if (ecosystem === 'npm' && name.startsWith('@')) split('/');
  else if (ecosystem === 'Go' || ecosystem === 'Packagist') split('/');
  else if (ecosystem === 'Maven') split(':');
  try {
    return new PackageURL(type, namespace, short, version === '' ? undefined : version).toString();
  } catch {
    return undefined;
  }
}
