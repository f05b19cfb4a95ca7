import { createOrganization } from '@palisade/testing/factories';
import { useTestDatabase } from '@palisade/testing/test-database';
import type { Prisma } from '../generated/prisma/client';
import { uuidv7 } from '../ids';
import { createScanInTransaction } from './scan-create.repo';
import { closeScan, transitionTool } from './scan-lifecycle.repo';

describe('scan lifecycle writes', () => {
  const t = useTestDatabase();

  async function scanWithTools(tools: string[]) {
    const org = await createOrganization(t.db);
    const scanId = uuidv7();
    await t.prisma.$transaction((tx: Prisma.TransactionClient) =>
      createScanInTransaction(tx, { orgId: org.id, scanId, target: { kind: 'image', reference: 'nginx:1' }, tools, deadlineAt: new Date(Date.now() + 60_000) }),
    );
    return { orgId: org.id, scanId };
  }

  it('lets exactly one of two tools finishing at once finalize the scan', async () => {
    const { orgId, scanId } = await scanWithTools(['trivy', 'grype']);
    // Two concurrent transactions, one per tool, as two callback-plane replicas would run them.
    await Promise.all(
      ['trivy', 'grype'].map((tool) => t.prisma.$transaction((tx: Prisma.TransactionClient) => transitionTool(tx, orgId, scanId, tool, 'succeeded', { findingsCount: 2 }))),
    );
    const scan = await t.prisma.scan.findUniqueOrThrow({ where: { id: scanId } });
    expect(scan).toMatchObject({ status: 'succeeded', findingsCount: 4 });
    const changes = await t.prisma.outbox.findMany({ where: { orgId, event: 'scan.status_changed' } });
    expect(changes.map((row) => (row.payload as { to: string }).to).sort()).toEqual(['running', 'succeeded']);
  });

  it('works inside a plain pg transaction too (the callback plane’s bulk ingest client)', async () => {
    const { orgId, scanId } = await scanWithTools(['semgrep']);
    const client = await t.db.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await transitionTool(client, orgId, scanId, 'semgrep', 'failed', { error: { error_code: 'crashed', message: 'boom' } });
      await client.query('COMMIT');
      expect(result.scan).toEqual({ from: 'queued', to: 'failed' });
      expect(result.outboxIds).toHaveLength(2);
    } finally {
      client.release();
    }
    const tool = await t.prisma.scanTool.findFirstOrThrow({ where: { scanId } });
    expect(tool).toMatchObject({ status: 'failed', error: { error_code: 'crashed', message: 'boom' }, finishedAt: expect.any(Date) });
  });

  it('refuses an illegal transition and rolls the whole transaction back', async () => {
    const { orgId, scanId } = await scanWithTools(['semgrep']);
    await t.prisma.$transaction((tx: Prisma.TransactionClient) => transitionTool(tx, orgId, scanId, 'semgrep', 'succeeded'));
    const outboxBefore = await t.prisma.outbox.count({ where: { orgId } });
    await expect(
      t.prisma.$transaction((tx: Prisma.TransactionClient) => transitionTool(tx, orgId, scanId, 'semgrep', 'running')),
    ).rejects.toMatchObject({ code: 'invalid_state_transition' });
    expect(await t.prisma.outbox.count({ where: { orgId } })).toBe(outboxBefore);
    expect(await t.prisma.scanTool.findFirstOrThrow({ where: { scanId } })).toMatchObject({ status: 'succeeded' });
  });

  it('does not find another organization’s scan', async () => {
    const { scanId } = await scanWithTools(['semgrep']);
    const other = await createOrganization(t.db);
    await expect(
      t.prisma.$transaction((tx: Prisma.TransactionClient) => transitionTool(tx, other.id, scanId, 'semgrep', 'succeeded')),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('closes a scan at its deadline once; a second close does nothing', async () => {
    const { orgId, scanId } = await scanWithTools(['trivy', 'grype']);
    await t.prisma.$transaction((tx: Prisma.TransactionClient) => transitionTool(tx, orgId, scanId, 'trivy', 'succeeded'));
    const error = { error_code: 'deadline_exceeded', message: 'late' };
    const first = await t.prisma.$transaction((tx: Prisma.TransactionClient) => closeScan(tx, orgId, scanId, 'timed_out', error));
    expect(first?.scan).toEqual({ from: 'running', to: 'partial' });
    expect(first?.tools).toEqual([{ tool: 'grype', from: 'pending', to: 'timed_out' }]);
    await expect(t.prisma.$transaction((tx: Prisma.TransactionClient) => closeScan(tx, orgId, scanId, 'timed_out', error))).resolves.toBeNull();
  });
});
