// The migrated TEMPLATE database every test database is cloned from. Its name carries a hash of
// the migrations folder, so changing a migration makes a new template instead of reusing a
// stale one, and cloning costs milliseconds where migrating costs seconds.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { databaseUrl, quoteIdent, testAdminUrl } from './local-postgres';

const run = promisify(execFile);

export const DB_PACKAGE_DIR = path.resolve(__dirname, '../../db');
const MIGRATIONS_DIR = path.join(DB_PACKAGE_DIR, 'prisma', 'migrations');
const SCHEMA_FILE = path.join(DB_PACKAGE_DIR, 'prisma', 'schema.prisma');
const GENERATED_DIR = path.join(DB_PACKAGE_DIR, 'src', 'generated', 'prisma');
const GENERATED_STAMP = path.join(GENERATED_DIR, '.schema-sha256');

// pg_advisory_lock keys (two int4 halves): one namespace for Palisade test tooling.
const LOCK_NAMESPACE = 0x7061_6c69; // "pali"
const LOCK_TEMPLATE = 1;
const LOCK_GENERATE = 2;

export const TEST_DB_PREFIX = 'palisade_test_';
const TEMPLATE_PREFIX = 'palisade_tpl_';
// Test databases left by a crashed run are dropped once they are this old and unused.
const STALE_TEST_DB_MS = 60 * 60 * 1000;

function hashFiles(files: string[], root: string): string {
  const hash = createHash('sha256');
  for (const file of files.sort()) {
    hash.update(path.relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

export function templateDatabaseName(): string {
  return `${TEMPLATE_PREFIX}${hashFiles(listFiles(MIGRATIONS_DIR), MIGRATIONS_DIR).slice(0, 12)}`;
}

function prismaCli(): string {
  // Strip the query string tsx's namespaced require appends to resolved paths.
  return require.resolve('prisma/build/index.js', { paths: [DB_PACKAGE_DIR] }).replace(/\?.*$/, '');
}

async function withAdvisoryLock<T>(client: Client, key: number, fn: () => Promise<T>): Promise<T> {
  await client.query('SELECT pg_advisory_lock($1, $2)', [LOCK_NAMESPACE, key]);
  try {
    return await fn();
  } finally {
    await client.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_NAMESPACE, key]);
  }
}

async function connectAdmin(adminUrl: string): Promise<Client> {
  const client = new Client({ connectionString: adminUrl, application_name: 'palisade-test-setup' });
  await client.connect();
  return client;
}

function generatedClientIsCurrent(schemaHash: string): boolean {
  return existsSync(path.join(GENERATED_DIR, 'client.ts')) && existsSync(GENERATED_STAMP) &&
    readFileSync(GENERATED_STAMP, 'utf8').trim() === schemaHash;
}

/**
 * Runs `prisma generate` when the generated client is missing or older than schema.prisma.
 * Serialized through PostgreSQL when it is reachable (parallel Jest processes), so one process
 * generates and the others find it done.
 */
export async function ensureGeneratedClient(adminUrl?: string): Promise<void> {
  const schemaHash = createHash('sha256').update(readFileSync(SCHEMA_FILE)).digest('hex');
  if (generatedClientIsCurrent(schemaHash)) return;
  const generate = async () => {
    if (generatedClientIsCurrent(schemaHash)) return;
    await run(process.execPath, [prismaCli(), 'generate'], { cwd: DB_PACKAGE_DIR, env: process.env });
    mkdirSync(GENERATED_DIR, { recursive: true });
    writeFileSync(GENERATED_STAMP, `${schemaHash}\n`);
  };
  if (!adminUrl) return generate();
  const client = await connectAdmin(adminUrl);
  try {
    await withAdvisoryLock(client, LOCK_GENERATE, generate);
  } finally {
    await client.end();
  }
}

/**
 * Creates the template database (migrate deploy into it) unless it already exists. It is built
 * under another name and renamed when complete, so a crash never leaves a half-migrated template.
 */
export async function ensureTemplateDatabase(adminUrl: string = testAdminUrl()): Promise<string> {
  const template = templateDatabaseName();
  const client = await connectAdmin(adminUrl);
  try {
    await withAdvisoryLock(client, LOCK_TEMPLATE, async () => {
      const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
      if (exists.rowCount) return;
      const building = `${template}_building`;
      await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(building)} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${quoteIdent(building)}`);
      try {
        await run(process.execPath, [prismaCli(), 'migrate', 'deploy'], {
          cwd: DB_PACKAGE_DIR,
          env: { ...process.env, DATABASE_URL: databaseUrl(adminUrl, building) },
        });
      } catch (err) {
        const { stdout = '', stderr = '' } = err as { stdout?: string; stderr?: string };
        throw new Error(`migrate deploy into the test template failed:\n${stdout}\n${stderr}`);
      }
      await client.query(`ALTER DATABASE ${quoteIdent(building)} RENAME TO ${quoteIdent(template)}`);
      await dropStaleDatabases(client, template);
    });
  } finally {
    await client.end();
  }
  return template;
}

// Old templates (other migration hashes) and test databases a crashed run left behind.
async function dropStaleDatabases(client: Client, currentTemplate: string): Promise<void> {
  const { rows } = await client.query<{ datname: string }>(
    `SELECT d.datname FROM pg_database d
      WHERE (d.datname LIKE $1 OR d.datname LIKE $2)
        AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.datname = d.datname)`,
    [`${TEMPLATE_PREFIX}%`, `${TEST_DB_PREFIX}%`],
  );
  for (const { datname } of rows) {
    if (datname === currentTemplate || datname.endsWith('_building')) continue;
    if (datname.startsWith(TEST_DB_PREFIX) && !isStaleTestDatabase(datname)) continue;
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(datname)}`).catch(() => undefined);
  }
}

/** Test database names are palisade_test_<base36 ms>_<random>; the time says when it was made. */
export function isStaleTestDatabase(name: string, now = Date.now()): boolean {
  const match = /^palisade_test_([0-9a-z]+)_[0-9a-z]+$/.exec(name);
  if (!match) return false;
  return now - parseInt(match[1], 36) > STALE_TEST_DB_MS;
}
