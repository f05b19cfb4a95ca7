// The edge: nginx with the config generated from the route table (infra/nginx/generate.ts),
// run in the foreground as a supervised child with everything it writes under .data/nginx.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ensureBinary } from './apt.mjs';
import { waitForHttpOk } from './net.mjs';
import { DATA_DIR, REPO_ROOT, run, tsNodeArgs, which } from './shell.mjs';

export function findNginx() {
  if (process.env.NGINX_BIN && existsSync(process.env.NGINX_BIN)) return process.env.NGINX_BIN;
  return which('nginx', ['/usr/sbin', '/usr/local/sbin', '/usr/local/nginx/sbin']);
}

export function ensureNginx({ ui }) {
  return ensureBinary({ find: findNginx, pkg: 'nginx', why: 'nginx is not installed', ui });
}

/** Writes .data/nginx/{nginx.conf,palisade.conf} for these addresses and checks them with nginx -t. */
export async function writeEdgeConfig({ binary, listen, upstreams }) {
  const dir = path.join(DATA_DIR, 'nginx');
  const list = Object.entries(upstreams).map(([plane, address]) => `${plane}=${address}`).join(',');
  await run(process.execPath, [
    ...tsNodeArgs(path.join(REPO_ROOT, 'infra/nginx/generate.ts')),
    '--target', 'local', '--listen', listen, '--upstreams', list, '--standalone', dir, '--workers', 'auto',
  ], { capture: true });
  const args = ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')];
  await run(binary, ['-t', '-q', ...args], { capture: true });
  return args;
}

export async function startEdge({ supervisor, binary, listen, upstreams, healthUrl }) {
  const args = await writeEdgeConfig({ binary, listen, upstreams });
  const child = supervisor.start({
    name: 'edge',
    command: binary,
    args: [...args, '-g', 'daemon off;'],
    // Stopped first: it finishes the requests it has proxied while the planes still serve them.
    tier: 0,
    // SIGQUIT: graceful (finish open requests), bounded by graceMs.
    stopSignal: 'SIGQUIT',
    graceMs: 10_000,
  });
  await waitForHttpOk(healthUrl, {
    timeoutMs: 15_000,
    abort: () => child.exitInfo && `nginx exited:\n${child.lastLines.join('\n')}`,
  });
  return child;
}
