import express from 'express';
import { Redis } from 'ioredis';
import { createLogger, installShutdown, loadConfig, mountHealth } from '@palisade/platform';
import { createHttpMetrics } from '@palisade/platform/http/metrics';
import { isQueueName, makeQueueProducer, startWorkers, type TQueueName } from '@palisade/queue';
import { tmpdir } from 'node:os';
import { createDb } from '@palisade/db';
import { scheduleOutboxSweep } from './jobs/outbox-sweep.schedule';
import { ZWorkerEnv } from './env';
import { makeJobGiveUps, makeJobHandlers, type TWorkerDeps } from './handlers';

async function main(): Promise<void> {
  const env = loadConfig(ZWorkerEnv);
  const logger = createLogger({ service: 'palisade-worker', plane: 'worker', level: env.LOG_LEVEL });
  const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
  const db = createDb({ url: env.DATABASE_URL, applicationName: 'palisade-worker' });
  const queue = makeQueueProducer({ connection: redis, prefix: env.REDIS_PREFIX });
  const deps: TWorkerDeps = {
    db,
    redis,
    redisPrefix: env.REDIS_PREFIX,
    queue,
    log: logger,
    callbackBaseUrl: env.CALLBACK_BASE_URL ?? env.PUBLIC_BASE_URL,
    workDir: env.WORKER_WORK_DIR ?? tmpdir(),
    repositorySources: { fileUrls: env.FILE_REPOSITORIES_ENABLED },
    advisoryDir: env.PALISADE_ADVISORY_DIR,
  };
  const handlers = makeJobHandlers(deps);
  const available = Object.keys(handlers) as TQueueName[];
  const wanted = env.WORKER_QUEUES === 'all' ? available : env.WORKER_QUEUES.split(',').map((name) => name.trim());
  const unknown = wanted.filter((name) => !isQueueName(name) || !available.includes(name as TQueueName));
  if (unknown.length) {
    logger.fatal({ unknown, available }, 'WORKER_QUEUES names queues this worker does not consume');
    process.exit(2);
  }
  const workers = startWorkers({
    connection: redis,
    prefix: env.REDIS_PREFIX,
    queues: wanted as TQueueName[],
    handlers,
    giveUps: makeJobGiveUps(deps),
    log: logger,
    locks: { lockDurationMs: env.WORKER_LOCK_DURATION_MS, stalledIntervalMs: env.WORKER_STALLED_INTERVAL_MS },
  });
  const closeSweep = wanted.includes('outbox-sweep') ? await scheduleOutboxSweep({ connection: redis, prefix: env.REDIS_PREFIX }) : async () => undefined;

  const app = express();
  const readiness = mountHealth(app, { metrics: createHttpMetrics('worker'), checks: { redis: async () => void (await redis.ping()) }, logger });
  const server = app.listen(env.PORT, env.HOST, () => logger.info({ port: env.PORT, queues: wanted }, 'worker started'));
  installShutdown({
    logger,
    server,
    beforeDrain: () => readiness.setAccepting(false),
    hooks: [() => workers.close(), closeSweep, () => queue.close(), () => db.close(), async () => redis.disconnect()],
    timeoutMs: env.SHUTDOWN_TIMEOUT_MS,
  });
}

void main();
