/**
 * Rows for `COPY … FROM STDIN (FORMAT binary)`, written straight into large off-heap chunks.
 *
 * Binary, not text: PostgreSQL takes each field as sent (a uuid as 16 bytes, a timestamp as a
 * count of microseconds, a string without escapes) instead of parsing it back from text, which
 * was about a fifth of the database time of a large first report; and Node writes each string
 * once, with nothing to escape (bench/README.md, ingest). Off-heap chunks, not one long string:
 * a batch on the V8 heap was copied by every young-generation collection and then flattened to
 * be sent.
 *
 * The format (PostgreSQL manual, COPY, "Binary Format"): an 11-byte signature, a 32-bit flags
 * word and a 32-bit header-extension length; per tuple a 16-bit field count, then per field a
 * 32-bit byte length (-1 for NULL) and the bytes in the type's binary (`recv`) form; a 16-bit -1
 * at the end. Each `take()` is one complete COPY stream.
 */
import { uuidv7Into } from '../ids';

const HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
const TRAILER = Buffer.from([0xff, 0xff]);
const TEXT_OID = 25;
const PG_EPOCH_MS = Date.UTC(2000, 0, 1);
const TWO_32 = 2 ** 32;

const CHUNK_BYTES = 1024 * 1024;
// Chunks whose COPY has finished come back here (recycle), so a large report reuses a few MiB of
// memory the process already has instead of asking the kernel for fresh, zero-filled pages per
// MiB: those page faults were a tenth of the callback plane's time on a large report.
const SPARE_CHUNKS = 24;
const spare: Buffer[] = [];

function newChunk(minBytes: number): Buffer {
  if (minBytes <= CHUNK_BYTES) {
    const reused = spare.pop();
    if (reused !== undefined) return reused;
  }
  return Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, minBytes));
}

/** Hands the chunks of a finished COPY back for reuse; their bytes must no longer be needed. */
export function recycleCopyChunks(chunks: readonly Buffer[]): void {
  for (const chunk of chunks) {
    if (spare.length >= SPARE_CHUNKS) return;
    if (chunk.byteOffset === 0 && chunk.buffer.byteLength === CHUNK_BYTES) spare.push(Buffer.from(chunk.buffer, 0, CHUNK_BYTES));
  }
}

const HEX_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  HEX_VALUE['0123456789abcdef'.charCodeAt(i)] = i;
  HEX_VALUE['0123456789ABCDEF'.charCodeAt(i)] = i;
}

export class CopyBinaryRows {
  private readonly full: Buffer[] = [];
  private chunk: Buffer | null = null;
  private at = 0;
  private rows = 0;

  /** The field bytes that `write` produces, to be replayed with `fields()` (constant columns). */
  static fieldsOf(write: (rows: CopyBinaryRows) => void): Buffer {
    const rows = new CopyBinaryRows();
    write(rows);
    return Buffer.concat(rows.full.concat(rows.chunk === null ? [] : [rows.chunk.subarray(0, rows.at)]));
  }

  /** Starts a tuple of `fields` fields (the stream header goes before the first). */
  row(fields: number): this {
    const buffer = this.room(HEADER.length + 2);
    if (this.rows === 0) {
      HEADER.copy(buffer, this.at);
      this.at += HEADER.length;
    }
    this.rows++;
    this.at = buffer.writeInt16BE(fields, this.at);
    return this;
  }

  /** Bytes of whole fields encoded before (fieldsOf). */
  fields(encoded: Buffer): this {
    const buffer = this.room(encoded.length);
    this.at += encoded.copy(buffer, this.at);
    return this;
  }

  null(): this {
    this.at = this.room(4).writeInt32BE(-1, this.at);
    return this;
  }

  int4(value: number): this {
    const buffer = this.room(8);
    buffer.writeInt32BE(4, this.at);
    this.at = buffer.writeInt32BE(value, this.at + 4);
    return this;
  }

  /** A UUID in its canonical text form (hex digits, hyphens anywhere), as its 16 bytes. */
  uuid(id: string): this {
    const buffer = this.room(20);
    buffer.writeInt32BE(16, this.at);
    let out = this.at + 4;
    let high = -1;
    for (let i = 0; i < id.length; i++) {
      const code = id.charCodeAt(i);
      if (code === 45) continue; // '-'
      const nibble = code < 128 ? HEX_VALUE[code] : -1;
      if (nibble < 0) throw new Error(`not a UUID: ${id}`);
      if (high < 0) high = nibble;
      else {
        buffer[out++] = (high << 4) | nibble;
        high = -1;
      }
    }
    if (out !== this.at + 20 || high >= 0) throw new Error(`not a UUID: ${id}`);
    this.at = out;
    return this;
  }

