import { createScanContract } from '@palisade/contracts';
import { defineHandler, type TRouteResult } from '@palisade/platform';
import type { TScanService } from '../../services/scan.service';

export const createScanRoute = ({ scans }: { scans: Pick<TScanService, 'create'> }) =>
  defineHandler(createScanContract, async ({ body }, ctx): Promise<TRouteResult> => {
    const result = await scans.create(
      { orgId: ctx.tenant!.orgId, principal: ctx.principal!, correlationId: ctx.correlationId },
      body,
    );
    if (result.kind === 'scan') {
      // The body carries one-time credentials: never cached.
      return { status: 201, headers: { 'Cache-Control': 'no-store', Location: `/api/v2/scans/${result.scan.scan_id}` }, body: result.scan };
    }
    return {
      status: 202,
      headers: { Location: `/api/v2/scan-requests/${result.request.scan_request_id}/timeline` },
      body: result.request,
    };
  });
