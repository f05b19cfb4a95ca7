// npm dependencies: installed when node_modules is missing or does not match package-lock.json.
// npm keeps node_modules/.package-lock.json (the "hidden lockfile") describing what it installed;
// comparing it with package-lock.json is exact and takes milliseconds.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, run } from './shell.mjs';

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Why node_modules must be (re)installed, or null when it matches the lock. */
export function staleReason(root = REPO_ROOT) {
  const lock = readJson(path.join(root, 'package-lock.json'));
  if (!existsSync(path.join(root, 'node_modules'))) return 'node_modules is missing';
  if (!lock) return 'there is no package-lock.json';
  const installed = readJson(path.join(root, 'node_modules', '.package-lock.json'));
  if (!installed?.packages) return 'node_modules was not installed by npm';
  for (const [key, wanted] of Object.entries(lock.packages ?? {})) {
    if (!key) continue;
    const have = installed.packages[key];
    // Optional packages for other platforms (swc, esbuild binaries) are legitimately absent.
    if (!have) {
      if (wanted.optional || wanted.peer || wanted.devOptional) continue;
      return `${key} is not installed`;
    }
    if ((have.version ?? have.resolved) !== (wanted.version ?? wanted.resolved)) return `${key} differs from package-lock.json`;
  }
  return null;
}

export async function ensureNodeModules({ ui }) {
  const reason = staleReason();
  if (!reason) {
    ui.info('npm dependencies match package-lock.json');
    return;
  }
  const hasLock = existsSync(path.join(REPO_ROOT, 'package-lock.json'));
  const args = hasLock ? ['ci', '--no-audit', '--no-fund'] : ['install', '--no-audit', '--no-fund'];
  ui.info(`${reason}: npm ${args[0]}`);
  try {
    await run('npm', args);
  } catch (error) {
    if (!hasLock) throw error;
    // npm 11 records only this platform's optional binaries (@swc/core-*, @turbo/*) in the lock
    // and its `npm ci` then calls the lock out of sync (npm/cli#4828, #8805); `npm install`
    // installs the same locked versions.
    ui.warn('npm ci refused the lockfile; installing the locked versions with npm install');
    await run('npm', ['install', '--no-audit', '--no-fund']);
  }
}
