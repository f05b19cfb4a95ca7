import {
  SCAN_DEADLINE_SECONDS,
  type TCreateScanBody,
  type TScan,
  type TScanRequestAccepted,
  type TTarget,
  type TToolCallback,
} from '@palisade/contracts';
import {
  createScanInTransaction,
  makeScanRequestRepo,
  appendOutboxRows,
  appendTimelineEvents,
  SCAN_REQUEST_TOPIC,
  uuidv7,
  type PrismaClient,
  type Prisma,
} from '@palisade/db';
import {
  AppError,
  assertRepositoryTargetsAllowed,
  isBuiltinTool,
  resolveScanPlan,
  scanJobIds,
  scanStartJobs,
  toolCallbackUrl,
  toScanView,
  type TRepositorySourcePolicy,
} from '@palisade/domain';
import { dispatchOutbox, type TQueueProducer } from '@palisade/queue';

export interface TScanServiceDeps {
  /** The primary client: every creation is one transaction. */
  db: Pick<PrismaClient, '$transaction'>;
  queue: Pick<TQueueProducer, 'enqueue' | 'enqueueMany'>;
  /** Base of the callback URLs handed to external scanners. */
  publicBaseUrl: string;
  /** Which repository URLs this deployment clones (file:// only where enabled). */
  repositorySources: TRepositorySourcePolicy;
  log?: { warn(obj: object, msg: string): void };
}

export interface TCreateScanActor {
  orgId: string;
  principal: { kind: string; id: string };
  correlationId: string;
}

export type TCreateScanResult = { kind: 'scan'; scan: TScan } | { kind: 'request'; request: TScanRequestAccepted };

export type TScanService = ReturnType<typeof makeScanService>;

/**
 * POST /scans. One target: the scan, its tools, their credentials and the outbox row in one
 * transaction, then the deadline and tool jobs. Several: the request and its first timeline
 * event, then the fan-out job creates the scans.
 */
export function makeScanService(deps: TScanServiceDeps) {
  const dispatchOutboxRows = (ids: readonly string[]) => dispatchOutbox(deps.queue, ids, deps.log);

  async function createOne(actor: TCreateScanActor, target: TTarget, tools: string[] | undefined, deadlineSeconds: number): Promise<TScan> {
    assertRepositoryTargetsAllowed([target], deps.repositorySources, () => 'body.target');
    const now = new Date();
    const deadlineAt = new Date(now.getTime() + deadlineSeconds * 1000);
    const scanId = uuidv7();
    const { scan, plan, tokens, outboxIds } = await deps.db.$transaction((tx: Prisma.TransactionClient) =>
      createScanInTransaction(tx, {
        orgId: actor.orgId,
        scanId,
        target,
        tools,
        deadlineAt,
        actor: { type: actor.principal.kind, id: actor.principal.id },
        correlationId: actor.correlationId,
        now,
      }),
    );
    for (const job of scanStartJobs({ orgId: actor.orgId, scanId, deadlineAt, planDeferred: plan.deferred, tools: scan.tools, now })) {
      await deps.queue.enqueue(job.queue, job.payload as never, { jobId: job.jobId, delayMs: 'delayMs' in job ? job.delayMs : undefined });
    }
    await dispatchOutboxRows(outboxIds);
    const callbacks = new Map<string, TToolCallback>(
      [...tokens]
        .filter(([tool]) => !isBuiltinTool(tool))
        .map(([tool, token]) => [
          tool,
          { url: toolCallbackUrl(deps.publicBaseUrl, scanId, tool), token, expires_at: deadlineAt.toISOString() },
        ]),
    );
    return toScanView(scan, callbacks);
  }

  async function createRequest(
    actor: TCreateScanActor,
    targets: TTarget[],
    tools: string[] | undefined,
    deadlineSeconds: number,
  ): Promise<TScanRequestAccepted> {
    assertRepositoryTargetsAllowed(targets, deps.repositorySources, (index) => `body.targets[${index}]`);
    const external = (tools ?? []).filter((tool) => !isBuiltinTool(tool));
    if (external.length > 0) {
      // Their credentials are shown once, on a 201; a fan-out has no response to show them in.
      throw new AppError('validation_failed', {
        message: 'External tools need a per-scan credential, which only a single-target request returns.',
        hint: 'Create one scan per target with POST /api/v2/scans {target} to use external tools.',
        errors: external.map((tool) => ({
          field: `body.tools[${(tools ?? []).indexOf(tool)}]`,
          issue: `${tool} is an external tool; use {target} to receive its callback credential`,
        })),
      });
    }
    // Refuse now, not in the worker, a target the plan can do nothing with.
    for (const target of targets) resolveScanPlan(target, tools);
    const id = uuidv7();
    const { request, outboxIds } = await deps.db.$transaction(async (tx: Prisma.TransactionClient) => {
      const request = await makeScanRequestRepo(tx).create({
        id,
        orgId: actor.orgId,
        targets: targets as Prisma.InputJsonValue[],
        tools: tools ?? [],
        deadlineSeconds,
        createdByType: actor.principal.kind,
        createdById: actor.principal.id,
        correlationId: actor.correlationId,
      });
      await appendTimelineEvents(tx, actor.orgId, id, [{ type: 'created', to: 'queued' }]);
      const outboxIds = await appendOutboxRows(tx, [
        {
          orgId: actor.orgId,
          topic: SCAN_REQUEST_TOPIC,
          event: 'scan_request.created',
          payload: {
            scan_request_id: id,
            status: 'queued',
            targets_total: targets.length,
            tools: tools ?? null,
            at: request.createdAt.toISOString(),
          },
        },
      ]);
      return { request, outboxIds };
    });
    await deps.queue.enqueue('scan-fanout', { org_id: actor.orgId, scan_request_id: id }, { jobId: scanJobIds.fanout(id) });
    await dispatchOutboxRows(outboxIds);
    return { scan_request_id: request.id, status: request.status, targets_total: request.targetsTotal };
  }

  return {
    async create(actor: TCreateScanActor, body: TCreateScanBody): Promise<TCreateScanResult> {
      const deadlineSeconds = body.deadline_seconds ?? SCAN_DEADLINE_SECONDS.default;
      if (body.target) return { kind: 'scan', scan: await createOne(actor, body.target, body.tools, deadlineSeconds) };
      return { kind: 'request', request: await createRequest(actor, body.targets ?? [], body.tools, deadlineSeconds) };
    },
  };
}
