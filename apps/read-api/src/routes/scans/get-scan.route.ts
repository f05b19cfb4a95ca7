import { getScanContract } from '@palisade/contracts';
import type { ScanRepo } from '@palisade/db';
import { AppError, toScanView } from '@palisade/domain';
import { defineHandler } from '@palisade/platform';

export const getScanRoute = ({ scans }: { scans: Pick<ScanRepo, 'byId'> }) =>
  defineHandler(getScanContract, async ({ params }, ctx) => {
    // Tenant first: another organization's scan is not found.
    const scan = await scans.byId(ctx.tenant!.orgId, params.scan_id);
    if (!scan) throw new AppError('not_found', { message: 'No such scan.' });
    return { status: 200, body: toScanView(scan) };
  });
