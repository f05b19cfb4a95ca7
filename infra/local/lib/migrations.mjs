// Which Prisma migrations a database still lacks, read from Prisma's own `_prisma_migrations`
// table. `prisma migrate deploy` answers the same question but takes ~12 s to start its engine,
// which on a restart of `npm start` is most of the wait for nothing.
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { REPO_ROOT } from './shell.mjs';

const MIGRATIONS_DIR = path.join(REPO_ROOT, 'packages', 'db', 'prisma', 'migrations');

function migrationNames() {
  return readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/**
 * The migration folders not yet applied (finished and not rolled back) in the database at `url`.
 * A database without the table lacks them all; any other failure is left to migrate deploy, so it
 * reports it in its own words.
 */
export async function pendingMigrations(url) {
  const { Client } = createRequire(path.join(REPO_ROOT, 'package.json'))('pg');
  const client = new Client({ connectionString: url, application_name: 'palisade-start' });
  await client.connect();
  try {
    const exists = await client.query("SELECT to_regclass('public._prisma_migrations') IS NOT NULL AS present");
    if (!exists.rows[0].present) return migrationNames();
    const applied = await client.query('SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL');
    const done = new Set(applied.rows.map((row) => row.migration_name));
    return migrationNames().filter((name) => !done.has(name));
  } finally {
    await client.end();
  }
}
