import type { TCreatedEventGroups } from '@palisade/db/repos/ingest-encoding';
import type { ReportParseError } from '@palisade/domain/reports/report-parse-error';
import type { TEncodeJob, TEncodeSummary } from './report-encoding';

/**
 * Messages between the callback plane and a report-encoder worker, one job at a time. Bytes
 * travel as transferred ArrayBuffers (moved, not copied), both ways:
 *
 *   plane → worker   start(job), chunk … (body bytes), end
 *   worker → plane   consumed (input credit back), batch … (COPY chunks + events), done | failed
 *   plane → worker   shipped (after each batch's COPY: its chunks, back for reuse)
 */
export type TToWorker =
  | { type: 'start'; job: TEncodeJob }
  | { type: 'chunk'; bytes: ArrayBuffer }
  | { type: 'end' }
  | { type: 'shipped'; chunks: ArrayBuffer[] };

export type TFromWorker =
  | { type: 'consumed'; bytes: number }
  | { type: 'batch'; chunks: Array<{ buffer: ArrayBuffer; offset: number; length: number }>; events: TCreatedEventGroups | undefined }
  | { type: 'done'; summary: TEncodeSummary }
  | { type: 'failed'; error: TEncodeFailure };

/** A ReportParseError as its fields (the client's 422), or any other failure as its message (a 500). */
export type TEncodeFailure = { parse: ReturnType<ReportParseError['toJSON']> } | { message: string };
