import { exchangePipelineTokenContract } from '@palisade/contracts';
import { defineHandler } from '@palisade/platform';
import type { TPipelineExchangeService } from '../../services/pipeline-exchange.service';

export const exchangePipelineTokenRoute = ({ pipelineExchange }: { pipelineExchange: Pick<TPipelineExchangeService, 'exchange'> }) =>
  defineHandler(exchangePipelineTokenContract, async ({ body }, ctx) => {
    const result = await pipelineExchange.exchange({ token: body.token, organizationId: body.organization_id }, { correlationId: ctx.correlationId });
    return {
      status: 200,
      headers: { 'Cache-Control': 'no-store' },
      body: {
        access_token: result.accessToken,
        token_type: 'Bearer',
        expires_in: result.expiresIn,
        organization_id: result.organizationId,
        scopes: result.scopes,
      },
    };
  });
