import { z } from 'zod';
import { ZToolName } from '../../common/primitives';
import { defineRoute } from '../../route';
import { ZIngestResult } from './ingest-result.schemas';
import { REPORT_CONTENT_TYPES } from './report-formats';

export const ZToolCallbackParams = z.object({ scan_id: z.uuid(), tool: ZToolName }).strict();

/**
 * A scanner posts its report: the raw body (up to 64 MiB, streamed), authenticated by the
 * per-(scan, tool) credential issued when the scan was created. One transaction per report:
 * every finding is upserted, findings absent from this complete run become fixed, the tool
 * succeeds; a body that fails to parse writes nothing.
 */
export const postToolReportContract = defineRoute({
  operationId: 'postToolReport',
  method: 'POST',
  path: '/api/v2/callbacks/scans/:scan_id/tools/:tool',
  plane: 'callback',
  auth: 'callback',
  summary: 'Post a scanner report (SARIF, CycloneDX or tool-native JSON) for one tool of a scan',
  tags: ['callbacks'],
  request: { params: ZToolCallbackParams, rawBody: { contentTypes: REPORT_CONTENT_TYPES } },
  responses: { 200: { description: 'Report ingested (or the stored result of an earlier post with the same Idempotency-Key)', schema: ZIngestResult } },
});
