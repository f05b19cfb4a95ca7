import { randomBytes } from 'node:crypto';
import type { Express } from 'express';
import type { TPlane } from '@palisade/contracts';
import { createLogger, startPlane, ZBaseEnv, type TBaseEnv, type TBuildPlane, type TStartedPlane } from '@palisade/platform';
import type { Db } from '@palisade/db';
import { createTestDatabase } from './test-database';
import { createTestRedisPrefix } from './test-redis';

export interface TTestPlanes {
  env: Readonly<TBaseEnv>;
  /** The primary database client of the first plane: what factories write through. */
  db: Db;
  app(plane: TPlane): Express;
  plane(plane: TPlane): TStartedPlane;
  close(): Promise<void>;
}

/**
 * Starts planes in this process against a fresh database and Redis prefix, for API tests that
 * do not need the edge (supertest drives the Express apps directly). They share one key-
 * encryption key, so a token issued by one plane verifies on another, as in production.
 */
export async function startTestPlanes(
  builders: Partial<Record<TPlane, TBuildPlane<TBaseEnv>>>,
  overrides: Record<string, string> = {},
): Promise<TTestPlanes> {
  const database = await createTestDatabase();
  const redis = await createTestRedisPrefix();
  const env = Object.freeze(
    ZBaseEnv.parse({
      NODE_ENV: 'test',
      PORT: '0',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      OPENAPI_ENABLED: 'true',
      ...overrides,
    }),
  );
  const started = new Map<TPlane, TStartedPlane>();
  const close = async () => {
    for (const plane of started.values()) await plane.close();
    await redis.cleanup();
    await database.drop();
  };
  // Sequential: the write plane creates the first signing key the others verify with.
  const order: TPlane[] = ['write', 'read', 'callback', 'sse', 'admin'];
  try {
    for (const plane of order) {
      const build = builders[plane];
      if (!build) continue;
      const logger = createLogger({ service: `test-${plane}`, plane, level: env.LOG_LEVEL });
      started.set(plane, await startPlane({ plane, env, logger, build }));
    }
  } catch (error) {
    // A plane that refuses to boot must not leave connections open behind the failing test.
    await close();
    throw error;
  }
  const first = started.values().next().value as TStartedPlane;
  return {
    env,
    db: first.runtime.db,
    app: (plane) => must(started.get(plane), plane).app,
    plane: (plane) => must(started.get(plane), plane),
    close,
  };
}

function must<T>(value: T | undefined, plane: TPlane): T {
  if (!value) throw new Error(`plane ${plane} was not started in this test`);
  return value;
}
