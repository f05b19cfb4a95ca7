import { createDb, type Db } from '@palisade/db/client';
import { createTestDatabase, type TTestDatabase } from '../test-database';
import { createTestRedisPrefix, type TTestRedisPrefix } from '../test-redis';
import { startStack, type TStack, type TStartStackOptions } from './start-stack';

export interface TTestStack {
  stack: TStack;
  /** A client of the stack's database, for factories and direct checks. */
  db: Db;
  database: TTestDatabase;
  redis: TTestRedisPrefix;
  /** Stops the planes and the edge, then closes the client, deletes the Redis keys and drops the database. */
  stop(): Promise<void>;
}

/**
 * What a whole-stack test file sets up in beforeAll: its own database and Redis prefix, the
 * chosen planes behind the edge on them, and a database client. Undone by stop() in afterAll,
 * also when startStack fails half-way.
 */
export async function startTestStack(
  options: Omit<TStartStackOptions, 'databaseUrl' | 'redisUrl' | 'redisPrefix'> = {},
): Promise<TTestStack> {
  const database = await createTestDatabase();
  const redis = createTestRedisPrefix();
  let stack: TStack | undefined;
  let db: Db | undefined;
  const stop = async () => {
    await stack?.stop();
    await db?.close();
    await redis.cleanup();
    await database.drop();
  };
  try {
    stack = await startStack({ ...options, databaseUrl: database.url, redisUrl: redis.url, redisPrefix: redis.prefix });
    db = createDb({ url: database.url });
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
  return { stack, db, database, redis, stop };
}
