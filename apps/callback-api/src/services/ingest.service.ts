import type { Readable } from 'node:stream';
import type { TIngestResult, TToolOutcomeBody, TToolOutcomeResult } from '@palisade/contracts';
import { AppError, isTerminalScan, isTerminalTool } from '@palisade/domain';
import { detectReportFormat } from '@palisade/domain/reports/parse-report';
import { ReportParseError } from '@palisade/domain/reports/report-parse-error';
import type { IngestRepo, TCallbackTarget, TCallbackTool, TIngestTransaction } from '@palisade/db';
import { BodyMeter, assertDeclaredLength, bodyCoding, decodedBody, hashBody, tooLarge, type TBodyCoding } from './ingest-body';
import { assertToolOpen, parseIdempotencyKey, verifyCallbackCredential } from './ingest-auth';
import type { ReportEncoderPool } from './report-encoder-pool';
import type { TEncodeSummary } from './report-encoding';

export interface TIngestRequest {
  scanId: string;
  tool: string;
  token: string | undefined;
  contentType: string | undefined;
  reportFormat: string | undefined;
  contentEncoding: string | undefined;
  contentLength: string | undefined;
  idempotencyKey: string | undefined;
  body: Readable;
}

export interface TIngestOutcome {
  result: TIngestResult;
  /** True when an earlier post with the same Idempotency-Key and body answered this one. */
  replayed: boolean;
}

export interface TIngestServiceDeps {
  ingest: Pick<IngestRepo, 'loadCallbackTarget' | 'receipt' | 'begin' | 'finishToolWithoutReport'>;
  limitBytes: number;
  /** Where reports are parsed and encoded (worker threads). */
  encoders: Pick<ReportEncoderPool, 'encode'>;
  /** Called after commit with the outbox rows written (e.g. enqueue outbox-dispatch); failures are the sweeper's. */
  afterCommit?: (outboxIds: string[]) => Promise<void>;
}

/** The body stopped before its end (client gone, proxy timeout): nothing to answer, nothing written. */
export class ClientAbortedError extends Error {
  constructor() {
    super('the client aborted the request body');
  }
}

export function makeIngestService(deps: TIngestServiceDeps) {
  async function authenticate(
    scanId: string,
    tool: string,
    token: string | undefined,
  ): Promise<{ target: TCallbackTarget; scanTool: TCallbackTool }> {
    const target = await deps.ingest.loadCallbackTarget(scanId);
    const scanTool = verifyCallbackCredential(target, tool, token);
    return { target: target as TCallbackTarget, scanTool };
  }

  async function replay(target: TCallbackTarget, scanTool: TCallbackTool, key: string | null, body: Readable, coding: TBodyCoding | null): Promise<TIngestOutcome> {
    const receipt = key === null ? null : await deps.ingest.receipt(target.orgId, scanTool.id, key);
    if (!receipt) {
      assertToolOpen(target, scanTool);
      throw new AppError('tool_already_reported', { message: `The tool ${scanTool.tool} has already ended (${scanTool.status}).` });
    }
    // Only the digest is needed: the stored answer stands for this body or for none.
    return answerFromReceipt(receipt, await hashBody(decodedBody(body, coding), deps.limitBytes));
  }

  return {
    async ingestReport(request: TIngestRequest): Promise<TIngestOutcome> {
      assertDeclaredLength(request.contentLength, deps.limitBytes);
      const key = parseIdempotencyKey(request.idempotencyKey);
      const { target, scanTool } = await authenticate(request.scanId, request.tool, request.token);
      const format = detectReportFormat(request.contentType, request.reportFormat);
      if (format === null) {
        throw new AppError('unsupported_media_type', {
          message: 'The report format is not recognised from Content-Type and X-Report-Format.',
          hint: 'Send application/sarif+json, application/vnd.cyclonedx+json, or application/json with X-Report-Format: palisade, trivy, grype, gitleaks, semgrep, npm-audit or osv-scanner.',
        });
      }
      const coding = bodyCoding(request.contentEncoding);
      if (isTerminalTool(scanTool.status) || isTerminalScan(target.status)) return replay(target, scanTool, key, request.body, coding);

      const at = new Date();
      const scope = { orgId: target.orgId, scanId: target.scanId, tool: request.tool, entity: target.entity, at };
      const tx = await deps.ingest.begin(scope);
      try {
        // Under the lock: a post with this key may have finished while this one waited.
        const receipt = key === null ? null : await tx.receipt(target.orgId, scanTool.id, key);
        const status = await tx.toolStatus(target.orgId, scanTool.id);
        if (receipt || (status !== null && isTerminalTool(status))) {
          await tx.rollback();
          return await replay(target, { ...scanTool, status: status ?? scanTool.status }, key, request.body, coding);
        }
        const meter = new BodyMeter(deps.limitBytes);
        const summary = await stageReport(deps.encoders, tx, { body: request.body, coding }, meter, format, request.tool, target);
        const counts = await tx.endStaging(summary);
        // A run the report itself says did not complete proves nothing by what it leaves out.
        const complete = summary.incomplete === undefined;
        const { fixed, outboxIds: fixedEvents } = complete ? await tx.markFixed() : { fixed: 0, outboxIds: [] };
        const transition = await tx.finishTool(target.orgId, target.scanId, request.tool, 'succeeded', {
          findingsCount: counts.distinct,
          reportComplete: complete,
          at,
          error: complete ? null : { error_code: 'report_incomplete', message: `${summary.incomplete}; findings it does not list were not marked fixed.` },
        });
        const result: TIngestResult = {
          scan_id: target.scanId,
          tool: request.tool,
          format,
          tool_status: transition.tool.to,
          scan_status: transition.scan?.to ?? (await currentScanStatus(tx, target)),
          results: summary.results,
          findings: { new: counts.new, seen_again: counts.seenAgain, fixed, suppressed: counts.suppressed, duplicates: counts.duplicates },
          report_complete: complete,
          incomplete_reason: summary.incomplete ?? null,
          idempotency_key: key,
          ingested_at: at.toISOString(),
        };
        if (key !== null)
          await tx.saveReceipt({ orgId: target.orgId, scanToolId: scanTool.id, idempotencyKey: key, bodySha256: meter.sha256, result });
        await tx.commit();
        if (deps.afterCommit) await deps.afterCommit([...transition.outboxIds, ...counts.outboxIds, ...fixedEvents]).catch(() => undefined);
        return { result, replayed: false };
      } catch (error) {
        await tx.rollback();
        throw error;
      }
    },

    async reportOutcome(input: {
      scanId: string;
      tool: string;
      token: string | undefined;
      body: TToolOutcomeBody;
    }): Promise<TToolOutcomeResult> {
      const { target, scanTool } = await authenticate(input.scanId, input.tool, input.token);
      // A retried outcome that already took effect answers the same, instead of a conflict.
      if (scanTool.status === input.body.status) {
        return { scan_id: target.scanId, tool: input.tool, tool_status: scanTool.status, scan_status: target.status };
      }
      assertToolOpen(target, scanTool);
      const error =
        input.body.error ??
        (input.body.status === 'failed' ? { error_code: 'tool_failed', message: 'The tool reported a failure without details.' } : null);
      const transition = await deps.ingest.finishToolWithoutReport(target.orgId, target.scanId, input.tool, input.body.status, error);
      if (deps.afterCommit) await deps.afterCommit(transition.outboxIds).catch(() => undefined);
      return {
        scan_id: target.scanId,
        tool: input.tool,
        tool_status: transition.tool.to,
        scan_status: transition.scan?.to ?? target.status,
      };
    },
  };
}

