import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { TPalisadeResult } from '@palisade/contracts';
import { plural } from '../report';
import { isBinaryBuffer, walkFiles } from '../walk-files';
import { makeChainFinder } from './dependency-chains';
import { matchKey, packageUrl, type TEcosystem } from './ecosystems';
import { lockfileKind } from './lockfiles/lockfile-kinds';
import type { TParsedLockfile, TSiblings } from './lockfiles/locked-package';
import { loadAdvisories } from './osv/advisory-store';
import { matchLockfile } from './sca-matcher';
import { scaResult } from './sca-result';

/** Lockfiles of large monorepos run to tens of MiB; past this a file is skipped and said so. */
export const MAX_LOCKFILE_BYTES = 64 * 1024 * 1024;

export type TScaOptions = {
  signal?: AbortSignal;
  /** A directory of OSV advisories (JSON). Without one, components are listed and nothing is matched. */
  advisoryDir?: string;
};

export type TScaComponent = { ecosystem: TEcosystem; name: string; version: string; purl?: string; lockfile: string; direct?: boolean };

export type TScaScan = {
  results: TPalisadeResult[];
  /** Every locked package, per lockfile (Palisade reports have no place for them: the summary counts them). */
  components: TScaComponent[];
  lockfiles: Array<{ path: string; components: number; error?: string }>;
  advisories?: { dir: string; files: number; unusable: number };
  /** One paragraph for the tool's outcome: what was read, what was matched, what was not. */
  summary: string;
};

type TReadLockfile = { path: string; parsed?: TParsedLockfile; error?: string };

async function readSiblings(root: string, relPath: string, names: readonly string[], present: ReadonlySet<string>): Promise<TSiblings> {
  const dir = path.posix.dirname(relPath);
  const out: Record<string, string> = {};
  for (const name of names) {
    const rel = dir === '.' ? name : `${dir}/${name}`;
    if (present.has(rel)) out[name] = await readFile(path.join(root, rel), 'utf8');
  }
  return out;
}

async function readLockfiles(root: string, signal: AbortSignal | undefined): Promise<TReadLockfile[]> {
  const present = new Set<string>();
  const candidates: Array<{ relPath: string; absPath: string; size: number }> = [];
  for await (const file of walkFiles(root, { signal, maxFileBytes: Number.MAX_SAFE_INTEGER })) {
    present.add(file.relPath);
    if (lockfileKind(file.relPath)) candidates.push(file);
  }
  const read: TReadLockfile[] = [];
  for (const file of candidates) {
    signal?.throwIfAborted();
    const kind = lockfileKind(file.relPath);
    const dir = path.posix.dirname(file.relPath);
    if (kind === undefined || kind.unlessBeside?.some((name) => present.has(dir === '.' ? name : `${dir}/${name}`))) continue;
    if (file.size > MAX_LOCKFILE_BYTES) {
      read.push({ path: file.relPath, error: `larger than ${MAX_LOCKFILE_BYTES / 1024 / 1024} MiB` });
      continue;
    }
    try {
      const buffer = await readFile(file.absPath);
      if (isBinaryBuffer(buffer)) throw new Error('not a text file');
      const siblings = await readSiblings(root, file.relPath, kind.siblings ?? [], present);
      read.push({ path: file.relPath, parsed: kind.parse(buffer.toString('utf8').replace(/^\uFEFF/, ''), siblings) });
    } catch (error) {
      // One broken lockfile costs its own packages, not the scan; the summary names it.
      read.push({ path: file.relPath, error: (error instanceof Error ? error.message : String(error)).split('\n')[0].slice(0, 200) });
    }
  }
  return read;
}

/**
 * Software composition analysis of a checkout: reads the lockfiles the automatic plan chooses sca
 * for, lists their packages with package URLs, and matches them against the OSV advisories in
 * `advisoryDir`. Without an advisory directory it still succeeds, listing components and saying
 * that nothing was matched; a directory that is configured but unreadable is an error, since
 * "no vulnerabilities" would then be a false all-clear.
 */
export async function scanDirectoryForSca(dir: string, options: TScaOptions = {}): Promise<TScaScan> {
  const lockfiles = await readLockfiles(dir, options.signal);
  const components: TScaComponent[] = lockfiles.flatMap((l) =>
    (l.parsed?.packages ?? []).map((p) => {
      const purl = packageUrl(p.ecosystem, p.name, p.version);
      return { ecosystem: p.ecosystem, name: p.name, version: p.version, ...(purl ? { purl } : {}), lockfile: l.path, ...(p.direct ? { direct: true } : {}) };
    }),
  );
  const results: TPalisadeResult[] = [];
  let advisories: TScaScan['advisories'];
  if (options.advisoryDir !== undefined && options.advisoryDir !== '') {
    const wanted = new Set(lockfiles.flatMap((l) => (l.parsed?.packages ?? []).filter((p) => p.source === 'registry').map((p) => matchKey(p.ecosystem, p.name))));
    const index = await loadAdvisories(options.advisoryDir, wanted, { signal: options.signal });
    advisories = { dir: options.advisoryDir, files: index.files, unusable: index.unusable };
    for (const lockfile of lockfiles) {
      if (lockfile.parsed === undefined) continue;
      const chainsOf = makeChainFinder(lockfile.parsed);
      const releases = matchLockfile(lockfile.parsed, index.byPackage);
      for (const release of releases) results.push(scaResult(lockfile.path, release, chainsOf(release.packages[0])));
    }
  }
  return {
    results,
    components,
    lockfiles: lockfiles.map((l) => ({ path: l.path, components: l.parsed?.packages.length ?? 0, ...(l.error ? { error: l.error } : {}) })),
    ...(advisories ? { advisories } : {}),
    summary: summarize(lockfiles, components.length, results.length, advisories),
  };
}

function summarize(lockfiles: TReadLockfile[], components: number, vulnerabilities: number, advisories: TScaScan['advisories']): string {
  const ok = lockfiles.filter((l) => l.parsed !== undefined);
  const failed = lockfiles.filter((l) => l.error !== undefined);
  const parts: string[] = [];
  if (lockfiles.length === 0) parts.push('No lockfile the sca tool reads was found.');
  else {
    const names = ok.slice(0, 10).map((l) => l.path).join(', ');
    parts.push(`Read ${plural(ok.length, 'lockfile')}${ok.length > 0 ? ` (${names}${ok.length > 10 ? ', …' : ''})` : ''}: ${plural(components, 'component')}.`);
  }
  if (failed.length > 0) parts.push(`Could not read ${failed.slice(0, 10).map((l) => `${l.path} (${l.error})`).join('; ')}.`);
  if (advisories === undefined) {
    parts.push('No advisory database is configured (PALISADE_ADVISORY_DIR), so no vulnerabilities were matched.');
  } else {
    const unusable = advisories.unusable > 0 ? `, ${plural(advisories.unusable, 'file')} not usable here` : '';
    parts.push(`Matched against ${plural(advisories.files, 'advisory file')} in ${advisories.dir}${unusable}: ${plural(vulnerabilities, 'vulnerable package')}.`);
  }
  return parts.join(' ');
}
