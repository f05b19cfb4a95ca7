import { availableParallelism } from 'node:os';
import type { Readable } from 'node:stream';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ReportParseError } from '@palisade/domain/reports/report-parse-error';
import type { TEncodeFailure, TFromWorker, TToWorker } from './report-encoder.protocol';
import type { TEncodeJob, TEncodeSummary, TShipBatch } from './report-encoding';

/**
 * Report encoding (parse, normalize, fingerprint, COPY-encode: report-encoding) on worker
 * threads. A large report is CPU-bound in that work; on the plane's own thread it also had to
 * share the thread with receiving the body and feeding PostgreSQL, one after the other. On a
 * worker the three overlap: the main thread streams the body in and the batches out, the worker
 * turns one into the other (bench/README.md, ingest).
 *
 * Memory stays bounded both ways: at most INPUT_WINDOW bytes of body are handed over and not
 * yet taken by the parser (the body is not read further meanwhile), and at most BATCHES_AHEAD
 * encoded batches wait here for the connection before the worker stops encoding
 * (report-encoder.worker).
 */
const INPUT_WINDOW = 4 * 1024 * 1024;
const MESSAGE_BYTES = 256 * 1024;

/** A worker whose job failed on the plane's side (body, database) may still be busy: it is not reused. */
type TRunResult = { ok: true; summary: TEncodeSummary } | { ok: false; error: unknown; reusable: boolean };

export class ReportEncoderPool {
  private readonly idle: Worker[] = [];
  private readonly waiting: Array<(worker: Worker) => void> = [];
  private live = 0;
  private closed = false;

  constructor(private readonly maxWorkers: number = Math.max(2, availableParallelism())) {}

  /** Starts one worker ahead of the first report, so that it does not wait for the worker's start-up. */
  warm(): void {
    if (this.live === 0 && !this.closed) this.idle.push(this.spawn());
  }

  /**
   * Encodes the body on a worker, shipping each batch through `ship` (one at a time, in order).
   * Throws what the body stream threw (size cap, client gone), ReportParseError for a bad
   * report, or what `ship` threw; resolves or rejects only once no batch is being shipped.
   */
  async encode(job: TEncodeJob, body: Readable, ship: TShipBatch): Promise<TEncodeSummary> {
    const worker = await this.acquire();
    const result = await runJob(worker, job, body, ship);
    if (result.ok || result.reusable) this.release(worker);
    else void worker.terminate();
    if (!result.ok) throw result.error;
    return result.summary;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.idle.splice(0).map((worker) => worker.terminate()));
  }

  private async acquire(): Promise<Worker> {
    if (this.closed) throw new Error('the report encoder pool is closed');
    const worker = this.idle.pop();
    if (worker !== undefined) return worker;
    if (this.live < this.maxWorkers) return this.spawn();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(worker: Worker): void {
    const next = this.waiting.shift();
    if (next !== undefined) next(worker);
    else if (this.closed) void worker.terminate();
    else this.idle.push(worker);
  }

  private spawn(): Worker {
    const worker = startEncoderWorker();
    this.live++;
    worker.unref();
    // A worker that stops (crash, terminate) leaves the pool; a caller waiting for one gets a new one.
    worker.once('exit', () => {
      this.live--;
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      const next = this.closed ? undefined : this.waiting.shift();
      if (next !== undefined) next(this.spawn());
    });
    worker.on('error', () => undefined); // surfaced to a running job by its own listener; 'exit' follows
    return worker;
  }
}

/**
 * The worker's module: compiled JavaScript next to this file, or — when the plane runs from
 * source (tsx, Jest) — the TypeScript file, loaded through tsx's require hook.
 */
function startEncoderWorker(): Worker {
  const fromSource = __filename.endsWith('.ts');
  const entry = path.join(__dirname, `report-encoder.worker${fromSource ? '.ts' : '.js'}`);
  if (!fromSource) return new Worker(entry, { resourceLimits: ENCODER_HEAP });
  const bootstrap = `require(${JSON.stringify(require.resolve('tsx/cjs'))}); require(${JSON.stringify(entry)});`;
  return new Worker(bootstrap, { eval: true, execArgv: ['--conditions=palisade-source'], resourceLimits: ENCODER_HEAP });
}

