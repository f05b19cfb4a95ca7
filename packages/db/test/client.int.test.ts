import { createTestDatabase, type TTestDatabase } from '@palisade/testing/test-database';
import { createDb } from '../src/client';

describe('createDb', () => {
  let primaryDb: TTestDatabase;
  let replicaDb: TTestDatabase;

  beforeAll(async () => {
    [primaryDb, replicaDb] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  });
  afterAll(async () => {
    await Promise.all([primaryDb?.drop(), replicaDb?.drop()]);
  });

  it('uses the primary for reads when no read URL is given', async () => {
    const db = createDb({ url: primaryDb.url });
    try {
      expect(db.replica).toBe(db.primary);
      const { rows } = await db.pool.query<{ db: string }>('SELECT current_database() AS db');
      expect(rows[0].db).toBe(primaryDb.name);
    } finally {
      await db.close();
    }
  });

  it('sends replica reads to DATABASE_READ_URL', async () => {
    const db = createDb({ url: primaryDb.url, readUrl: replicaDb.url });
    try {
      const [p] = await db.primary.$queryRaw<{ db: string }[]>`SELECT current_database() AS db`;
      const [r] = await db.replica.$queryRaw<{ db: string }[]>`SELECT current_database() AS db`;
      expect(p.db).toBe(primaryDb.name);
      expect(r.db).toBe(replicaDb.name);
    } finally {
      await db.close();
      await db.close(); // idempotent
    }
  });
});
