// Which PostgreSQL and Redis a launcher uses: what the environment names, else (for tests) the
// machine's standard local ports, else one this project already started, else our own.
import { OWN_POSTGRES_PORT, ensureDatabase, startOwnPostgres } from './postgres.mjs';
import { OWN_REDIS_PORT, startOwnRedis } from './redis.mjs';
import { portAnswers, redisAnswers } from './net.mjs';

const redact = (url) => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');

/**
 * `npm start`: DATABASE_URL as given; else the `palisade` database on our own cluster (port
 * 54329), started unless it is already up (another `npm start`/`npm test` of this checkout).
 */
export async function postgresForStart({ ui, supervisor }) {
  if (process.env.DATABASE_URL) {
    ui.info(`using DATABASE_URL ${redact(process.env.DATABASE_URL)}`);
    return process.env.DATABASE_URL;
  }
  let adminUrl = `postgresql://postgres@127.0.0.1:${OWN_POSTGRES_PORT}/postgres`;
  if (await portAnswers(OWN_POSTGRES_PORT)) ui.info(`PostgreSQL already running on ${OWN_POSTGRES_PORT}; using it`);
  else adminUrl = await startOwnPostgres({ ui, supervisor });
  return ensureDatabase(adminUrl, 'palisade');
}

/** `npm test`: an admin URL (database `postgres`): tests create a database per file from it. */
export async function postgresForTests({ ui, supervisor }) {
  const given = process.env.PALISADE_TEST_ADMIN_URL || process.env.DATABASE_URL;
  if (given) {
    ui.info(`using ${process.env.PALISADE_TEST_ADMIN_URL ? 'PALISADE_TEST_ADMIN_URL' : 'DATABASE_URL'} ${redact(given)}`);
    const url = new URL(given);
    if (!process.env.PALISADE_TEST_ADMIN_URL) url.pathname = '/postgres';
    return url.toString();
  }
  for (const port of [5432, OWN_POSTGRES_PORT]) {
    if (await portAnswers(port)) {
      ui.info(`PostgreSQL answers on 127.0.0.1:${port}; using it`);
      return `postgresql://postgres@127.0.0.1:${port}/postgres`;
    }
  }
  return startOwnPostgres({ ui, supervisor, fast: true });
}

export async function redisForStart({ ui, supervisor }) {
  if (process.env.REDIS_URL) {
    ui.info(`using REDIS_URL ${redact(process.env.REDIS_URL)}`);
    return process.env.REDIS_URL;
  }
  if (await redisAnswers(OWN_REDIS_PORT)) {
    ui.info(`Redis already running on ${OWN_REDIS_PORT}; using it`);
    return `redis://127.0.0.1:${OWN_REDIS_PORT}`;
  }
  return startOwnRedis({ ui, supervisor });
}

export async function redisForTests({ ui, supervisor }) {
  if (process.env.REDIS_URL) {
    ui.info(`using REDIS_URL ${redact(process.env.REDIS_URL)}`);
    return process.env.REDIS_URL;
  }
  for (const port of [6379, OWN_REDIS_PORT]) {
    if (await redisAnswers(port)) {
      ui.info(`Redis answers on 127.0.0.1:${port}; using it`);
      return `redis://127.0.0.1:${port}`;
    }
  }
  return startOwnRedis({ ui, supervisor, persist: false });
}
