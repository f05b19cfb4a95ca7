import { spawn } from 'node:child_process';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';

/** A clone that takes longer than this is killed; the worker's tool deadline is usually shorter and wins. */
export const CHECKOUT_TIMEOUT_MS = 10 * 60_000;

export type TCheckoutErrorCode = 'invalid_url' | 'invalid_ref' | 'invalid_target' | 'ref_not_found' | 'git_failed' | 'timed_out' | 'aborted';

export class CheckoutError extends Error {
  constructor(
    readonly code: TCheckoutErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CheckoutError';
  }
}

export type TCheckoutRequest = {
  url: string;
  /** Branch, tag, full or abbreviated commit sha, or a full ref name such as refs/pull/7/head. */
  ref?: string;
  /** Directory to clone into; must not exist or be empty. */
  into: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * Whether `file://` URLs (the local disk) may be cloned: off unless the deployment enables
   * them (FILE_REPOSITORIES_ENABLED), for git's own transports too (submodules, redirects).
   */
  allowFileUrls?: boolean;
};

export type TCheckoutResult = { dir: string; commit: string };

const NETWORK_SCHEMES = ['https', 'http', 'ssh', 'git'];
/** scp-like ssh syntax, `git@github.com:org/repo.git`; deliberately narrow so that `ext::` and friends never match. */
const SCP_LIKE = /^[A-Za-z0-9._~-]+@[A-Za-z0-9.-]+:(?!\/\/)[A-Za-z0-9._~/-]+$/;
const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;

/** The URL schemes a checkout may use: the network ones, and `file` where allowed. */
function allowedSchemes(allowFileUrls: boolean): string[] {
  return allowFileUrls ? [...NETWORK_SCHEMES, 'file'] : NETWORK_SCHEMES;
}

/**
 * Accepts https, http, ssh and git URLs, scp-like ssh addresses, and file URLs when allowed;
 * anything else (a bare path, `ext::cmd`, a leading `-`) is refused before git sees it.
 */
export function assertRepositoryUrl(url: string, { allowFileUrls = false }: { allowFileUrls?: boolean } = {}): void {
  if (typeof url !== 'string' || url.length === 0 || url.length > 4096 || /[\s\u0000-\u001f\u007f]/.test(url)) {
    throw new CheckoutError('invalid_url', 'repository URL is empty, too long or contains whitespace or control characters');
  }
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    if (SCP_LIKE.test(url)) return;
    throw new CheckoutError('invalid_url', `repository URL must use ${allowedSchemes(allowFileUrls).join(', ')}`);
  }
  if (scheme === 'file' && !allowFileUrls) throw new CheckoutError('invalid_url', 'file:// repositories are not enabled on this deployment');
  if (!allowedSchemes(allowFileUrls).includes(scheme)) throw new CheckoutError('invalid_url', `repository URL scheme "${scheme}" is not allowed`);
  try {
    new URL(url);
  } catch {
    throw new CheckoutError('invalid_url', 'repository URL does not parse');
  }
}

/** A subset of git's ref-name rules, plus: never starts with `-`, so it can never read as an option. */
export function assertRef(ref: string): void {
  const ok =
    ref.length > 0 &&
    ref.length <= 256 &&
    /^[A-Za-z0-9_][A-Za-z0-9._/+-]*$/.test(ref) &&
    !ref.includes('..') &&
    !ref.includes('//') &&
    !ref.endsWith('/') &&
    !ref.endsWith('.') &&
    !ref.endsWith('.lock');
  if (!ok) throw new CheckoutError('invalid_ref', 'ref is not a valid branch, tag or commit name');
}

