import type { TEvidence, TPalisadeResult, TSeverity } from '@palisade/contracts';
import { maxSeverity } from '@palisade/domain/findings/severity';
import { sha256Hex } from '../report';
import { matchKey, packageUrl } from './ecosystems';
import type { TLockedPackage } from './lockfiles/locked-package';
import type { TVulnerableRelease } from './sca-matcher';

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function packageRef(pkg: Pick<TLockedPackage, 'ecosystem' | 'name' | 'version'>): string {
  return packageUrl(pkg.ecosystem, pkg.name, pkg.version) ?? `${pkg.name}@${pkg.version}`;
}

/**
 * The finding for one vulnerable release in one lockfile. Identity (the fingerprint) is the
 * vulnerability, the lockfile and the release, not the line: the finding survives edits elsewhere
 * in the lockfile, and is fixed when the release leaves it. The vulnerability is named by its
 * first CVE where it has one, so a GHSA joining a PYSEC record in a later database does not make
 * the same finding new.
 */
export function scaResult(lockfile: string, release: TVulnerableRelease, chains: TLockedPackage[][]): TPalisadeResult {
  const [lead] = release.advisories;
  const ids = release.advisories.map((a) => a.id);
  const cve = [...new Set([...ids, ...release.advisories.flatMap((a) => a.aliases)].filter((id) => /^CVE-\d{4}-\d{4,}$/i.test(id)).map((id) => id.toUpperCase()))].sort();
  const cwe = [...new Set(release.advisories.flatMap((a) => a.cwe))];
  const severity = release.advisories.map((a) => a.severity).reduce<TSeverity>((a, b) => maxSeverity(a, b), 'info');
  const summary = release.advisories.map((a) => a.summary).find((s) => s !== undefined);
  const details = release.advisories.map((a) => a.details).find((s) => s !== undefined);
  const at = `${release.name}@${release.version}`;
  const fix = release.fixed.length > 0 ? `Upgrade ${release.name} to ${release.fixed[0]} or later.` : 'No fixed version is published.';
  const also = ids.length > 1 ? ` Also published as ${ids.slice(1).join(', ')}.` : '';
  const purl = packageUrl(release.ecosystem, release.name, release.version);
  const pkg = { name: release.name, version: release.version, ...(purl ? { purl } : {}), ecosystem: release.ecosystem.toLowerCase() };
  const fixed = release.fixed.slice(0, 64);
  const paths = (chains.length > 0 ? chains : [[release.packages[0]]]).map((chain) => chain.map(packageRef));
  const evidence: TEvidence[] = paths.map((path) => ({ kind: 'dependency_path', path: path.slice(0, 256), package: pkg, ...(fixed.length > 0 ? { fixed_versions: fixed } : {}) }));
  const line = release.packages.map((p) => p.line).find((l) => l !== undefined);
  return {
    rule_id: clip(lead.id, 256),
    ...(summary ? { rule_name: clip(summary, 512) } : {}),
    severity,
    title: clip(summary ? `${summary} (${at})` : `${lead.id} in ${at}`, 1024),
    message: clip(`${at} is affected by ${lead.id}.${also} ${fix}${details ? `\n\n${details}` : ''}`, 8192),
    ...(cwe.length > 0 ? { cwe: cwe.slice(0, 32) } : {}),
    ...(cve.length > 0 ? { cve: cve.slice(0, 64) } : {}),
    location: { path: lockfile, ...(line !== undefined ? { start_line: line } : {}) },
    evidence,
    fingerprint: `sca/${sha256Hex(cve[0] ?? lead.id, lockfile, matchKey(release.ecosystem, release.name), release.version)}`,
  };
}