/**
 * A 96 MiB young generation (32 MiB semi-spaces) instead of V8's 48 MiB: nearly everything an
 * encoder allocates (parsed results, normalized findings, JSON text) dies within a batch, and a
 * scavenge costs what is still alive, not what died, so half as many scavenges cost ~30 % less
 * GC (a 135,612-result report: 44 pauses, 277–382 ms, against 93, 439–469 ms). The price is up
 * to ~48 MiB more RSS while a large report is encoded (bench/README.md, ingest).
 */
const ENCODER_HEAP = { maxYoungGenerationSizeMb: 96 };

function runJob(worker: Worker, job: TEncodeJob, body: Readable, ship: TShipBatch): Promise<TRunResult> {
  return new Promise<TRunResult>((resolve) => {
    let settled = false;
    let unconsumed = 0;
    let wakeFeeder: (() => void) | null = null;
    // Batches are shipped one after the other; the job settles only once the last has.
    let shipping: Promise<void> = Promise.resolve();
    const post = (message: TToWorker, transfer: ArrayBuffer[] = []) => worker.postMessage(message, transfer);

    const settle = (result: TRunResult) => {
      if (settled) return;
      settled = true;
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      // Nothing more is read: a failed job leaves the rest of the body unread (the caller answers).
      if (!result.ok) body.destroy();
      wake();
      void shipping.then(() => resolve(result));
    };
    const wake = () => {
      const feeder = wakeFeeder;
      wakeFeeder = null;
      feeder?.();
    };
    const onMessage = (message: TFromWorker) => {
      switch (message.type) {
        case 'consumed':
          unconsumed -= message.bytes;
          if (unconsumed < INPUT_WINDOW) wake();
          break;
        case 'batch': {
          const rows = message.chunks.map((chunk) => Buffer.from(chunk.buffer, chunk.offset, chunk.length));
          shipping = shipping
            .then(() => ship(rows, message.events))
            .then(
              () => {
                if (!settled) post({ type: 'shipped', chunks: message.chunks.map((chunk) => chunk.buffer) }, message.chunks.map((chunk) => chunk.buffer));
              },
              (error: unknown) => settle({ ok: false, error, reusable: false }),
            );
          break;
        }
        case 'done': {
          // The worker is done before its last batches are: one of them may still fail, and
          // that failure, not this success, is the job's outcome.
          const summary = message.summary;
          void shipping.then(() => settle({ ok: true, summary }));
          break;
        }
        case 'failed':
          settle({ ok: false, error: encodeFailure(message.error), reusable: true });
          break;
      }
    };
    const onError = (error: Error) => settle({ ok: false, error: new Error(`the report encoder failed: ${error.message}`), reusable: false });
    const onExit = (code: number) => settle({ ok: false, error: new Error(`the report encoder stopped (exit code ${code})`), reusable: false });
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    post({ type: 'start', job });

    void (async () => {
      try {
        // The body's chunks (often 16 KiB) are gathered into messages of up to MESSAGE_BYTES: a
        // message each cost more than the parsing of the chunk it carried.
        let gathered = new Uint8Array(MESSAGE_BYTES);
        let length = 0;
        const flush = () => {
          const bytes = length === gathered.length ? gathered : gathered.slice(0, length);
          post({ type: 'chunk', bytes: bytes.buffer }, [bytes.buffer]);
          unconsumed += length;
          gathered = new Uint8Array(MESSAGE_BYTES);
          length = 0;
        };
        for await (const chunk of body as AsyncIterable<Buffer>) {
          if (settled) return;
          for (let at = 0; at < chunk.length; ) {
            const n = Math.min(chunk.length - at, gathered.length - length);
            gathered.set(chunk.subarray(at, at + n), length);
            length += n;
            at += n;
            if (length === gathered.length) flush();
          }
          while (unconsumed >= INPUT_WINDOW && !settled) await new Promise<void>((resolve) => (wakeFeeder = resolve));
          if (settled) return;
        }
        if (settled) return;
        if (length > 0) flush();
        post({ type: 'end' });
      } catch (error) {
        settle({ ok: false, error, reusable: false });
      }
    })();
  });
}

function encodeFailure(failure: TEncodeFailure): Error {
  if ('parse' in failure) return new ReportParseError(failure.parse.code, failure.parse.message, failure.parse.pointer, failure.parse.offset);
  return new Error(`the report encoder failed: ${failure.message}`);
}
