import { deviceTokenContract } from '@palisade/contracts';
import { defineHandler } from '@palisade/platform';
import type { TDeviceFlowService } from '../../services/device-flow.service';

export const deviceTokenRoute = ({ deviceFlow }: { deviceFlow: Pick<TDeviceFlowService, 'redeem'> }) =>
  defineHandler(deviceTokenContract, async ({ body }, ctx) => {
    // RFC 6749 section 5.1: token responses, and the refusals of the same endpoint, are never cached.
    ctx.res.setHeader('Cache-Control', 'no-store');
    ctx.res.setHeader('Pragma', 'no-cache');
    const tokens = await deviceFlow.redeem({
      grantType: body.grant_type,
      deviceCode: body.device_code,
      clientId: body.client_id,
      correlationId: ctx.correlationId,
    });
    return { status: 200, body: tokens };
  });
