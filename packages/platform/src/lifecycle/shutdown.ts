import type { Server } from 'node:http';
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
    server.close((error) => (error ? reject(error) : resolve()));
    // Keep-alive sockets that sit idle would hold close() open; in-flight ones finish first.
    server.closeIdleConnections();
  });
}
