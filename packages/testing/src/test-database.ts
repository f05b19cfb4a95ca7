// A fresh database per test file: CREATE DATABASE ... TEMPLATE <migrated template> takes
// milliseconds, and files never see each other's rows, so they run in parallel without cleanup.
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createDb, type Db } from '@palisade/db/client';
import type { PrismaClient } from '@palisade/db/prisma-types';
import { assertLocalDatabaseUrl, databaseUrl, quoteIdent, testAdminUrl } from './local-postgres';
import { ensureTemplateDatabase, TEST_DB_PREFIX } from './template-db';

export type TTestDatabase = { url: string; name: string; drop(): Promise<void> };

const OBJECT_IN_USE = '55006'; // "source database is being accessed by other users"
const CREATE_ATTEMPTS = 50;

let templatePromise: Promise<string> | undefined;

// Set by the Jest global setup; outside Jest (a script, a REPL) the template is ensured here.
function templateName(adminUrl: string): Promise<string> {
  templatePromise ??= process.env.PALISADE_TEST_TEMPLATE_DB
    ? Promise.resolve(process.env.PALISADE_TEST_TEMPLATE_DB)
    : ensureTemplateDatabase(adminUrl);
  return templatePromise;
}

function newDatabaseName(): string {
  // The creation time in the name lets the global setup drop leftovers of crashed runs.
  const random = BigInt(`0x${randomBytes(8).toString('hex')}`).toString(36);
  return `${TEST_DB_PREFIX}${Date.now().toString(36)}_${random}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function createTestDatabase(): Promise<TTestDatabase> {
  const adminUrl = testAdminUrl();
  const template = await templateName(adminUrl);
  const name = newDatabaseName();
  const admin = new Client({ connectionString: adminUrl, application_name: 'palisade-test' });
  await admin.connect();
  try {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await admin.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(template)}`);
        break;
      } catch (err) {
        // Cloning needs the template to be free of sessions; one may be closing right now.
        if ((err as { code?: string }).code !== OBJECT_IN_USE || attempt >= CREATE_ATTEMPTS) throw err;
        await sleep(20 * attempt);
      }
    }
  } finally {
    await admin.end();
  }
  const url = databaseUrl(adminUrl, name);
  assertLocalDatabaseUrl(url);
  let dropped: Promise<void> | undefined;
  return {
    url,
    name,
    drop() {
      dropped ??= (async () => {
        const client = new Client({ connectionString: adminUrl, application_name: 'palisade-test' });
        await client.connect();
        try {
          await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
        } finally {
          await client.end();
        }
      })();
      return dropped;
    },
  };
}

export type TTestDatabaseHandle = {
  readonly url: string;
  readonly name: string;
  /** primary / replica / pool from @palisade/db (replica is the primary here). */
  readonly db: Db;
  /** Shorthand for db.primary. */
  readonly prisma: PrismaClient;
};

/**
 * For a Jest test file: a fresh database in beforeAll, dropped in afterAll. Read the fields
 * inside tests or hooks, not at module level (they exist once beforeAll ran).
 */
export function useTestDatabase(): TTestDatabaseHandle {
  let database: TTestDatabase | undefined;
  let db: Db | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb({ url: database.url, poolSize: 5, applicationName: 'palisade-test' });
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  }, 60_000);
  const ready = () => {
    if (!database || !db) throw new Error('useTestDatabase(): read it inside a test or hook, after beforeAll');
    return { database, db };
  };
  return {
    get url() {
      return ready().database.url;
    },
    get name() {
      return ready().database.name;
    },
    get db() {
      return ready().db;
    },
    get prisma() {
      return ready().db.primary;
    },
  };
}
