import type { Server } from 'node:http';
import type { Redis } from 'ioredis';
import type { Logger } from '../logging/logger';

export type TCloseHook = () => Promise<unknown>;

/**
 * SIGTERM/SIGINT: flip readiness, stop accepting, let in-flight requests finish, then close the
 * hooks in order (workers, queues, database, Redis). A bound forces the exit if draining hangs.
 */
export function installShutdown(options: {
  logger: Logger;
  server?: Server;
  beforeDrain?: () => void;
  hooks: TCloseHook[];
  timeoutMs: number;
}): (reason: string) => Promise<void> {
  let shuttingDown = false;
  const shutdown = async (reason: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    options.logger.info({ reason }, 'shutting down');
    options.beforeDrain?.();
    const force = setTimeout(() => {
      options.logger.error({ timeoutMs: options.timeoutMs }, 'shutdown timed out; exiting');
      process.exit(1);
    }, options.timeoutMs);
    force.unref();
    try {
      if (options.server) await closeServer(options.server);
      for (const hook of options.hooks) await hook();
      options.logger.info('shut down cleanly');
      clearTimeout(force);
      process.exit(0);
    } catch (error) {
      options.logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  return shutdown;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    // Keep-alive sockets that sit idle would hold close() open until their keep-alive timeout.
    // close() drops the idle ones once; a socket busy then goes idle when its response is done,
    // so keep sweeping until the last one is gone. In-flight requests always finish first.
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    server.close((error) => {
      clearInterval(sweep);
      if (error) reject(error);
      else resolve();
    });
    server.closeIdleConnections();
  });
}

/**
 * QUIT lets the commands already sent finish (a quota increment, an enqueued job) before the
 * connection closes; `disconnect()` would drop them. A server that does not answer within the
 * bound is dropped anyway, so shutdown never waits on Redis for ever.
 */
export async function closeRedis(redis: Redis, timeoutMs = 2000): Promise<'quit' | 'disconnected'> {
  if (redis.status === 'end') return 'quit';
  let timer: NodeJS.Timeout | undefined;
  const ended = new Promise<'quit'>((resolve) => redis.once('end', () => resolve('quit')));
  const timedOut = new Promise<'disconnected'>((resolve) => {
    timer = setTimeout(() => resolve('disconnected'), timeoutMs);
  });
  // A rejection means the connection is already closing: 'end' follows either way.
  redis.quit().catch(() => undefined);
  const outcome = await Promise.race([ended, timedOut]);
  clearTimeout(timer);
  if (outcome === 'disconnected') redis.disconnect();
  return outcome;
}
