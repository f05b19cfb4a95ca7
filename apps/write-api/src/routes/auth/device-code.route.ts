import { deviceCodeContract } from '@palisade/contracts';
import { defineHandler } from '@palisade/platform';
import type { TDeviceFlowService } from '../../services/device-flow.service';

export const deviceCodeRoute = ({ deviceFlow }: { deviceFlow: Pick<TDeviceFlowService, 'start'> }) =>
  defineHandler(deviceCodeContract, async ({ body }, ctx) => {
    // RFC 6749 section 5.1: responses carrying credentials are never cached, refusals included.
    ctx.res.setHeader('Cache-Control', 'no-store');
    const started = await deviceFlow.start({ clientId: body.client_id, scope: body.scope });
    return { status: 200, body: started };
  });
