import { computeFingerprint } from '@palisade/domain/findings/fingerprint';
import type { TNormalizedFinding } from '@palisade/domain/findings/normalized-finding';
import { parseReportChunks, type TReportSource } from '@palisade/domain/reports/parse-report';
import type { TReportFormat } from '@palisade/domain/reports/report-item';
import { batcherFor, type TCreatedEventGroups, type TEncodeTally, type TIngestEncoding, type TStagedFinding } from '@palisade/db/repos/ingest-encoding';

/**
 * A report body turned into COPY batches: parse (streaming), normalize, fingerprint, encode, in
 * batches shipped one at a time. This is the CPU-heavy part of an ingest; the callback plane runs
 * it on a worker thread (report-encoder-pool) while its main thread receives the body and keeps
 * the database busy with the batches. Only database-free modules are imported here.
 */
export interface TEncodeJob {
  format: TReportFormat;
  /** The callback's `{tool}`. */
  tool: string;
  /** `type:id` of the scan's entity, part of every fingerprint. */
  entityKey: string;
  encoding: TIngestEncoding;
}

export interface TEncodeSummary extends TEncodeTally {
  /** Findings the report held (before dedupe). */
  results: number;
  /** Why the report says its tool's run did not complete (see TParseReportOptions.onIncomplete); absent when it does not. */
  incomplete?: string;
}

/** Ships one batch; the next is not shipped before this one has resolved. */
export type TShipBatch = (rows: Buffer[], events: TCreatedEventGroups | undefined) => Promise<void>;

/** Throws ReportParseError for a bad report (possibly after some batches were shipped), or what `ship` threw. */
export async function encodeReport(job: TEncodeJob, source: TReportSource, ship: TShipBatch): Promise<TEncodeSummary> {
  const { batcher, tally } = batcherFor(job.encoding, ship);
  let results = 0;
  let incomplete: string | undefined;
  const onIncomplete = (reason: string) => (incomplete = reason);
  try {
    for await (const items of parseReportChunks(job.format, source, { tool: job.tool, onIncomplete })) {
      for (const item of items) {
        if (item.type !== 'finding') continue;
        results++;
        // Awaited only when a batch must wait for the one before it (backpressure).
        const staged = batcher.write(toStagedRow(item.finding, job.entityKey, job.tool));
        if (staged !== undefined) await staged;
      }
    }
    await batcher.end();
  } catch (error) {
    await batcher.abandon();
    throw error;
  }
  return incomplete === undefined ? { results, ...tally() } : { results, ...tally(), incomplete };
}

function toStagedRow(finding: TNormalizedFinding, entityKey: string, tool: string): TStagedFinding {
  const location = hasKeys(finding.location) ? finding.location : undefined;
  return {
    fingerprint: computeFingerprint({ entityKey, tool, finding }),
    severity: finding.severity,
    title: finding.title,
    description: finding.message,
    ruleId: finding.rule.id,
    ruleName: finding.rule.name,
    cwe: finding.rule.cwe,
    cve: finding.rule.cve,
    location,
    evidence: finding.evidence,
    suppression: finding.suppression,
  };
}

/** Whether an object has an own key (without listing them all, once per finding). */
function hasKeys(o: object): boolean {
  for (const key in o) if (Object.hasOwn(o, key)) return true;
  return false;
}
