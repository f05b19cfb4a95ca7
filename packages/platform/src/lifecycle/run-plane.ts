import { createServer, type Server } from 'node:http';
import type { z } from 'zod';
import { Redis } from 'ioredis';
import type { TPlane } from '@palisade/contracts';
import { createDb, makeRepositories, type Db, type TRepositories } from '@palisade/db';
import { makeAuthKit, type TAuthKit } from '../auth/auth-kit';
import { ConfigError, loadConfig, ZBaseEnv, type TBaseEnv } from '../config/env';
import { createPlaneApp, type TPlaneApp } from '../http/app-factory';
import { answerClientErrors } from '../http/client-errors';
import { makeOrgQuota } from '../http/org-quota';
import type { TAnyBoundRoute } from '../http/route-handler';
import type { TReadinessCheck } from '../http/health';
import { createLogger, type Logger } from '../logging/logger';
import { closeRedis, installShutdown, type TCloseHook } from './shutdown';

export interface TPlaneRuntime<E extends TBaseEnv = TBaseEnv> {
  env: Readonly<E>;
  logger: Logger;
  db: Db;
  /** Repositories over the client this plane reads from (the replica on the read plane). */
  repos: TRepositories;
  redis: Redis;
  auth: TAuthKit;
}

export interface TPlaneWiring {
  routes: TAnyBoundRoute[];
  readinessChecks?: Record<string, TReadinessCheck>;
  /** Closed before the database and Redis, in order (e.g. queues the plane produces to). */
  closeHooks?: TCloseHook[];
}

export type TBuildPlane<E extends TBaseEnv> = (runtime: TPlaneRuntime<E>) => Promise<TPlaneWiring>;

export interface TStartedPlane extends TPlaneApp {
  runtime: TPlaneRuntime;
  close(): Promise<void>;
}

/** Connections, auth kit and app of a plane, without listening: what tests and `runPlane` share. */
export async function startPlane<E extends TBaseEnv>(options: {
  plane: TPlane;
  env: Readonly<E>;
  logger: Logger;
  build: TBuildPlane<E>;
}): Promise<TStartedPlane> {
  const { env, logger } = options;
  const db = createDb({ url: env.DATABASE_URL, readUrl: options.plane === 'read' ? env.DATABASE_READ_URL : undefined });
  const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null, lazyConnect: false });
  redis.on('error', (error) => logger.warn({ err: error }, 'redis connection error'));
  const repos = makeRepositories(options.plane === 'read' ? db.replica : db.primary);
  // Keys and memberships decide access: always read from the primary, never a lagging replica.
  const primaryRepos = options.plane === 'read' ? makeRepositories(db.primary) : repos;
  const auth = makeAuthKit({
    keys: primaryRepos.signingKeys,
    memberships: primaryRepos.memberships,
    kek: Buffer.from(env.KEY_ENCRYPTION_KEY, 'base64'),
    serviceAccounts: primaryRepos.serviceAccounts,
  });
  const runtime: TPlaneRuntime<E> = { env, logger, db, repos, redis, auth };
  let wiring: TPlaneWiring;
  let planeApp: TPlaneApp;
  try {
    wiring = await options.build(runtime);
    planeApp = createPlaneApp({
      plane: options.plane,
      logger,
      routes: wiring.routes,
      access: auth.access,
      publicBaseUrl: env.PUBLIC_BASE_URL,
      diagnosticsEnabled: env.DIAGNOSTICS_ENABLED,
      trustProxy: env.TRUST_PROXY,
      quota:
        options.plane === 'write'
          ? makeOrgQuota({
              redis,
              prefix: env.REDIS_PREFIX,
              limitsFor: (orgId) => repos.orgQuotas.byOrg(orgId),
              onStoreError: (error) => logger.error({ err: error }, 'quota store unavailable; request allowed'),
            })
          : undefined,
      readinessChecks: {
        database: async () => void (await db.primary.$queryRawUnsafe('SELECT 1')),
        redis: async () => void (await redis.ping()),
        ...wiring.readinessChecks,
      },
    });
  } catch (error) {
    // A plane that cannot boot releases what it opened, so the caller's failure is the only trace.
    await db.close();
    redis.disconnect();
    throw error;
  }
  return {
    ...planeApp,
    runtime: runtime as unknown as TPlaneRuntime,
    async close() {
      for (const hook of wiring.closeHooks ?? []) await hook();
      await db.close();
      const how = await closeRedis(redis);
      if (how === 'disconnected') logger.warn('redis did not answer QUIT in time; connection dropped');
    },
  };
}

/**
 * The boot every plane shares: env → logger → connections → app → listen, and the same
 * graceful shutdown. A bad environment exits with the list of problems.
 */
export async function runPlane<S extends z.ZodType<TBaseEnv>>(options: {
  plane: TPlane;
  envSchema?: S;
  build: TBuildPlane<z.infer<S>>;
}): Promise<void> {
  let env: Readonly<z.infer<S>>;
  try {
    env = loadConfig(options.envSchema ?? (ZBaseEnv as unknown as S));
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${options.plane}-api: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger({ service: `palisade-${options.plane}`, plane: options.plane, level: env.LOG_LEVEL });
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));
  let started: TStartedPlane | undefined;
  let server: Server;
  try {
    started = await startPlane({ plane: options.plane, env, logger, build: options.build });
    server = await listen(started, env, options.plane);
  } catch (error) {
    // A plane that cannot boot (database unreachable, port taken, a route without a handler)
    // must end non-zero, so the supervisor or orchestrator sees the failure and restarts it.
    logger.fatal({ err: error }, `${options.plane} plane failed to start`);
    if (started) {
      const closing = started.close().catch(() => undefined);
      await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, env.SHUTDOWN_TIMEOUT_MS).unref())]);
    }
    process.exit(1);
  }
  logger.info({ port: env.PORT, host: env.HOST }, `${options.plane} plane listening`);
  // Longer than the edge's keepalive_timeout, so nginx never reuses a socket we are closing.
  server.keepAliveTimeout = 75_000;
  server.headersTimeout = 76_000;
  const plane = started;
  installShutdown({
    logger,
    server,
    beforeDrain: () => plane.readiness.setAccepting(false),
    hooks: [() => plane.close()],
    timeoutMs: env.SHUTDOWN_TIMEOUT_MS,
  });
}

export const PLANE_MAX_HEADER_BYTES = 48 * 1024;

function listen(started: TStartedPlane, env: Readonly<TBaseEnv>, plane: TPlane): Promise<Server> {
  return new Promise((resolve, reject) => {
    // Above what the edge lets through (4 × 8 KiB of request line and headers), so a request the
    // edge passes is never refused here for its headers, and every header refusal a client sees
    // through the edge is the edge's, under its request id.
    const server = createServer({ maxHeaderSize: PLANE_MAX_HEADER_BYTES }, started.app);
    answerClientErrors(server, plane);
    server.once('listening', () => resolve(server));
    server.once('error', reject);
    server.listen(env.PORT, env.HOST);
  });
}
