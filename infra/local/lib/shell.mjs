// Running commands from the launcher: inherited output for long steps, captured for probes.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const DATA_DIR = path.join(REPO_ROOT, '.data');

export const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

export function which(binary, extraDirs = []) {
  for (const dir of [...extraDirs, ...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/sbin']) {
    if (dir && existsSync(path.join(dir, binary))) return path.join(dir, binary);
  }
  return null;
}

/**
 * Runs a command to completion. `capture` collects stdout/stderr (else they are inherited).
 * Rejects with the output when it exits non-zero.
 */
export function run(command, args, { cwd = REPO_ROOT, env = process.env, capture = false, quiet = false, uid, gid } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, uid, gid, stdio: capture || quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) return resolve({ stdout, stderr });
      const output = `${stdout}${stderr}`.trim().split('\n').slice(-30).join('\n');
      reject(new Error(`${path.basename(command)} ${args.join(' ')} exited with ${signal ?? code}${output ? `:\n${output}` : ''}`));
    });
  });
}

/** uid and gid of a system user, or null when it does not exist. */
export function userIds(name) {
  const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return null;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** `node --conditions=palisade-source --import tsx <entry>`: TypeScript from source, one process. */
export function tsNodeArgs(entry) {
  return ['--conditions=palisade-source', '--import', 'tsx', entry];
}

export function assertNodeVersion() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    throw new Error(`Node ${process.versions.node} is too old: Palisade needs Node 20.19 or newer`);
  }
}

/**
 * Calls `onOrphaned` once when the process that started us goes away. `npm start` does not pass
 * SIGTERM on to its script (npm 11 exits at once), which would leave the launcher and all its
 * children running; noticing the reparenting turns that into an orderly stop.
 */
export function watchParent(onOrphaned, intervalMs = 1000) {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      onOrphaned();
    }
  }, intervalMs);
  timer.unref();
}
