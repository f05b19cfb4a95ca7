// Compares prisma/migrations with prisma/schema.prisma.
//
//   npm run -w @palisade/db migrate:diff            exit 0: in sync, 2: they differ (SQL printed)
//   npm run -w @palisade/db migrate:new -- <name>   writes the difference as a new migration
//
// The adapter-driven schema engine replays the migrations into the database it is connected to
// (it has no separate shadow database), so this runs it against a throwaway database created on
// the server named by DATABASE_URL (default: local PostgreSQL) and dropped afterwards.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';

const run = promisify(execFile);
const PACKAGE_DIR = path.resolve(__dirname, '..');
const MIGRATIONS_DIR = path.join(PACKAGE_DIR, 'prisma', 'migrations');
const SCHEMA_FILE = path.join(PACKAGE_DIR, 'prisma', 'schema.prisma');

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function diffAgainstMigrations(): Promise<{ code: number; sql: string; stderr: string }> {
  const baseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const scratch = `palisade_migdiff_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: withDatabase(baseUrl, 'postgres') });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${scratch}"`);
    const cli = require.resolve('prisma/build/index.js', { paths: [PACKAGE_DIR] });
    const args = [cli, 'migrate', 'diff', '--from-migrations', MIGRATIONS_DIR, '--to-schema-datamodel', SCHEMA_FILE, '--script', '--exit-code'];
    try {
      const { stdout, stderr } = await run(process.execPath, args, {
        cwd: PACKAGE_DIR,
        env: { ...process.env, DATABASE_URL: withDatabase(baseUrl, scratch) },
        maxBuffer: 64 * 1024 * 1024,
      });
      return { code: 0, sql: stdout, stderr };
    } catch (err) {
      const { code, stdout = '', stderr = '' } = err as { code?: number; stdout?: string; stderr?: string };
      return { code: typeof code === 'number' ? code : 1, sql: stdout, stderr };
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${scratch}" WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
}

function timestamp(): string {
  return new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

async function main(): Promise<number> {
  const [command, name] = process.argv.slice(2);
  const { code, sql, stderr } = await diffAgainstMigrations();
  if (code === 0) {
    process.stdout.write('prisma/migrations and schema.prisma are in sync.\n');
    return 0;
  }
  if (code !== 2) {
    process.stderr.write(stderr || sql);
    return 1;
  }
  if (command === '--write') {
    if (!name || !/^[a-z0-9_]{1,60}$/.test(name)) {
      process.stderr.write('usage: migrate:new -- <name>   (lower-case letters, digits, underscores)\n');
      return 1;
    }
    const dir = path.join(MIGRATIONS_DIR, `${timestamp()}_${name}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'migration.sql'), sql);
    process.stdout.write(`wrote ${path.relative(PACKAGE_DIR, dir)}/migration.sql\n`);
    return 0;
  }
  process.stderr.write('schema.prisma differs from prisma/migrations. Missing migration:\n\n');
  process.stdout.write(sql);
  process.stderr.write('\nCreate it with: npm run -w @palisade/db migrate:new -- <name>\n');
  return 2;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`migrate-diff failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
