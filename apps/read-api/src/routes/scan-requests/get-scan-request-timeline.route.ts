import { getScanRequestTimelineContract, type TScanRequestEvent } from '@palisade/contracts';
import type { ScanRequestRepo, TScanRequestProgress } from '@palisade/db';
import { AppError } from '@palisade/domain';
import { defineHandler } from '@palisade/platform';

export const getScanRequestTimelineRoute = ({
  scanRequests,
  progress,
}: {
  scanRequests: Pick<ScanRequestRepo, 'byId' | 'events'>;
  progress: (orgId: string, scanRequestId: string) => Promise<TScanRequestProgress>;
}) =>
  defineHandler(getScanRequestTimelineContract, async ({ params }, ctx) => {
    const orgId = ctx.tenant!.orgId;
    const request = await scanRequests.byId(orgId, params.id);
    if (!request) throw new AppError('not_found', { message: 'No such scan request.' });
    const [events, counts] = await Promise.all([scanRequests.events(orgId, request.id), progress(orgId, request.id)]);
    return {
      status: 200,
      body: {
        scan_request_id: request.id,
        status: request.status,
        progress: {
          total: request.targetsTotal,
          created: counts.created,
          queued: counts.queued,
          running: counts.running,
          finished: counts.finished,
          failed: counts.failed,
        },
        events: events.map((event) => ({
          at: event.at.toISOString(),
          type: event.type as TScanRequestEvent['type'],
          ...(event.scanId ? { scan_id: event.scanId } : {}),
          ...(event.target ? { target: event.target as TScanRequestEvent['target'] } : {}),
          ...(event.fromStatus ? { from: event.fromStatus } : {}),
          ...(event.toStatus ? { to: event.toStatus } : {}),
        })),
      },
    };
  });
