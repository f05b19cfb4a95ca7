import { postToolOutcomeContract } from '@palisade/contracts';
import { bearerToken, defineHandler } from '@palisade/platform';
import type { IngestService } from '../../services/ingest.service';

interface TDeps {
  ingest: Pick<IngestService, 'reportOutcome'>;
}

export const postToolOutcomeRoute = ({ ingest }: TDeps) =>
  defineHandler(postToolOutcomeContract, async ({ params, body }, ctx) => {
    const result = await ingest.reportOutcome({ scanId: params.scan_id, tool: params.tool, token: bearerToken(ctx.req), body });
    ctx.log.info({ scanId: params.scan_id, tool: params.tool, status: result.tool_status }, 'tool outcome recorded');
    return { status: 200, body: result };
  });
