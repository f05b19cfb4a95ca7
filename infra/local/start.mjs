#!/usr/bin/env node
// `npm start`: the whole service on one machine. Installs npm dependencies when they are missing
// or stale; uses DATABASE_URL / REDIS_URL when set, else runs PostgreSQL (54329) and Redis
// (63799) of its own under .data; migrates and seeds; starts the five planes and the worker from
// source; puts nginx (generated from the route table) in front on PALISADE_PORT (8080).
// Ctrl-C or SIGTERM stops everything in order (the edge, so no new request reaches a plane that
// is draining; then the planes and worker; Redis; PostgreSQL) and exits 0.
// Plain Node with no dependencies until it has installed them.
import { ensureNodeModules } from './lib/deps.mjs';
import { MissingPackageError, ensureDebianPackages } from './lib/apt.mjs';
import { seedDemo } from './lib/credentials.mjs';
import { pendingMigrations } from './lib/migrations.mjs';
import { portAnswers, redisAnswers, waitForHttpOk } from './lib/net.mjs';
import { ensureNginx, findNginx, startEdge } from './lib/nginx.mjs';
import { EDGE_PLANES, PLANE_PROCESSES, entryOf, planeEnv } from './lib/planes.mjs';
import { localSecrets } from './lib/secrets.mjs';
import { OWN_POSTGRES_PORT, findPostgresBinDir } from './lib/postgres.mjs';
import { OWN_REDIS_PORT } from './lib/redis.mjs';
import { postgresForStart, redisForStart } from './lib/services.mjs';
import { REPO_ROOT, assertNodeVersion, run, tsNodeArgs, watchParent, which } from './lib/shell.mjs';
import { Supervisor } from './lib/supervisor.mjs';
import { existsSync } from 'node:fs';
import * as ui from './lib/ui.mjs';

const { colour } = ui;
const edgePort = Number(process.env.PALISADE_PORT || 8080);
const edgeHost = process.env.PALISADE_HOST || '127.0.0.1';
const baseUrl = `http://${edgeHost}:${edgePort}`;
const t0 = Date.now();

const supervisor = new Supervisor({ name: 'start', ui });
let shuttingDown = false;

async function shutdown(code, reason) {
  if (shuttingDown) return;
  shuttingDown = true;
  if (reason) ui.info(`${reason}; stopping everything`);
  await supervisor.stopAll();
  ui.info(code === 0 ? 'stopped cleanly' : 'stopped');
  process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (shuttingDown) {
      // A second Ctrl-C: do not wait for graceful shutdowns any more.
      for (const child of supervisor.children) if (child.proc.pid) try { process.kill(-child.proc.pid, 'SIGKILL'); } catch { /* gone */ }
      process.exit(1);
    }
    process.stdout.write('\n');
    void shutdown(0, `${signal} received`);
  });
}

watchParent(() => void shutdown(0, 'the parent process (npm) exited'));

supervisor.onCrash((child, description) => {
  ui.fail(`${description}; the service cannot run without it. Its last lines:`);
  process.stderr.write(`${child.lastLines.slice(-20).map((line) => `    ${line}`).join('\n')}\n`);
  process.stderr.write(`    (full log: .data/logs/${child.name}.log)\n`);
  void shutdown(1);
});

async function checkPortsFree() {
  const wanted = [{ name: `edge (PALISADE_PORT)`, port: edgePort }, ...PLANE_PROCESSES];
  const busy = [];
  for (const { name, port } of wanted) if (await portAnswers(port)) busy.push(`${port} (${name})`);
  if (busy.length) throw new Error(`ports already in use: ${busy.join(', ')} — is another \`npm start\` running? PALISADE_PORT moves the edge`);
}

/** The Debian packages this run will need and does not have, so that they are installed (or named) together. */
async function missingDebianPackages() {
  const wanted = [];
  if (!process.env.DATABASE_URL && !findPostgresBinDir() && !(await portAnswers(OWN_POSTGRES_PORT))) {
    wanted.push({ pkg: 'postgresql', why: 'PostgreSQL is not installed (and DATABASE_URL is not set)' });
  }
  if (!process.env.REDIS_URL && !which('redis-server') && !(await redisAnswers(OWN_REDIS_PORT))) {
    wanted.push({ pkg: 'redis-server', why: 'Redis is not installed (and REDIS_URL is not set)' });
  }
  if (!findNginx()) wanted.push({ pkg: 'nginx', why: 'nginx is not installed' });
  return wanted;
}