/** Credentials in a URL (https://user:token@host) must not reach logs or error messages. */
function redactCredentials(text: string): string {
  return text.replace(/([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^@/\s]+@/g, '$1***@');
}

const GIT_ENV: NodeJS.ProcessEnv = {
  // Never wait for a password prompt: there is nobody to answer it.
  GIT_TERMINAL_PROMPT: '0',
  GIT_LFS_SKIP_SMUDGE: '1',
  GIT_CONFIG_NOSYSTEM: '1',
  // Error classification below reads git's English messages.
  LC_ALL: 'C',
};

type TGitRun = { signal: AbortSignal; deadline: number; allowFileUrls: boolean };

class GitFailure extends Error {
  constructor(readonly stderr: string) {
    super(stderr);
  }
}

const MAX_OUTPUT_BYTES = 1024 * 1024;

/**
 * Runs git without a shell (spawn with an argument vector) as the leader of a new process group,
 * so that on timeout or abort the whole group (git and the transport helpers it spawned, which
 * hold the network connection) is killed. execFile cannot do this: it does not pass `detached`.
 */
function git(args: string[], run: TGitRun, cwd?: string): Promise<string> {
  const remaining = run.deadline - Date.now();
  if (run.signal.aborted) return Promise.reject(new CheckoutError('aborted', 'checkout aborted'));
  if (remaining <= 0) return Promise.reject(new CheckoutError('timed_out', 'checkout timed out'));
  return new Promise((resolve, reject) => {
    let stopped: CheckoutError | undefined;
    const env = {
      ...process.env,
      ...GIT_ENV,
      // Also applies to submodules and redirects, which the URL check cannot see.
      GIT_ALLOW_PROTOCOL: allowedSchemes(run.allowFileUrls).join(':'),
      GIT_SSH_COMMAND: process.env.GIT_SSH_COMMAND ?? 'ssh -o BatchMode=yes',
    };
    const child = spawn('git', ['-c', 'advice.detachedHead=false', '-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', ...args], {
      cwd,
      env,
      detached: true,
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      if (into.reduce((n, b) => n + b.length, 0) < MAX_OUTPUT_BYTES) into.push(chunk);
    };
    child.stdout.on('data', collect(stdout));
    child.stderr.on('data', collect(stderr));
    const kill = (reason: CheckoutError) => {
      stopped ??= reason;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const onAbort = () => kill(new CheckoutError('aborted', 'checkout aborted'));
    const timer = setTimeout(() => kill(new CheckoutError('timed_out', 'checkout timed out')), remaining);
    run.signal.addEventListener('abort', onAbort, { once: true });
    const finish = (error?: Error, code?: number | null) => {
      clearTimeout(timer);
      run.signal.removeEventListener('abort', onAbort);
      const errText = Buffer.concat(stderr).toString('utf8');
      if (stopped) reject(stopped);
      else if (error) reject(new GitFailure(redactCredentials(error.message)));
      else if (code !== 0) reject(new GitFailure(redactCredentials(errText || `git exited with ${code}`).slice(-2000)));
      else resolve(Buffer.concat(stdout).toString('utf8'));
    };
    child.once('error', (error) => finish(error));
    child.once('close', (code) => finish(undefined, code));
  });
}

async function prepareTarget(into: string): Promise<string> {
  const dir = path.resolve(into);
  await mkdir(dir, { recursive: true });
  if ((await readdir(dir)).length > 0) throw new CheckoutError('invalid_target', 'checkout directory is not empty');
  return dir;
}

async function resetTarget(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
}

/**
 * Clones `url` at `ref` into `into` with the system git. Branches and tags are cloned shallow; a
 * commit sha is fetched shallow when the server allows fetching by id, otherwise the branches and
 * tags are fetched in full and the commit checked out. Resolves to the checkout and the exact
 * commit, which the scan records.
 */
export async function checkoutRepository(request: TCheckoutRequest): Promise<TCheckoutResult> {
  const allowFileUrls = request.allowFileUrls ?? false;
  assertRepositoryUrl(request.url, { allowFileUrls });
  if (request.ref !== undefined) assertRef(request.ref);
  const { url, ref } = request;
  const dir = await prepareTarget(request.into);
  const run: TGitRun = {
    signal: request.signal ?? new AbortController().signal,
    deadline: Date.now() + (request.timeoutMs ?? CHECKOUT_TIMEOUT_MS),
    allowFileUrls,
  };
  try {
    await fetchInto(dir, url, ref, run);
    const commit = (await git(['rev-parse', '--verify', 'HEAD^{commit}'], run, dir)).trim();
    return { dir, commit };
  } catch (error) {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    if (error instanceof CheckoutError) throw error;
    if (error instanceof GitFailure) throw new CheckoutError('git_failed', `git failed: ${error.stderr.trim()}`);
    throw error;
  }
}

async function fetchInto(dir: string, url: string, ref: string | undefined, run: TGitRun): Promise<void> {
  if (ref === undefined) {
    await git(['clone', '--depth', '1', '--no-tags', '--', url, dir], run);
    return;
  }
  if (!FULL_SHA.test(ref)) {
    try {
      await git(['clone', '--depth', '1', '--no-tags', '--branch', ref, '--', url, dir], run);
      return;
    } catch (error) {
      // Only "no such branch or tag" is worth another strategy; an unreachable remote is not.
      if (!(error instanceof GitFailure) || !/not found in upstream|could not find remote branch/i.test(error.stderr)) throw error;
      await resetTarget(dir);
    }
  }
  await git(['init', '-q', '--', dir], run);
  try {
    // By id (servers that allow it, GitHub and protocol v2 among them) or by full ref name.
    await git(['fetch', '-q', '--depth', '1', '--no-tags', '--', url, ref], run, dir);
    await git(['checkout', '-q', '--detach', 'FETCH_HEAD'], run, dir);
    return;
  } catch (error) {
    if (!(error instanceof GitFailure)) throw error;
  }
  await git(['fetch', '-q', '--tags', '--', url, '+refs/heads/*:refs/remotes/origin/*'], run, dir);
  try {
    // `ref` passed assertRef, so it cannot start with "-".
    const commit = (await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], run, dir)).trim();
    await git(['checkout', '-q', '--detach', commit], run, dir);
  } catch (error) {
    if (error instanceof GitFailure) throw new CheckoutError('ref_not_found', `ref ${ref} was not found in the repository`);
    throw error;
  }
}
