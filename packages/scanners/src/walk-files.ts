import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

/** Files larger than this are skipped: real secrets and manifests are small, and big files are mostly data or bundles. */
export const MAX_FILE_BYTES = 1024 * 1024;
/** A repository with more files than this is cut off rather than let one scan exhaust the worker. */
export const MAX_FILES = 200_000;

const SKIPPED_DIRS = new Set(['.git', 'node_modules', '.hg', '.svn']);

/** Lock files hold hashes and registry URLs that look like secrets and never are. */
const LOCK_FILES = new Set([
  'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lockb', 'bun.lock',
  'cargo.lock', 'poetry.lock', 'pipfile.lock', 'composer.lock', 'gemfile.lock', 'go.sum', 'packages.lock.json',
  'paket.lock', 'mix.lock', 'pubspec.lock', 'podfile.lock', 'gradle.lockfile', 'uv.lock', 'flake.lock',
]);

export function isLockFile(relPath: string): boolean {
  return LOCK_FILES.has(path.posix.basename(relPath).toLowerCase());
}

export type TRepoFile = { /** Relative to the scanned root, always with `/`. */ relPath: string; absPath: string; size: number };

export type TWalkOptions = { signal?: AbortSignal; maxFileBytes?: number; maxFiles?: number };

/**
 * Regular files under `root`, depth first in name order so reports are deterministic. Symbolic
 * links are never followed: a checkout is untrusted input and a link could point anywhere on the
 * worker's disk.
 */
export async function* walkFiles(root: string, options: TWalkOptions = {}): AsyncGenerator<TRepoFile> {
  const maxFiles = options.maxFiles ?? MAX_FILES;
  const maxBytes = options.maxFileBytes ?? MAX_FILE_BYTES;
  let seen = 0;
  const stack: string[] = [''];
  while (stack.length > 0) {
    options.signal?.throwIfAborted();
    const rel = stack.pop() as string;
    const entries = await readdir(path.join(root, rel), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
    const files: TRepoFile[] = [];
    for (const entry of entries) {
      const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) stack.push(childRel);
      } else if (entry.isFile()) {
        const absPath = path.join(root, childRel);
        const info = await lstat(absPath);
        if (info.size <= maxBytes) files.push({ relPath: childRel, absPath, size: info.size });
      }
    }
    for (const file of files.reverse()) {
      if (++seen > maxFiles) return;
      yield file;
    }
  }
}

/** Same heuristic as git: a NUL byte in the first 8000 bytes means binary. */
export function isBinaryBuffer(buffer: Buffer): boolean {
  return buffer.subarray(0, 8000).includes(0);
}