  /** A new UUIDv7, written straight from the generator's bytes; returns its text form. */
  newUuidV7(): string {
    const buffer = this.room(20);
    buffer.writeInt32BE(16, this.at);
    const id = uuidv7Into(buffer, this.at + 4);
    this.at += 20;
    return id;
  }

  /** Microseconds since 2000-01-01 UTC (the integer-datetimes form every supported server uses). */
  timestamptz(at: Date): this {
    const micros = (at.getTime() - PG_EPOCH_MS) * 1000;
    const high = Math.floor(micros / TWO_32);
    const buffer = this.room(12);
    buffer.writeInt32BE(8, this.at);
    buffer.writeInt32BE(high, this.at + 4);
    this.at = buffer.writeUInt32BE(micros - high * TWO_32, this.at + 8);
    return this;
  }

  /**
   * A string for a text, varchar or enum column, as UTF-8. NUL cannot be stored in text at all,
   * so it is dropped rather than failing the whole report.
   */
  text(value: string): this {
    this.string(withoutNul(value), 0);
    return this;
  }

  nullableText(value: string | null | undefined): this {
    return value === undefined || value === null ? this.null() : this.text(value);
  }

  /** A string known to be ASCII without NUL (our own hex digests, enum labels). */
  ascii(value: string): this {
    const buffer = this.room(4 + value.length);
    buffer.writeInt32BE(value.length, this.at);
    this.at += 4 + buffer.write(value, this.at + 4, 'latin1');
    return this;
  }

  /** A `json` column; undefined and null are SQL NULL. */
  json(value: unknown): this {
    return value === undefined || value === null ? this.null() : (this.string(jsonText(value), 0), this);
  }

  /** A `jsonb` column: a version byte (1), then the JSON text. */
  jsonb(value: unknown): this {
    return value === undefined || value === null ? this.null() : (this.string(jsonText(value), 1), this);
  }

  /** A one-dimensional `text[]` without NULL elements ({} when empty). */
  textArray(values: readonly string[]): this {
    let bound = 4 + 20;
    for (const value of values) bound += 4 + value.length * 3;
    const buffer = this.room(bound);
    const start = this.at;
    let at = start + 4;
    at = buffer.writeInt32BE(values.length === 0 ? 0 : 1, at); // dimensions
    at = buffer.writeInt32BE(0, at); // no NULLs
    at = buffer.writeInt32BE(TEXT_OID, at);
    if (values.length > 0) {
      at = buffer.writeInt32BE(values.length, at);
      at = buffer.writeInt32BE(1, at); // lower bound
      for (const raw of values) {
        const value = withoutNul(raw);
        const bytes = buffer.write(value, at + 4, 'utf8');
        buffer.writeInt32BE(bytes, at);
        at += 4 + bytes;
      }
    }
    buffer.writeInt32BE(at - start - 4, start);
    this.at = at;
    return this;
  }

  /** The COPY stream of the rows so far (header, tuples, trailer); empty when there were none. Starts over. */
  take(): Buffer[] {
    if (this.rows === 0) return [];
    this.fields(TRAILER);
    if (this.chunk !== null) this.full.push(this.chunk.subarray(0, this.at));
    this.chunk = null;
    this.at = 0;
    this.rows = 0;
    return this.full.splice(0, this.full.length);
  }

  /** Drops what was written since the last take(). */
  discard(): void {
    recycleCopyChunks(this.take());
  }

  /** A length-prefixed UTF-8 string, after `prefix` version bytes of value 1 (jsonb) when asked. */
  private string(value: string, prefix: 0 | 1): void {
    const buffer = this.room(4 + prefix + value.length * 3);
    let at = this.at + 4;
    if (prefix === 1) buffer[at++] = 1;
    const bytes = buffer.write(value, at, 'utf8');
    buffer.writeInt32BE(prefix + bytes, this.at);
    this.at = at + bytes;
  }

  /** The current chunk, replaced by a fresh one when fewer than `bytes` are left (fields never straddle two). */
  private room(bytes: number): Buffer {
    if (this.chunk !== null && this.chunk.length - this.at >= bytes) return this.chunk;
    if (this.chunk !== null && this.at > 0) this.full.push(this.chunk.subarray(0, this.at));
    this.chunk = newChunk(bytes);
    this.at = 0;
    return this.chunk;
  }
}

/** The string as a text column stores it: PostgreSQL text cannot hold NUL, so NULs are dropped. */
export function withoutNul(value: string): string {
  return value.includes('\u0000') ? value.replaceAll('\u0000', '') : value;
}

// JSON.stringify writes NUL as the escape \u0000, which jsonb refuses; the rare value that has
// one is serialized again without NULs.
function jsonText(value: unknown): string {
  const out = JSON.stringify(value);
  if (!out.includes('\\u0000')) return out;
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? withoutNul(v) : v));
}
