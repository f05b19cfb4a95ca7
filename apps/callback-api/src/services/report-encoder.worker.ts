import { parentPort } from 'node:worker_threads';
import { recycleCopyChunks } from '@palisade/db/repos/copy-binary-rows';
import { ReportParseError } from '@palisade/domain/reports/report-parse-error';
import type { TFromWorker, TToWorker } from './report-encoder.protocol';
import { encodeReport, type TEncodeJob } from './report-encoding';

/**
 * A report-encoder worker thread (report-encoder-pool): runs encodeReport for one job at a
 * time, with the body's bytes and the shipping of batches on the plane's side of the port.
 */
const port = parentPort;
if (port === null) throw new Error('report-encoder.worker runs as a worker thread');
const post = (message: TFromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

/** The body's chunks as they arrive, read by the parser; credit goes back as each is taken. */
class ChunkQueue implements AsyncIterable<Buffer> {
  private readonly chunks: Buffer[] = [];
  private ended = false;
  private wake: (() => void) | null = null;

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.notify();
  }

  end(): void {
    this.ended = true;
    this.notify();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Buffer> {
    for (;;) {
      const chunk = this.chunks.shift();
      if (chunk !== undefined) {
        post({ type: 'consumed', bytes: chunk.length });
        yield chunk;
      } else if (this.ended) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}

let input: ChunkQueue | null = null;
/** Batches posted and not yet confirmed shipped, oldest first. */
const unshipped: Array<{ shipped: Promise<void>; confirm: () => void }> = [];
/**
 * Batches that may wait on the plane's side: the next one is there when the database finishes
 * one, instead of being posted only then (a round trip through this busy thread, per batch).
 */
const BATCHES_AHEAD = 2;

port.on('message', (message: TToWorker) => {
  switch (message.type) {
    case 'start':
      input = new ChunkQueue();
      void run(message.job, input);
      break;
    case 'chunk':
      input?.push(Buffer.from(message.bytes));
      break;
    case 'end':
      input?.end();
      break;
    case 'shipped':
      recycleCopyChunks(message.chunks.map((bytes) => Buffer.from(bytes)));
      unshipped.shift()?.confirm();
      break;
  }
});

async function run(job: TEncodeJob, source: ChunkQueue): Promise<void> {
  try {
    const summary = await encodeReport(job, source, (rows, events) => {
      const chunks = rows.map((row) => ({ buffer: row.buffer as ArrayBuffer, offset: row.byteOffset, length: row.length }));
      let confirm = () => undefined as void;
      const shipped = new Promise<void>((resolve) => (confirm = resolve));
      unshipped.push({ shipped, confirm });
      post({ type: 'batch', chunks, events }, chunks.map((chunk) => chunk.buffer));
      return unshipped.length <= BATCHES_AHEAD ? Promise.resolve() : unshipped[0].shipped;
    });
    post({ type: 'done', summary });
  } catch (error) {
    post({ type: 'failed', error: error instanceof ReportParseError ? { parse: error.toJSON() } : { message: String((error as Error)?.message ?? error) } });
  } finally {
    if (input === source) input = null;
    unshipped.length = 0;
  }
}
