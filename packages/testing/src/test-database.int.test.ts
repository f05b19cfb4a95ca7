import { Client } from 'pg';
import { createOrganization } from './factories';
import { testAdminUrl } from './local-postgres';
import { templateDatabaseName } from './template-db';
import { createTestDatabase, useTestDatabase } from './test-database';

async function databaseExists(name: string): Promise<boolean> {
  const admin = new Client({ connectionString: testAdminUrl() });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return rowCount === 1;
  } finally {
    await admin.end();
  }
}

describe('test databases', () => {
  const t = useTestDatabase();

  it('are clones of the migrated template', async () => {
    expect(t.name).toMatch(/^palisade_test_[0-9a-z]+_[0-9a-z]+$/);
    expect(process.env.PALISADE_TEST_TEMPLATE_DB).toBe(templateDatabaseName());
    const { rows } = await t.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL');
    expect(Number(rows[0].n)).toBeGreaterThan(0);
    await expect(t.prisma.organization.count()).resolves.toBe(0);
  });

  it('are isolated from each other, and dropped by drop()', async () => {
    const [a, b] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    try {
      expect(a.name).not.toBe(b.name);
      const clientA = new Client({ connectionString: a.url });
      const clientB = new Client({ connectionString: b.url });
      await Promise.all([clientA.connect(), clientB.connect()]);
      try {
        await clientA.query(`INSERT INTO organizations (id, slug, name) VALUES (gen_random_uuid(), 'only-in-a', 'A')`);
        const inA = await clientA.query(`SELECT 1 FROM organizations WHERE slug = 'only-in-a'`);
        const inB = await clientB.query(`SELECT 1 FROM organizations WHERE slug = 'only-in-a'`);
        expect([inA.rowCount, inB.rowCount]).toEqual([1, 0]);
      } finally {
        await Promise.all([clientA.end(), clientB.end()]);
      }
    } finally {
      await Promise.all([a.drop(), b.drop()]);
    }
    await expect(databaseExists(a.name)).resolves.toBe(false);
    await expect(databaseExists(b.name)).resolves.toBe(false);
  });

  it('drop() succeeds while connections are still open', async () => {
    const database = await createTestDatabase();
    const client = new Client({ connectionString: database.url });
    await client.connect();
    client.on('error', () => undefined); // the forced drop terminates this session
    await database.drop();
    await database.drop(); // idempotent
    await expect(databaseExists(database.name)).resolves.toBe(false);
    await client.end().catch(() => undefined);
  });

  it('gives the file its own rows, written through the factories', async () => {
    const org = await createOrganization(t.db);
    await expect(t.prisma.organization.findUnique({ where: { id: org.id } })).resolves.toMatchObject({ slug: org.slug });
  });
});
