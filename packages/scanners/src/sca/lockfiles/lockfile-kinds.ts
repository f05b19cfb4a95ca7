import path from 'node:path';
import { BUILTIN_SCA_LOCKFILES, isBuiltinScaFile } from '@palisade/domain/scans/automatic-plan';
import { parseCargoLock } from './cargo-lock.parser';
import { parseComposerLock } from './composer-lock.parser';
import { parseGemfileLock } from './gemfile-lock.parser';
import { parseGoMod, parseGoSum } from './go-mod.parser';
import { parseGradleLockfile } from './gradle-lockfile.parser';
import type { TLockfileParser } from './locked-package';
import { parseNpmLock } from './npm-lock.parser';
import { parsePipfileLock } from './pipfile-lock.parser';
import { parsePnpmLock } from './pnpm-lock.parser';
import { parsePythonTomlLock } from './python-toml-lock.parser';
import { parseRequirements } from './requirements.parser';
import { parseYarnLock } from './yarn-lock.parser';

export type TLockfileKind = {
  parse: TLockfileParser;
  /** Manifests beside the lockfile that tell the direct dependencies. */
  siblings?: readonly string[];
  /** Not read when one of these stands beside it (go.sum defers to go.mod). */
  unlessBeside?: readonly string[];
};

/**
 * One entry per file name the automatic plan chooses sca for (BUILTIN_SCA_LOCKFILES in the
 * domain): the plan and this table must agree, or a plan would pick sca for a file it skips.
 */
export const LOCKFILE_KINDS: Readonly<Record<(typeof BUILTIN_SCA_LOCKFILES)[number], TLockfileKind>> = {
  'package-lock.json': { parse: parseNpmLock, siblings: ['package.json'] },
  'npm-shrinkwrap.json': { parse: parseNpmLock, siblings: ['package.json'] },
  'yarn.lock': { parse: parseYarnLock, siblings: ['package.json'] },
  'pnpm-lock.yaml': { parse: (text) => parsePnpmLock(text) },
  'poetry.lock': { parse: parsePythonTomlLock, siblings: ['pyproject.toml'] },
  'uv.lock': { parse: parsePythonTomlLock, siblings: ['pyproject.toml'] },
  'pdm.lock': { parse: parsePythonTomlLock, siblings: ['pyproject.toml'] },
  'Pipfile.lock': { parse: (text) => parsePipfileLock(text) },
  'go.mod': { parse: (text) => parseGoMod(text) },
  'go.sum': { parse: (text) => parseGoSum(text), unlessBeside: ['go.mod'] },
  'Cargo.lock': { parse: (text) => parseCargoLock(text) },
  'Gemfile.lock': { parse: (text) => parseGemfileLock(text) },
  'composer.lock': { parse: parseComposerLock, siblings: ['composer.json'] },
  'gradle.lockfile': { parse: (text) => parseGradleLockfile(text) },
};

const REQUIREMENTS: TLockfileKind = { parse: (text) => parseRequirements(text) };

/** How to read a file of the checkout, or undefined when the sca scanner does not read it. */
export function lockfileKind(relPath: string): TLockfileKind | undefined {
  if (!isBuiltinScaFile(relPath)) return undefined;
  const base = path.posix.basename(relPath) as keyof typeof LOCKFILE_KINDS;
  return LOCKFILE_KINDS[base] ?? REQUIREMENTS;
}
