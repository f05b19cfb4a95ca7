// Debian packages the launcher needs. As root they are installed with apt-get; otherwise the
// exact command is printed and the launcher stops.
import { isRoot, run } from './shell.mjs';

let updated = false;

export class MissingPackageError extends Error {}

export async function aptInstall(packages, { ui, why }) {
  const command = `apt-get update && apt-get install -y ${packages.join(' ')}`;
  if (!isRoot()) {
    throw new MissingPackageError(`${why}; install it with:\n\n    sudo sh -c '${command}'\n`);
  }
  ui.info(`${why}: apt-get install -y ${packages.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!updated) {
    await run('apt-get', ['update', '-qq'], { env, quiet: true });
    updated = true;
  }
  await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { env, quiet: true });
}

/**
 * Installs, in one apt-get run, every package of `wanted` ({pkg, why}) at once; as a non-root
 * user, stops with the one command that installs them all (rather than one package per attempt).
 */
export async function ensureDebianPackages(wanted, { ui }) {
  if (wanted.length === 0) return;
  const why = wanted.map((w) => w.why).join('; ');
  await aptInstall(wanted.map((w) => w.pkg), { ui, why });
}

/** A binary `find()` locates, installed from `pkg` first when it is missing. */
export async function ensureBinary({ find, pkg, why, ui }) {
  let binary = find();
  if (binary) return binary;
  await aptInstall([pkg], { ui, why });
  binary = find();
  if (!binary) throw new Error(`apt-get installed ${pkg} but its program was not found`);
  return binary;
}
