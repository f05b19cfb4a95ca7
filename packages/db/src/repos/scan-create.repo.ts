// Creating one scan, the same way for POST /scans (write plane) and the fan-out job (worker):
// the plan, the tool rows with their hashed credentials, the outbox row and, inside a request,
// the timeline event — all in the caller's transaction.
import type { TTarget } from '@palisade/contracts';
import { initialToolStatus, issueCallbackToken, resolveScanPlan, scanEntity, type TResolvedPlan } from '@palisade/domain';
import type { Prisma } from '../generated/prisma/client';
import { recordScanCreated } from './scan-lifecycle.repo';
import { makeScanRepo, type TScanWithTools } from './scan.repo';

export type TCreateScanInput = {
  orgId: string;
  scanId: string;
  scanRequestId?: string | null;
  target: TTarget;
  tools?: readonly string[];
  deadlineAt: Date;
  actor?: { type: string; id: string } | null;
  correlationId?: string | null;
  now?: Date;
};

export type TCreatedScan = {
  scan: TScanWithTools;
  /** False when a scan with this id already existed (a re-run fan-out): nothing was written. */
  created: boolean;
  plan: TResolvedPlan;
  /** Plaintext credentials per tool, only when `created`: shown once, never stored. */
  tokens: Map<string, string>;
  outboxIds: string[];
};

export async function createScanInTransaction(tx: Prisma.TransactionClient, input: TCreateScanInput): Promise<TCreatedScan> {
  const now = input.now ?? new Date();
  const plan = resolveScanPlan(input.target, input.tools);
  const entity = scanEntity(input.target);
  const issued = plan.tools.map((tool) => ({ tool, status: initialToolStatus(tool), ...issueCallbackToken() }));
  const { scan, created } = await makeScanRepo(tx).createIfAbsent({
    id: input.scanId,
    orgId: input.orgId,
    scanRequestId: input.scanRequestId ?? null,
    target: input.target as Prisma.InputJsonValue,
    targetKind: input.target.kind,
    entityType: entity.type,
    entityId: entity.id,
    entityName: entity.name,
    plan: plan.plan,
    planReason: plan.reason,
    deadlineAt: input.deadlineAt,
    createdByType: input.actor?.type ?? null,
    createdById: input.actor?.id ?? null,
    correlationId: input.correlationId ?? null,
    createdAt: now,
    tools: issued.map((tool) => ({ tool: tool.tool, status: tool.status, callbackTokenHash: tool.hash })),
  });
  if (!created) return { scan, created, plan, tokens: new Map(), outboxIds: [] };
  const outboxIds = await recordScanCreated(
    tx,
    input.orgId,
    { scanId: scan.id, scanRequestId: scan.scanRequestId, target: input.target, plan: plan.plan, planReason: plan.reason, entity, tools: scan.tools },
    now,
  );
  return { scan, created, plan, tokens: new Map(issued.map((tool) => [tool.tool, tool.token])), outboxIds };
}
