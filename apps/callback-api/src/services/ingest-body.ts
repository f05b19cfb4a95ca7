import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { AppError } from '@palisade/domain';

/**
 * The report body as it streams in: counted and hashed byte by byte, so the 64 MiB cap holds
 * while reading (a chunked body has no Content-Length to trust) and the Idempotency-Key check
 * has the body's sha256 without ever holding the body.
 */
export class BodyMeter extends Transform {
  private readonly hash = createHash('sha256');
  private count = 0;
  private digest?: string;

  constructor(private readonly limitBytes: number) {
    super();
  }

  get bytes(): number {
    return this.count;
  }

  /** The body's sha256 (hex), once the stream has ended. */
  get sha256(): string {
    if (this.digest === undefined) throw new Error('BodyMeter: the body has not ended yet');
    return this.digest;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.count += chunk.length;
    if (this.count > this.limitBytes) {
      callback(tooLarge(this.limitBytes));
      return;
    }
    this.hash.update(chunk);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    this.digest = this.hash.digest('hex');
    callback();
  }
}

export function tooLarge(limitBytes: number): AppError {
  return new AppError('payload_too_large', {
    message: `The report is larger than ${limitBytes / (1024 * 1024)} MiB.`,
    hint: 'Split the report by run or target and post each part to its own scan, or drop unneeded detail (e.g. snippets).',
  });
}

/** A Content-Length above the cap is refused before a byte is read. */
export function assertDeclaredLength(header: string | undefined, limitBytes: number): void {
  if (header === undefined) return;
  const declared = Number(header);
  if (Number.isFinite(declared) && declared > limitBytes) throw tooLarge(limitBytes);
}

/** Reads a stream to its end only to hash it (an idempotent replay needs the digest, not the report). */
export async function hashBody(source: NodeJS.ReadableStream, limitBytes: number): Promise<string> {
  const meter = new BodyMeter(limitBytes);
  const done = new Promise<void>((resolve, reject) => {
    meter.on('error', reject);
    source.on('error', reject);
    meter.on('end', resolve);
  });
  source.pipe(meter);
  meter.resume();
  await done;
  return meter.sha256;
}
