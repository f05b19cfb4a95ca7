// One factory for database access in every process: a primary client for writes and
// read-your-writes, a replica client for the read plane (DATABASE_READ_URL, else the primary),
// and the primary's pg pool for hot paths that want plain SQL (bulk ingest upserts).
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client';

export type TCreateDbOptions = {
  url: string;
  readUrl?: string;
  /** Connections per pool (primary and replica each). Default 10. */
  poolSize?: number;
  applicationName?: string;
};

export type Db = {
  primary: PrismaClient;
  /** The read replica's client, or the primary itself when no read URL is configured. */
  replica: PrismaClient;
  /** The primary's pool, shared with `primary`: plain SQL for hot paths. */
  pool: pg.Pool;
  close(): Promise<void>;
};

/** Alias of Db, for callers that spell types with the T prefix. */
export type TDb = Db;

function makePool(connectionString: string, options: TCreateDbOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: options.poolSize ?? 10,
    application_name: options.applicationName,
  });
  // An idle client losing its connection emits 'error' on the pool; unhandled, it would crash
  // the process. The next checkout simply gets a fresh connection.
  pool.on('error', () => undefined);
  return pool;
}

export function createDb(options: TCreateDbOptions): Db {
  const pool = makePool(options.url, options);
  const primary = new PrismaClient({ adapter: new PrismaPg(pool) });
  const readPool = options.readUrl && options.readUrl !== options.url ? makePool(options.readUrl, options) : undefined;
  const replica = readPool ? new PrismaClient({ adapter: new PrismaPg(readPool) }) : primary;
  let closing: Promise<void> | undefined;
  return {
    primary,
    replica,
    pool,
    close() {
      closing ??= (async () => {
        await Promise.all([primary.$disconnect(), replica === primary ? undefined : replica.$disconnect()]);
        await Promise.all([pool.end(), readPool?.end()]);
      })();
      return closing;
    },
  };
}
