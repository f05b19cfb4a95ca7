// A PostgreSQL cluster of our own under .data/postgres (port 54329) for when none is given.
// PostgreSQL refuses to run as root, so as root it runs as the `postgres` system user.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureBinary } from './apt.mjs';
import { portAnswers, waitFor } from './net.mjs';
import { DATA_DIR, REPO_ROOT, isRoot, run, userIds, which } from './shell.mjs';

export const OWN_POSTGRES_PORT = 54329;

/** The newest /usr/lib/postgresql/<version>/bin holding initdb, or the directory of initdb on PATH. */
export function findPostgresBinDir() {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')) && existsSync(path.join(root, v, 'bin', 'postgres')))
      .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
    if (versions.length) return path.join(root, versions[0], 'bin');
  }
  const initdb = which('initdb');
  return initdb && existsSync(path.join(path.dirname(initdb), 'postgres')) ? path.dirname(initdb) : null;
}

function ensureBinaries(ui) {
  return ensureBinary({ find: findPostgresBinDir, pkg: 'postgresql', why: 'PostgreSQL is not installed', ui });
}

/** The account the server runs as: ourselves, or `postgres` when we are root. */
function serverAccount() {
  if (!isRoot()) return {};
  const ids = userIds('postgres');
  if (!ids) throw new Error('running as root, but there is no `postgres` system user to run PostgreSQL as (apt-get install -y postgresql creates it)');
  return ids;
}

/** .data/postgres, unless the postgres user cannot reach it (a clone under /root): then /var/tmp. */
function dataDirFor(account, ui) {
  const preferred = path.join(DATA_DIR, 'postgres');
  if (account.uid === undefined) return preferred;
  mkdirSync(DATA_DIR, { recursive: true });
  const reachable = spawnSync('test', ['-x', DATA_DIR], { uid: account.uid, gid: account.gid }).status === 0;
  if (reachable) return preferred;
  const fallback = `/var/tmp/palisade-postgres-${createHash('sha256').update(REPO_ROOT).digest('hex').slice(0, 12)}`;
  ui.warn(`the postgres user cannot reach ${DATA_DIR}; keeping the cluster in ${fallback}`);
  return fallback;
}

/**
 * Starts (initialising on first use) our own cluster as a supervised child; resolves to the
 * admin URL once it accepts connections. `fast` trades durability for speed (test runs).
 */
export async function startOwnPostgres({ ui, supervisor, port = OWN_POSTGRES_PORT, fast = false }) {
  const bin = await ensureBinaries(ui);
  const account = serverAccount();
  const dataDir = dataDirFor(account, ui);
  const asAccount = { uid: account.uid, gid: account.gid };
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    ui.info(`initdb ${path.relative(REPO_ROOT, dataDir) || dataDir}`);
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
    if (account.uid !== undefined) chownSync(dataDir, account.uid, account.gid);
    chmodSync(dataDir, 0o700);
    await run(path.join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-locale'], { ...asAccount, quiet: true, cwd: '/' });
  }
  const settings = ['listen_addresses=127.0.0.1', 'unix_socket_directories=', 'max_connections=300', 'shared_buffers=128MB'];
  if (fast) settings.push('fsync=off', 'synchronous_commit=off', 'full_page_writes=off');
  const child = supervisor.start({
    name: 'postgres',
    command: path.join(bin, 'postgres'),
    args: ['-D', dataDir, '-p', String(port), ...settings.flatMap((s) => ['-c', s])],
    cwd: '/',
    ...asAccount,
    tier: 3,
    echo: false,
    // SIGINT is PostgreSQL's "fast" shutdown: roll back open transactions, checkpoint, exit.
    stopSignal: 'SIGINT',
    graceMs: 20_000,
  });
  await waitFor(`PostgreSQL on ${port}`, () => portAnswers(port), {
    timeoutMs: 60_000,
    abort: () => child.exitInfo && `postgres exited:\n${child.lastLines.join('\n')}`,
  });
  const adminUrl = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  await waitFor(`PostgreSQL on ${port} accepting queries`, async () => (await psql(bin, adminUrl, 'SELECT 1'), true), { timeoutMs: 30_000 });
  return adminUrl;
}

function psql(bin, url, sql) {
  const psqlBin = bin ? path.join(bin, 'psql') : which('psql');
  if (!psqlBin || !existsSync(psqlBin)) throw new Error('psql is not installed');
  return run(psqlBin, ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-tA', '-d', url, '-c', sql], { capture: true, cwd: '/' });
}

/** Creates `database` on the server of `adminUrl` unless it exists; returns its URL. */
export async function ensureDatabase(adminUrl, database) {
  if (!/^[a-z_][a-z0-9_]*$/.test(database)) throw new Error(`unexpected database name ${database}`);
  const bin = findPostgresBinDir();
  const { stdout } = await psql(bin, adminUrl, `SELECT 1 FROM pg_database WHERE datname = '${database}'`);
  if (stdout.trim() !== '1') await psql(bin, adminUrl, `CREATE DATABASE ${database}`);
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
