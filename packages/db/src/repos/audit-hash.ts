// The audit chain's hash: sha256 over the canonical JSON of a row's content, the previous row's
// hash included, so editing, removing or reordering any row breaks every hash after it.
import { createHash } from 'node:crypto';
import { canonicalJson } from '@palisade/domain/canonical-json';

export type TAuditHashInput = {
  id: string;
  orgId: string | null;
  seq: bigint | number;
  actorType: string;
  actorId: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  data: unknown;
  correlationId: string | null;
  at: Date;
  prevHash: string | null;
};

export function computeAuditHash(row: TAuditHashInput): string {
  const content = {
    id: row.id,
    org_id: row.orgId,
    // A string: the canonical form must not depend on whether seq was read as number or bigint.
    seq: row.seq.toString(),
    actor_type: row.actorType,
    actor_id: row.actorId,
    action: row.action,
    target_type: row.targetType,
    target_id: row.targetId,
    data: row.data,
    correlation_id: row.correlationId,
    at: row.at.toISOString(),
    prev_hash: row.prevHash,
  };
  return createHash('sha256').update(canonicalJson(content), 'utf8').digest('hex');
}
