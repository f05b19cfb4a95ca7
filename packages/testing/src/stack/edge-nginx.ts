// A real nginx edge for tests, configured by the same generator as production
// (infra/nginx/generate.ts, target local) with the ports the test chose.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TPlane } from '@palisade/contracts';
import { ManagedProcess, tail } from './managed-process';

const run = promisify(execFile);

/** The monorepo root (this file is packages/testing/{src,dist}/stack/...). */
export const REPO_ROOT = path.resolve(__dirname, '../../../..');

/** Node arguments that run a TypeScript entry point from source, as `npm start` does. */
export function tsNodeArgs(entry: string): string[] {
  return ['--conditions=palisade-source', '--import', 'tsx', entry];
}

/** A TCP port nothing listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export function nginxBinary(): string {
  for (const candidate of [process.env.NGINX_BIN, '/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx']) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  throw new Error('nginx is not installed: `apt-get install -y nginx` (npm test installs it when run as root)');
}

/** Polls `url` until it answers 200, the process dies, or `timeoutMs` passes. */
export async function waitForOk(url: string, process: ManagedProcess, timeoutMs: number, logs: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (process.hasExited) {
      throw new Error(`${process.describeExit()} before ${url} was ready:\n${tail(logs())}`);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
      last = `HTTP ${res.status} ${await res.text()}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms (${last}):\n${tail(logs())}`);
}

export interface TEdgeNginx {
  baseUrl: string;
  port: number;
  dir: string;
  /** nginx's error log followed by its JSON access log. */
  logs(): string;
  stop(): Promise<void>;
}

/**
 * Renders the edge config for `upstreams` (plane → port, 127.0.0.1) into a fresh temp dir,
 * starts nginx in the foreground and waits until it answers.
 */
export async function startEdgeNginx(options: { upstreams: Record<TPlane, number>; port?: number }): Promise<TEdgeNginx> {
  const nginx = nginxBinary();
  const dir = mkdtempSync(path.join(tmpdir(), 'palisade-edge-'));
  const port = options.port ?? (await freePort());
  const upstreams = Object.entries(options.upstreams).map(([plane, p]) => `${plane}=127.0.0.1:${p}`).join(',');
  const read = (file: string) => (existsSync(path.join(dir, file)) ? readFileSync(path.join(dir, file), 'utf8') : '');
  const logs = () => `${read('error.log')}${read('access.log')}`;
  try {
    await run(process.execPath, [
      ...tsNodeArgs(path.join(REPO_ROOT, 'infra/nginx/generate.ts')),
      '--target', 'local', '--listen', `127.0.0.1:${port}`, '--upstreams', upstreams, '--standalone', dir,
    ], { cwd: REPO_ROOT });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const { stderr = '' } = error as { stderr?: string };
    throw new Error(`edge config generation failed: ${stderr || (error as Error).message}`);
  }
  const child = new ManagedProcess({
    name: 'nginx',
    command: nginx,
    args: ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log'), '-g', 'daemon off;'],
    cwd: dir,
    env: process.env,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await child.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForOk(`${baseUrl}/healthz`, child, 15_000, () => `${child.stderr}${logs()}`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, port, dir, logs, stop };
}
