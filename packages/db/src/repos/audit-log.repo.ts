// Tamper-evident audit trail, one hash chain per tenant (org_id NULL: the platform's chain).
// Appends for one chain are serialized with a transaction-scoped advisory lock, so concurrent
// appends queue up instead of forking the chain (two rows claiming the same predecessor).
import { canonicalJson } from '@palisade/domain/canonical-json';
import type { AuditLog, Prisma, PrismaClient } from '../generated/prisma/client';
import { uuidv7 } from '../ids';
import type { TDbClient } from '../prisma-types';
import { computeAuditHash } from './audit-hash';

export type TAuditEntry = {
  actorType: string;
  actorId?: string | null;
  action: string;
  targetType?: string | null;
  targetId?: string | null;
  data?: unknown;
  correlationId?: string | null;
};

export type TAuditChainVerdict =
  | { ok: true; rows: number }
  | { ok: false; brokenAt: number; reason: 'seq_gap' | 'prev_hash_mismatch' | 'hash_mismatch' };

// pg_advisory_xact_lock(int4, int4): a fixed namespace, then the chain's key hashed to int4.
// Two tenants hashing alike merely share a queue.
const AUDIT_LOCK_NAMESPACE = 0x6175_6469; // "audi"
const PLATFORM_CHAIN = 'platform';
const VERIFY_BATCH = 1000;
const APPEND_TX_OPTIONS = { maxWait: 10_000, timeout: 10_000 };

/**
 * Appends inside the caller's transaction, so an audited change and its audit row commit
 * together. The chain stays locked until that transaction ends: keep it short.
 */
export async function appendAuditEntry(
  tx: Prisma.TransactionClient,
  orgId: string | null,
  entry: TAuditEntry,
): Promise<AuditLog> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${AUDIT_LOCK_NAMESPACE}::int4, hashtext(${orgId ?? PLATFORM_CHAIN}))`;
  const last = await tx.auditLog.findFirst({
    where: { orgId },
    orderBy: { seq: 'desc' },
    select: { seq: true, hash: true },
  });
  // What is hashed must be exactly what jsonb gives back: plain JSON, no undefined, no Dates.
  const data = JSON.parse(canonicalJson(entry.data ?? {})) as Prisma.InputJsonValue;
  const row = {
    id: uuidv7(),
    orgId,
    seq: (last?.seq ?? 0n) + 1n,
    actorType: entry.actorType,
    actorId: entry.actorId ?? null,
    action: entry.action,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    data,
    correlationId: entry.correlationId ?? null,
    at: new Date(),
    prevHash: last?.hash ?? null,
  };
  return tx.auditLog.create({ data: { ...row, hash: computeAuditHash(row) } });
}

/**
 * Walks the chain in seq order and reports the first row that does not fit: a missing seq
 * (deleted row), a prev_hash that is not its predecessor's hash, or a hash that does not match
 * the row's content (edited row). Truncating the newest rows is not detectable from the chain
 * alone; the append-only trigger on audit_log guards against that.
 */
export async function verifyAuditChain(db: TDbClient, orgId: string | null): Promise<TAuditChainVerdict> {
  let expectedSeq = 1n;
  let prevHash: string | null = null;
  let rows = 0;
  for (;;) {
    const batch: AuditLog[] = await db.auditLog.findMany({
      where: { orgId, seq: { gte: expectedSeq } },
      orderBy: { seq: 'asc' },
      take: VERIFY_BATCH,
    });
    for (const row of batch) {
      if (row.seq !== expectedSeq) return { ok: false, brokenAt: Number(expectedSeq), reason: 'seq_gap' };
      if (row.prevHash !== prevHash) return { ok: false, brokenAt: Number(row.seq), reason: 'prev_hash_mismatch' };
      if (computeAuditHash(row) !== row.hash) return { ok: false, brokenAt: Number(row.seq), reason: 'hash_mismatch' };
      prevHash = row.hash;
      expectedSeq += 1n;
      rows += 1;
    }
    if (batch.length < VERIFY_BATCH) return { ok: true, rows };
  }
}

export function makeAuditLogRepo(db: PrismaClient) {
  return {
    /** Appends in a transaction of its own. Inside a transaction, use appendAuditEntry(tx, ...). */
    append(orgId: string | null, entry: TAuditEntry): Promise<AuditLog> {
      return db.$transaction((tx) => appendAuditEntry(tx, orgId, entry), APPEND_TX_OPTIONS);
    },
    /** The chain in seq order, `afterSeq` exclusive: keyset pages for export. */
    list(orgId: string | null, page: { afterSeq?: bigint; limit?: number } = {}): Promise<AuditLog[]> {
      return db.auditLog.findMany({
        where: { orgId, seq: { gt: page.afterSeq ?? 0n } },
        orderBy: { seq: 'asc' },
        take: Math.min(Math.max(page.limit ?? 100, 1), 1000),
      });
    },
    verifyAuditChain(orgId: string | null): Promise<TAuditChainVerdict> {
      return verifyAuditChain(db, orgId);
    },
  };
}

export type AuditLogRepo = ReturnType<typeof makeAuditLogRepo>;
