import { assertLocalDatabaseUrl, databaseUrl, testAdminUrl } from './local-postgres';

describe('local database guard', () => {
  it('accepts localhost, 127.0.0.1, ::1 and Unix sockets', () => {
    for (const url of [
      'postgresql://postgres@localhost:5432/x',
      'postgresql://postgres@127.0.0.1/x',
      'postgres://u:p@[::1]:5433/x',
      'postgresql:///x?host=/var/run/postgresql',
    ]) {
      expect(() => assertLocalDatabaseUrl(url)).not.toThrow();
    }
  });

  it('refuses any other host, including one smuggled in through ?host=', () => {
    for (const url of [
      'postgresql://postgres@db.example.com/x',
      'postgresql://postgres@10.0.0.5/x',
      'postgresql://postgres@127.0.0.1.example.com/x',
      'postgresql://postgres@localhost/x?host=db.example.com',
      'mysql://root@localhost/x',
      'not a url',
    ]) {
      expect(() => assertLocalDatabaseUrl(url)).toThrow(/refusing/);
    }
  });

  it('derives the admin URL from DATABASE_URL with the postgres database', () => {
    expect(testAdminUrl({ DATABASE_URL: 'postgresql://me@127.0.0.1:5432/palisade' })).toBe('postgresql://me@127.0.0.1:5432/postgres');
    expect(testAdminUrl({ PALISADE_TEST_ADMIN_URL: 'postgresql://admin@localhost/maintenance' })).toBe(
      'postgresql://admin@localhost/maintenance',
    );
    expect(testAdminUrl({})).toBe('postgresql://postgres@127.0.0.1:5432/postgres');
    expect(() => testAdminUrl({ DATABASE_URL: 'postgresql://me@prod.example.com/palisade' })).toThrow(/refusing/);
  });

  it('swaps only the database name', () => {
    expect(databaseUrl('postgresql://me:pw@127.0.0.1:5432/postgres?sslmode=disable', 'other')).toBe(
      'postgresql://me:pw@127.0.0.1:5432/other?sslmode=disable',
    );
  });
});
