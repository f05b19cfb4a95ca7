import { readFile } from 'node:fs/promises';
import { matchKey } from '../ecosystems';
import { walkFiles } from '../../walk-files';
import { readOsvAdvisory, type TAdvisory } from './osv-advisory';

/** An OSV record larger than this is not an advisory (the largest real ones, long version lists, are a few hundred KiB). */
const MAX_ADVISORY_BYTES = 8 * 1024 * 1024;
/** A full OSV export is a few hundred thousand files; this bounds a misconfigured directory. */
const MAX_ADVISORY_FILES = 5_000_000;
/** Files read at once: enough to hide disk latency, few enough not to exhaust file handles. */
const READ_CONCURRENCY = 16;

export type TAdvisoryIndex = {
  /** Advisories by matchKey(ecosystem, name), only for the packages asked about. */
  byPackage: Map<string, TAdvisory[]>;
  /** JSON files read. */
  files: number;
  /** Files that were not JSON or not an OSV record with a package read here (other ecosystems, withdrawn). */
  unusable: number;
};

export class AdvisoryDirectoryError extends Error {
  constructor(readonly dir: string, cause: unknown) {
    super(`the advisory directory ${dir} cannot be read: ${(cause as { code?: string }).code ?? (cause instanceof Error ? cause.message : String(cause))}`, { cause });
    this.name = 'AdvisoryDirectoryError';
  }
}

/**
 * Reads every *.json file under `dir` (an OSV export, e.g. an ecosystem's all.zip unpacked, in
 * any folder layout) and keeps the advisories that name one of `wanted` (matchKey values), so
 * memory follows the project's dependencies, not the size of the database. A directory that
 * cannot be read is an error: an empty result would read as "no known vulnerabilities".
 */
export async function loadAdvisories(dir: string, wanted: ReadonlySet<string>, options: { signal?: AbortSignal } = {}): Promise<TAdvisoryIndex> {
  const index: TAdvisoryIndex = { byPackage: new Map(), files: 0, unusable: 0 };
  const read = async (relPath: string, absPath: string): Promise<void> => {
    let advisory: TAdvisory | undefined;
    try {
      advisory = readOsvAdvisory(JSON.parse(await readFile(absPath, 'utf8')), relPath);
    } catch {
      advisory = undefined;
    }
    if (advisory === undefined) {
      index.unusable++;
      return;
    }
    const keys = new Set(advisory.affected.map((a) => matchKey(a.ecosystem, a.name)).filter((key) => wanted.has(key)));
    for (const key of keys) {
      const list = index.byPackage.get(key) ?? [];
      list.push(advisory);
      index.byPackage.set(key, list);
    }
  };
  const running = new Set<Promise<void>>();
  try {
    for await (const file of walkFiles(dir, { signal: options.signal, maxFileBytes: MAX_ADVISORY_BYTES, maxFiles: MAX_ADVISORY_FILES })) {
      if (!file.relPath.toLowerCase().endsWith('.json')) continue;
      index.files++;
      const job = read(file.relPath, file.absPath).finally(() => running.delete(job));
      running.add(job);
      if (running.size >= READ_CONCURRENCY) await Promise.race(running);
    }
  } catch (error) {
    await Promise.allSettled(running);
    if (options.signal?.aborted) throw error;
    throw new AdvisoryDirectoryError(dir, error);
  }
  await Promise.all(running);
  // Files finish in any order; sorting keeps reports deterministic.
  for (const list of index.byPackage.values()) list.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return index;
}
