// Where integration tests may connect: a local PostgreSQL only. Tests create and drop whole
// databases, so a URL that points anywhere else is refused rather than trusted.

const DEFAULT_ADMIN_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

export function assertLocalDatabaseUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('refusing a test database URL that does not parse');
  }
  if (parsed.protocol !== 'postgresql:' && parsed.protocol !== 'postgres:') {
    throw new Error(`refusing test database URL with protocol ${parsed.protocol}`);
  }
  // libpq lets ?host= override the authority; only a Unix socket path (local by definition) may.
  const hostParams = parsed.searchParams.getAll('host');
  const hostOk = LOCAL_HOSTS.has(parsed.hostname.toLowerCase()) || (parsed.hostname === '' && hostParams.length > 0);
  if (!hostOk || hostParams.some((h) => !h.startsWith('/'))) {
    throw new Error(
      `refusing to run tests against ${parsed.hostname || hostParams.join(',')}: tests create and drop ` +
        'databases, so only localhost, 127.0.0.1 or ::1 is allowed',
    );
  }
}

/** Admin connection (database `postgres`) from PALISADE_TEST_ADMIN_URL or DATABASE_URL. */
export function testAdminUrl(env: NodeJS.ProcessEnv = process.env): string {
  const raw = env.PALISADE_TEST_ADMIN_URL || env.DATABASE_URL || DEFAULT_ADMIN_URL;
  const url = new URL(raw);
  if (!env.PALISADE_TEST_ADMIN_URL) url.pathname = '/postgres';
  const result = url.toString();
  assertLocalDatabaseUrl(result);
  return result;
}

/** The same server and credentials as `adminUrl`, another database. */
export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export function quoteIdent(name: string): string {
  if (!/^[a-z0-9_]{1,63}$/.test(name)) throw new Error(`unexpected database name ${JSON.stringify(name)}`);
  return `"${name}"`;
}