/** Runs migrate deploy only when a migration is missing: a restart skips its engine start-up. */
async function migrate(env) {
  const pending = await pendingMigrations(env.DATABASE_URL).catch(() => null);
  if (pending?.length === 0) {
    ui.info('every migration is already applied');
    return;
  }
  await run('npm', ['run', '--silent', '-w', '@palisade/db', 'migrate:deploy'], { env, quiet: true });
}

async function main() {
  assertNodeVersion();
  await supervisor.reapLeftovers();
  const missing = await missingDebianPackages();
  if (missing.length) await ui.step('Debian packages', () => ensureDebianPackages(missing, { ui }));
  await ui.step('npm dependencies', () => ensureNodeModules({ ui }));
  const databaseUrl = await ui.step('PostgreSQL', () => postgresForStart({ ui, supervisor }));
  const redisUrl = await ui.step('Redis', () => redisForStart({ ui, supervisor }));
  const nginx = await ui.step('nginx', () => ensureNginx({ ui }));
  await ui.step('ports free', checkPortsFree);

  const env = planeEnv({ databaseUrl, redisUrl, publicBaseUrl: baseUrl, secrets: localSecrets() });
  await ui.step('Prisma client (npm run -w @palisade/db generate)', () => run('npm', ['run', '--silent', '-w', '@palisade/db', 'generate'], { env, quiet: true }));
  await ui.step('migrations (npm run -w @palisade/db migrate:deploy)', () => migrate(env));
  const credentials = await ui.step('demo organization and user (npm run -w @palisade/db seed)', () => seedDemo({ env, baseUrl, ui }));

  await ui.step('planes and worker', async () => {
    const missing = PLANE_PROCESSES.filter((proc) => !existsSync(entryOf(proc)));
    if (missing.length) throw new Error(`missing entry points: ${missing.map((p) => entryOf(p).replace(`${REPO_ROOT}/`, '')).join(', ')}`);
    const children = PLANE_PROCESSES.map((proc) => ({
      proc,
      child: supervisor.start({
        name: proc.name,
        command: process.execPath,
        args: tsNodeArgs(entryOf(proc)),
        env: { ...env, PORT: String(proc.port) },
        tier: 1,
      }),
    }));
    await Promise.all(children.map(({ proc, child }) =>
      waitForHttpOk(`http://127.0.0.1:${proc.port}/readyz`, { timeoutMs: 120_000, abort: () => !shuttingDown && child.exitInfo && `${proc.name} exited` }).then(() =>
        ui.info(`${colour.green('●')} ${proc.name} ready on 127.0.0.1:${proc.port}`))));
  });

  const upstreams = Object.fromEntries(EDGE_PLANES.map((p) => [p.name, `127.0.0.1:${p.port}`]));
  await ui.step(`edge (nginx) on ${baseUrl}`, () =>
    startEdge({ supervisor, binary: nginx, listen: `${edgeHost}:${edgePort}`, upstreams, healthUrl: `${baseUrl}/healthz` }));

  printBanner(credentials);
}

function printBanner({ organization_id: orgId, email, password }) {
  const login = JSON.stringify({ email, password });
  const lines = [
    '',
    colour.bold(`Palisade is up on ${baseUrl} (started in ${((Date.now() - t0) / 1000).toFixed(1)}s)`),
    '',
    `  demo sign-in      ${email} / ${password}   (also in .data/demo-credentials.json)`,
    `  organization id   ${orgId}`,
    `  plane health      http://127.0.0.1:{4101..4105}/readyz, worker http://127.0.0.1:4106/readyz`,
    `  logs              .data/logs/<process>.log`,
    `  OpenAPI           ${baseUrl}/api/v2/openapi.json   (OPENAPI_ENABLED=false npm start turns it off)`,
    '',
    '  Sign in:',
    `    curl -s -X POST ${baseUrl}/api/v2/auth/login -H 'Content-Type: application/json' -d '${login}'`,
    '',
    '  Then, with the access_token it returns:',
    `    TOKEN=$(curl -s -X POST ${baseUrl}/api/v2/auth/login -H 'Content-Type: application/json' -d '${login}' | node -pe 'JSON.parse(require("fs").readFileSync(0)).access_token')`,
    `    curl -s ${baseUrl}/api/v2/me -H "Authorization: Bearer $TOKEN" -H 'X-Organization-ID: ${orgId}'`,
    '',
    colour.dim('  Ctrl-C stops everything.'),
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error) => {
  if (!error?.reported) ui.fail(error instanceof MissingPackageError ? error.message : error?.stack ?? String(error));
  void shutdown(1);
});
