import { createHash } from 'node:crypto';
import { PassThrough, Transform, type Readable, type TransformCallback } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { AppError } from '@palisade/domain';

/** A body's Content-Encoding and what undoes it. */
export interface TBodyCoding {
  name: string;
  decoder: () => Transform;
}

// The codings the plane's JSON routes accept too (body-parser): a client that compresses its
// requests compresses its reports the same way.
const DECODERS: Record<string, () => Transform> = { gzip: createGunzip, 'x-gzip': createGunzip, deflate: createInflate, br: createBrotliDecompress };

/**
 * The coding of a report body from its Content-Encoding: null for none (or identity), else
 * gzip, deflate or br; anything else, a list of codings included, is a 415 before a byte is read.
 */
export function bodyCoding(header: string | undefined): TBodyCoding | null {
  const name = (header ?? '').trim().toLowerCase();
  if (name === '' || name === 'identity') return null;
  const decoder = DECODERS[name];
  if (decoder === undefined) {
    throw new AppError('unsupported_media_type', {
      message: `The report's Content-Encoding ${JSON.stringify(header)} is not supported.`,
      hint: 'Send the report uncompressed, or with Content-Encoding gzip, deflate or br.',
    });
  }
  return { name, decoder };
}

/**
 * The body as the report it carries: decoded when it has a coding. The cap and the digest then
 * apply to the report itself, so a small compressed body cannot unpack past 64 MiB, and the same
 * report sent compressed or not is the same body for its Idempotency-Key. Bytes that do not
 * decode fail the returned stream with a 422.
 */
export function decodedBody(body: Readable, coding: TBodyCoding | null): Readable {
  if (coding === null) return body;
  const decoder = coding.decoder();
  // The decoder fails with zlib's own error; what reads the report sees the refusal instead.
  const decoded = new PassThrough();
  decoder.once('error', (error) => {
    body.unpipe(decoder);
    decoded.destroy(undecodable(coding, error));
  });
  body.pipe(decoder).pipe(decoded);
  return decoded;
}

function undecodable(coding: TBodyCoding, error: Error): AppError {
  return new AppError('invalid_report', {
    message: `The report could not be decoded as ${coding.name} (Content-Encoding): ${error.message}.`,
    hint: 'Send the report uncompressed, or compressed whole with the coding its Content-Encoding names.',
  });
}

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
