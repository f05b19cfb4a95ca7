// Scans and their tool rows. Every query names the tenant: a scan of another organization is
// simply not found.
import type { Prisma, Scan, ScanTool, ScanPlan, TargetKind, EntityType, ToolStatus } from '../generated/prisma/client';
import type { TDbClient } from '../prisma-types';

export type TScanWithTools = Scan & { tools: ScanTool[] };

export type TNewScanTool = {
  tool: string;
  status: Extract<ToolStatus, 'pending' | 'queued'>;
  /** sha256 of the tool's callback credential. */
  callbackTokenHash: string;
};

export type TNewScan = {
  id?: string;
  orgId: string;
  scanRequestId?: string | null;
  target: Prisma.InputJsonValue;
  targetKind: TargetKind;
  entityType: EntityType;
  entityId: string;
  entityName: string;
  plan: ScanPlan;
  planReason: string | null;
  deadlineAt: Date;
  createdByType?: string | null;
  createdById?: string | null;
  correlationId?: string | null;
  createdAt?: Date;
  tools: TNewScanTool[];
};

const withTools = { tools: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } } satisfies Prisma.ScanInclude;

export function makeScanRepo(db: TDbClient) {
  const repo = {
    byId(orgId: string, scanId: string): Promise<TScanWithTools | null> {
      return db.scan.findUnique({ where: { orgId_id: { orgId, id: scanId } }, include: withTools });
    },

    /**
     * Inserts the scan and its tools unless a scan with that id exists (a re-run fan-out):
     * returns the stored scan and whether this call created it. Call inside a transaction.
     */
    async createIfAbsent(input: TNewScan): Promise<{ scan: TScanWithTools; created: boolean }> {
      const at = input.createdAt ?? new Date();
      const { count } = await db.scan.createMany({
        data: [
          {
            id: input.id,
            orgId: input.orgId,
            scanRequestId: input.scanRequestId ?? null,
            target: input.target,
            targetKind: input.targetKind,
            entityType: input.entityType,
            entityId: input.entityId,
            entityName: input.entityName,
            plan: input.plan,
            planReason: input.planReason,
            status: 'queued',
            deadlineAt: input.deadlineAt,
            createdByType: input.createdByType ?? null,
            createdById: input.createdById ?? null,
            correlationId: input.correlationId ?? null,
            createdAt: at,
          },
        ],
        skipDuplicates: true,
      });
      if (count === 1 && input.tools.length > 0) {
        await repo.addTools(input.orgId, input.id as string, input.tools, input.deadlineAt, at);
      }
      const scan = await repo.byId(input.orgId, input.id as string);
      if (!scan) throw new Error(`scan ${input.id} vanished while being created`);
      return { scan, created: count === 1 };
    },

    /** Tool rows, in the given order, all with the scan's deadline (which is also their credential's expiry). */
    async addTools(orgId: string, scanId: string, tools: readonly TNewScanTool[], deadlineAt: Date, at: Date = new Date()): Promise<void> {
      for (const [i, tool] of tools.entries()) {
        // createdAt steps by a millisecond so the tools keep the order they were named in.
        await db.scanTool.create({
          data: {
            orgId,
            scanId,
            tool: tool.tool,
            status: tool.status,
            queuedAt: tool.status === 'queued' ? at : null,
            deadlineAt,
            callbackTokenHash: tool.callbackTokenHash,
            createdAt: new Date(at.getTime() + i),
          },
        });
      }
    },

    /** A new credential for a tool (the worker, starting a built-in tool, becomes its only holder). */
    async rotateCallbackToken(orgId: string, scanId: string, tool: string, callbackTokenHash: string): Promise<boolean> {
      const { count } = await db.scanTool.updateMany({ where: { orgId, scanId, tool }, data: { callbackTokenHash } });
      return count === 1;
    },

    async setPlanReason(orgId: string, scanId: string, planReason: string): Promise<void> {
      await db.scan.updateMany({ where: { orgId, id: scanId }, data: { planReason } });
    },

    /** Scans of a request in target order (fan-out ids sort by target index). */
    listByRequest(orgId: string, scanRequestId: string): Promise<TScanWithTools[]> {
      return db.scan.findMany({ where: { orgId, scanRequestId }, orderBy: { id: 'asc' }, include: withTools });
    },
  };
  return repo;
}

export type ScanRepo = ReturnType<typeof makeScanRepo>;
