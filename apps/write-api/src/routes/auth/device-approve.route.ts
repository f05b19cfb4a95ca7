import { deviceApproveContract } from '@palisade/contracts';
import { defineHandler } from '@palisade/platform';
import type { TDeviceFlowService } from '../../services/device-flow.service';

export const deviceApproveRoute = ({ deviceFlow }: { deviceFlow: Pick<TDeviceFlowService, 'decide'> }) =>
  defineHandler(deviceApproveContract, async ({ body }, ctx) => {
    // auth: 'principal' guarantees a verified principal before the handler runs.
    const principal = ctx.principal!;
    const decided = await deviceFlow.decide({ userCode: body.user_code, decision: body.decision, principal, correlationId: ctx.correlationId });
    return { status: 200, headers: { 'Cache-Control': 'no-store' }, body: decided };
  });
