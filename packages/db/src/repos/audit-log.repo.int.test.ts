import { createOrganization } from '@palisade/testing/factories';
import { useTestDatabase } from '@palisade/testing/test-database';
import { makeAuditLogRepo, verifyAuditChain } from './audit-log.repo';
import type { Db } from '../client';

// Tampering needs a session that skips the append-only trigger, as a superuser with direct
// database access (the threat the hash chain is for) could.
async function tamper(db: Db, sql: string, params: unknown[]): Promise<void> {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    await client.query(sql, params);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

describe('audit log hash chain', () => {
  const t = useTestDatabase();

  async function orgWithEntries(count: number) {
    const org = await createOrganization(t.db);
    const audit = makeAuditLogRepo(t.prisma);
    for (let i = 1; i <= count; i += 1) {
      await audit.append(org.id, { actorType: 'user', actorId: 'u-1', action: 'test.event', data: { i, nested: { b: 2, a: 1 } } });
    }
    return { org, audit };
  }

  it('numbers entries per tenant and links each to its predecessor', async () => {
    const { org, audit } = await orgWithEntries(3);
    const rows = await audit.list(org.id);
    expect(rows.map((r) => r.seq)).toEqual([1n, 2n, 3n]);
    expect(rows[0].prevHash).toBeNull();
    expect(rows[1].prevHash).toBe(rows[0].hash);
    expect(rows[2].prevHash).toBe(rows[1].hash);
    await expect(audit.verifyAuditChain(org.id)).resolves.toEqual({ ok: true, rows: 3 });
  });

  it('verifies an empty chain', async () => {
    const org = await createOrganization(t.db);
    await expect(verifyAuditChain(t.prisma, org.id)).resolves.toEqual({ ok: true, rows: 0 });
  });

  it('keeps the platform chain (org null) apart from tenant chains', async () => {
    const audit = makeAuditLogRepo(t.prisma);
    const before = (await audit.list(null, { limit: 1000 })).length;
    const first = await audit.append(null, { actorType: 'system', action: 'platform.event' });
    expect(first.orgId).toBeNull();
    expect(first.seq).toBe(BigInt(before + 1));
    await expect(audit.verifyAuditChain(null)).resolves.toMatchObject({ ok: true });
  });

  it('detects an edited row', async () => {
    const { org, audit } = await orgWithEntries(4);
    await tamper(t.db, `UPDATE audit_log SET data = '{"i": 99}' WHERE org_id = $1 AND seq = 2`, [org.id]);
    await expect(audit.verifyAuditChain(org.id)).resolves.toEqual({ ok: false, brokenAt: 2, reason: 'hash_mismatch' });
  });

  it('detects an edited row whose stored hash was replaced as well', async () => {
    const { org, audit } = await orgWithEntries(3);
    await tamper(t.db, `UPDATE audit_log SET action = 'x', hash = repeat('0', 64) WHERE org_id = $1 AND seq = 2`, [org.id]);
    const verdict = await audit.verifyAuditChain(org.id);
    expect(verdict).toMatchObject({ ok: false, brokenAt: 2 });
  });

  it('detects a deleted middle row', async () => {
    const { org, audit } = await orgWithEntries(5);
    await tamper(t.db, 'DELETE FROM audit_log WHERE org_id = $1 AND seq = 3', [org.id]);
    await expect(audit.verifyAuditChain(org.id)).resolves.toEqual({ ok: false, brokenAt: 3, reason: 'seq_gap' });
  });

  it('detects a deleted row whose successors were renumbered', async () => {
    const { org, audit } = await orgWithEntries(4);
    await tamper(t.db, 'DELETE FROM audit_log WHERE org_id = $1 AND seq = 2', [org.id]);
    await tamper(t.db, 'UPDATE audit_log SET seq = seq - 1 WHERE org_id = $1 AND seq > 2', [org.id]);
    await expect(audit.verifyAuditChain(org.id)).resolves.toEqual({ ok: false, brokenAt: 2, reason: 'prev_hash_mismatch' });
  });

  it('refuses UPDATE, DELETE and TRUNCATE from ordinary sessions', async () => {
    const { org } = await orgWithEntries(1);
    await expect(t.db.pool.query('UPDATE audit_log SET action = $2 WHERE org_id = $1', [org.id, 'x'])).rejects.toThrow(/append-only/);
    await expect(t.db.pool.query('DELETE FROM audit_log WHERE org_id = $1', [org.id])).rejects.toThrow(/append-only/);
    await expect(t.db.pool.query('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
  });

  it('keeps one valid chain under 20 concurrent appends', async () => {
    const org = await createOrganization(t.db);
    const audit = makeAuditLogRepo(t.prisma);
    const rows = await Promise.all(
      Array.from({ length: 20 }, (_, i) => audit.append(org.id, { actorType: 'user', action: 'test.concurrent', data: { i } })),
    );
    expect(rows.map((r) => Number(r.seq)).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    await expect(audit.verifyAuditChain(org.id)).resolves.toEqual({ ok: true, rows: 20 });
  });

  it('concurrent appends to different tenants do not interfere', async () => {
    const [a, b] = await Promise.all([createOrganization(t.db), createOrganization(t.db)]);
    const audit = makeAuditLogRepo(t.prisma);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => audit.append(i % 2 ? a.id : b.id, { actorType: 'user', action: 'test.mixed' })),
    );
    await expect(audit.verifyAuditChain(a.id)).resolves.toEqual({ ok: true, rows: 5 });
    await expect(audit.verifyAuditChain(b.id)).resolves.toEqual({ ok: true, rows: 5 });
  });

  it('stores what it hashed: dates become strings, undefined members disappear', async () => {
    const org = await createOrganization(t.db);
    const audit = makeAuditLogRepo(t.prisma);
    const row = await audit.append(org.id, {
      actorType: 'user',
      action: 'test.normalized',
      data: { when: new Date('2025-01-01T00:00:00Z'), gone: undefined, list: [1, 'two'] },
    });
    expect(row.data).toEqual({ when: '2025-01-01T00:00:00.000Z', list: [1, 'two'] });
    await expect(audit.verifyAuditChain(org.id)).resolves.toEqual({ ok: true, rows: 1 });
  });
});