export type IngestService = ReturnType<typeof makeIngestService>;

/**
 * Streams the body (decoded) through the meter and an encoder worker into the ingest transaction.
 * Every failure surfaces here as a refusal (413, 422) or ClientAbortedError; the caller rolls back.
 */
async function stageReport(
  encoders: TIngestServiceDeps['encoders'],
  tx: TIngestTransaction,
  { body, coding }: { body: Readable; coding: TBodyCoding | null },
  meter: BodyMeter,
  format: NonNullable<ReturnType<typeof detectReportFormat>>,
  tool: string,
  target: TCallbackTarget,
): Promise<TEncodeSummary> {
  const onClose = () => {
    if (!(body as Readable & { complete?: boolean }).complete) meter.destroy(new ClientAbortedError());
  };
  const onUndecodable = (error: Error) => meter.destroy(error);
  body.on('close', onClose);
  body.on('error', onClose);
  const report = decodedBody(body, coding);
  if (report !== body) report.on('error', onUndecodable);
  report.pipe(meter);
  try {
    const job = { format, tool, entityKey: `${target.entity.type}:${target.entity.id}`, encoding: tx.encoding };
    return await encoders.encode(job, meter, (rows, events) => tx.ship(rows, events));
  } catch (error) {
    report.unpipe(meter);
    body.unpipe();
    if (error instanceof ReportParseError) throw reportRefusal(error, meter.bytes);
    throw error;
  } finally {
    body.off('close', onClose);
    body.off('error', onClose);
    report.off('error', onUndecodable);
  }
}

function reportRefusal(error: ReportParseError, bytes: number): AppError {
  if (error.code === 'report_too_large') return tooLarge(bytes);
  // The JSON Pointer as the API's field path: /runs/0/results → body.runs.0.results
  const field = [
    'body',
    ...error.pointer
      .split('/')
      .slice(1)
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~')),
  ].join('.');
  return new AppError('invalid_report', {
    message: `The report could not be ingested: ${error.message}.`,
    errors: [{ field, issue: `${error.code}: ${error.message}` }],
  });
}

function answerFromReceipt(receipt: { bodySha256: string; result: unknown }, digest: string): TIngestOutcome {
  if (receipt.bodySha256 !== digest) {
    throw new AppError('idempotency_key_reused', { message: 'This Idempotency-Key was already used with a different report body.' });
  }
  return { result: receipt.result as TIngestResult, replayed: true };
}

async function currentScanStatus(tx: TIngestTransaction, target: TCallbackTarget): Promise<TIngestResult['scan_status']> {
  const { rows } = await tx.client.query('SELECT status::text AS status FROM scans WHERE org_id = $1::uuid AND id = $2::uuid', [
    target.orgId,
    target.scanId,
  ]);
  return rows[0]?.status ?? target.status;
}
