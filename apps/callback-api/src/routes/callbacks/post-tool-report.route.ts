import { postToolReportContract } from '@palisade/contracts';
import { bearerToken, defineHandler } from '@palisade/platform';
import type { IngestService } from '../../services/ingest.service';
import { ClientAbortedError } from '../../services/ingest.service';

interface TDeps {
  ingest: Pick<IngestService, 'ingestReport'>;
}

export const postToolReportRoute = ({ ingest }: TDeps) =>
  defineHandler(postToolReportContract, async ({ params }, ctx) => {
    const { req, res } = ctx;
    try {
      const { result, replayed } = await ingest.ingestReport({
        scanId: params.scan_id,
        tool: params.tool,
        token: bearerToken(req),
        contentType: req.get('content-type'),
        reportFormat: req.get('x-report-format'),
        contentEncoding: req.get('content-encoding'),
        contentLength: req.get('content-length'),
        idempotencyKey: req.get('idempotency-key'),
        body: req,
      });
      if (!replayed) ctx.log.info({ scanId: params.scan_id, tool: params.tool, results: result.results, findings: result.findings }, 'report ingested');
      const headers: Record<string, string> = replayed ? { 'Idempotent-Replayed': 'true' } : {};
      return { status: 200, body: result, headers };
    } catch (error) {
      if (error instanceof ClientAbortedError) {
        ctx.log.warn({ scanId: params.scan_id, tool: params.tool }, 'report body aborted by the client; nothing written');
        res.destroy();
        return { handled: true };
      }
      // A refusal before the body was read to its end: do not make the client send (or us read)
      // up to 64 MiB more on this connection; answer and close it.
      if (!req.complete) res.setHeader('Connection', 'close');
      throw error;
    }
  });
