/**
 * COPY text gathered as UTF-8 bytes in large off-heap chunks while a batch fills. One long
 * string built by `+=` is a rope of every row's pieces: it lives on the V8 heap until the batch
 * is shipped, so the young generation copies it on every scavenge and promotes it, and it is
 * flattened once more to be sent. Written into a Buffer at once, each row's string dies young
 * and the batch costs the garbage collector nothing (bench/README.md, ingest).
 */
const CHUNK_BYTES = 1024 * 1024;

export class CopyTextBuffer {
  private readonly full: Buffer[] = [];
  private current: Buffer | null = null;
  private used = 0;

  /** Appends text as UTF-8 (at most 3 bytes per UTF-16 unit, so the byte count is needed only near a chunk's end). */
  append(text: string): void {
    if (text === '') return;
    let room = this.current === null ? 0 : this.current.length - this.used;
    if (room < text.length * 3) {
      const bytes = Buffer.byteLength(text, 'utf8');
      if (room < bytes) {
        this.seal();
        this.current = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, bytes));
        room = this.current.length;
      }
    }
    this.used += (this.current as Buffer).write(text, this.used, 'utf8');
  }

  /** The bytes so far, in order; the buffer starts over empty (the chunks are handed over, not reused). */
  take(): Buffer[] {
    this.seal();
    return this.full.splice(0, this.full.length);
  }

  private seal(): void {
    if (this.current !== null && this.used > 0) this.full.push(this.current.subarray(0, this.used));
    this.current = null;
    this.used = 0;
  }
}
