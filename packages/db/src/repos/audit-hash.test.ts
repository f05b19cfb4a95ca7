import { computeAuditHash, type TAuditHashInput } from './audit-hash';

const row: TAuditHashInput = {
  id: '0190f0e2-0000-7000-8000-000000000001',
  orgId: '0190f0e2-0000-7000-8000-0000000000aa',
  seq: 1n,
  actorType: 'user',
  actorId: 'u-1',
  action: 'finding.disposition',
  targetType: 'finding',
  targetId: 'f-1',
  data: { reason_code: 'false_positive', nested: { b: 2, a: 1 } },
  correlationId: 'c-1',
  at: new Date('2025-01-01T00:00:00.000Z'),
  prevHash: null,
};

describe('computeAuditHash', () => {
  it('is a sha256 hex digest', () => {
    expect(computeAuditHash(row)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('does not depend on key order inside data or on how seq was read', () => {
    const reordered = { ...row, seq: 1, data: { nested: { a: 1, b: 2 }, reason_code: 'false_positive' } };
    expect(computeAuditHash(reordered)).toBe(computeAuditHash(row));
  });

  it('changes when any field or the previous hash changes', () => {
    const base = computeAuditHash(row);
    const variants: Partial<TAuditHashInput>[] = [
      { action: 'finding.dismiss' },
      { data: { reason_code: 'wont_fix' } },
      { seq: 2n },
      { orgId: null },
      { at: new Date('2025-01-01T00:00:00.001Z') },
      { prevHash: 'a'.repeat(64) },
    ];
    for (const variant of variants) expect(computeAuditHash({ ...row, ...variant })).not.toBe(base);
  });
});
