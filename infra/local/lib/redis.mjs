// A Redis of our own under .data/redis (port 63799) for when none is given.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { ensureBinary } from './apt.mjs';
import { redisAnswers, waitFor } from './net.mjs';
import { DATA_DIR, which } from './shell.mjs';

export const OWN_REDIS_PORT = 63799;

export async function startOwnRedis({ ui, supervisor, port = OWN_REDIS_PORT, persist = true }) {
  const binary = await ensureBinary({ find: () => which('redis-server'), pkg: 'redis-server', why: 'Redis is not installed', ui });
  const dir = path.join(DATA_DIR, 'redis');
  mkdirSync(dir, { recursive: true });
  const child = supervisor.start({
    name: 'redis',
    command: binary,
    args: [
      '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--daemonize', 'no',
      // Queued jobs survive a restart of `npm start`; test runs keep nothing.
      ...(persist ? ['--appendonly', 'yes', '--save', '60 1'] : ['--appendonly', 'no', '--save', '']),
    ],
    tier: 2,
    echo: false,
    graceMs: 10_000,
  });
  await waitFor(`Redis on ${port}`, () => redisAnswers(port), {
    timeoutMs: 30_000,
    abort: () => child.exitInfo && `redis-server exited:\n${child.lastLines.join('\n')}`,
  });
  return `redis://127.0.0.1:${port}`;
}
