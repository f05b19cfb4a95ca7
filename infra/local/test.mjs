#!/usr/bin/env node
// `npm test`: every workspace's tests through turbo, against real PostgreSQL, Redis and nginx.
// PostgreSQL: PALISADE_TEST_ADMIN_URL or DATABASE_URL when set, else 127.0.0.1:5432 when it
// answers, else our own cluster under .data (54329). Redis: REDIS_URL, else 127.0.0.1:6379, else
// our own (63799). nginx and Chromium are installed when missing (API tests start a real edge;
// the device-approval page is tested in a real browser).
// Extra arguments go to turbo: `npm test -- --filter=@palisade/testing`.
// Exits with the tests' exit code and ends with one line `tests: N passed, N failed`.
import { spawn } from 'node:child_process';
import { ensureNodeModules } from './lib/deps.mjs';
import { ensureChromium } from './lib/chromium.mjs';
import { ensureNginx } from './lib/nginx.mjs';
import { postgresForTests, redisForTests } from './lib/services.mjs';
import { REPO_ROOT, assertNodeVersion, run, watchParent } from './lib/shell.mjs';
import { Supervisor } from './lib/supervisor.mjs';
import * as ui from './lib/ui.mjs';

const supervisor = new Supervisor({ name: 'test', ui });
let turbo = null;

async function abort(code) {
  turbo?.kill('SIGTERM');
  await supervisor.stopAll();
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => void abort(130));
watchParent(() => void abort(130));

supervisor.onCrash((child, description) => {
  ui.fail(`${description} during the tests (log: .data/logs/${child.name}.log)`);
});

/** Jest prints `Tests: 3 failed, 1 skipped, 40 passed, 44 total` per workspace; we add them up. */
function makeTally() {
  const totals = { passed: 0, failed: 0, skipped: 0, todo: 0 };
  let pending = '';
  return {
    totals,
    feed(chunk) {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) {
        // eslint-disable-next-line no-control-regex
        const plain = line.replace(/\x1b\[[0-9;]*m/g, '');
        const match = /Tests:\s+(.*\d+ total)/.exec(plain);
        if (!match) continue;
        for (const [, count, kind] of match[1].matchAll(/(\d+) (passed|failed|skipped|todo)/g)) totals[kind] += Number(count);
      }
    },
  };
}

function runTurbo(env, extraArgs) {
  const args = ['turbo', 'run', 'test', '--concurrency=2', '--continue', '--env-mode=loose', '--ui=stream', ...extraArgs];
  ui.info(`npx ${args.join(' ')}`);
  const tally = makeTally();
  return new Promise((resolve) => {
    turbo = spawn('npx', args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    turbo.stdout.setEncoding('utf8').on('data', (chunk) => {
      process.stdout.write(chunk);
      tally.feed(chunk);
    });
    turbo.stderr.setEncoding('utf8').on('data', (chunk) => {
      process.stderr.write(chunk);
      tally.feed(chunk);
    });
    turbo.once('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), totals: tally.totals }));
  });
}

async function main() {
  assertNodeVersion();
  const t0 = Date.now();
  await supervisor.reapLeftovers();
  await ui.step('npm dependencies', () => ensureNodeModules({ ui }));
  const adminUrl = await ui.step('PostgreSQL', () => postgresForTests({ ui, supervisor }));
  const redisUrl = await ui.step('Redis', () => redisForTests({ ui, supervisor }));
  const nginx = await ui.step('nginx', () => ensureNginx({ ui }));
  const chromium = await ui.step('Chromium', () => ensureChromium({ ui }));
  const env = {
    ...process.env,
    PALISADE_TEST_ADMIN_URL: adminUrl,
    REDIS_URL: redisUrl,
    NGINX_BIN: nginx,
    CHROMIUM_PATH: chromium,
    TURBO_TELEMETRY_DISABLED: '1',
    TURBO_NO_UPDATE_NOTIFIER: '1',
    DO_NOT_TRACK: '1',
  };
  // Test databases are per file and clone a template; DATABASE_URL must not point tests elsewhere.
  delete env.DATABASE_URL;
  await ui.step('Prisma client (npm run -w @palisade/db generate)', () =>
    run('npm', ['run', '--silent', '-w', '@palisade/db', 'generate'], { env, quiet: true }));
  const { code, totals } = await runTurbo(env, process.argv.slice(2));
  await supervisor.stopAll();
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  const skipped = totals.skipped + totals.todo;
  ui.info(`npm test finished in ${seconds}s with exit code ${code}`);
  process.stdout.write(`tests: ${totals.passed} passed, ${totals.failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  process.exit(code);
}

main().catch(async (error) => {
  if (!error?.reported) ui.fail(error?.stack ?? String(error));
  await supervisor.stopAll();
  process.exit(1);
});
