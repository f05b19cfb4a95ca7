import { ReportParseError, toJsonPointer } from './report-parse-error';

/**
 * A streaming JSON splitter: it walks the byte stream, descends only into the containers a
 * parser asks for ('stream'), and hands every other value over whole ('capture', one
 * JSON.parse of just that value's bytes) or drops it ('skip', never decoded).
 *
 * Why not a token-level streaming parser (stream-json): those build every string and number in
 * JavaScript, one event at a time, and run at a few MB/s; here the per-byte work is a bracket
 * count with strings skipped by Buffer#indexOf, and the real parsing is V8's JSON.parse on each
 * captured element, so a 64 MiB SARIF streams at a large fraction of JSON.parse speed with memory
 * bounded by the largest single element (plus whatever the parser chooses to keep).
 *
 * Checks: the streamed levels are validated token by token; captured values are validated by
 * JSON.parse; skipped values are checked only for balanced brackets and terminated strings.
 * Input ending anywhere but after the root value is a `truncated_report`.
 */
export type TPathSegment = string | number;
export type TValueKind = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';
export type TPlanDecision = 'stream' | 'capture' | 'skip';
export type TSplitPlan = (path: readonly TPathSegment[], kind: TValueKind) => TPlanDecision;

export type TSplitEvent =
  | { type: 'enter'; path: TPathSegment[]; kind: 'object' | 'array' }
  | { type: 'exit'; path: TPathSegment[]; kind: 'object' | 'array' }
  | { type: 'value'; path: TPathSegment[]; value: unknown };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJ = 0x7b;
const CLOSE_OBJ = 0x7d;
const OPEN_ARR = 0x5b;
const CLOSE_ARR = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const enum Mode {
  Structural,
  Key,
  Value,
}

const enum St {
  ObjKeyOrEnd,
  ObjKey,
  ObjColon,
  ObjValue,
  ObjCommaOrEnd,
  ArrValueOrEnd,
  ArrValue,
  ArrCommaOrEnd,
}

interface TFrame {
  kind: 'object' | 'array';
  state: St;
  index: number;
}

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isScalarEnd(c: number): boolean {
  return c === COMMA || c === CLOSE_OBJ || c === CLOSE_ARR || isWs(c);
}

export class JsonSplitter {
  private readonly stack: TFrame[] = [];
  private readonly path: TPathSegment[] = [];
  private mode: Mode = Mode.Structural;
  private rootDone = false;
  private started = false;
  private consumed = 0; // bytes before the current chunk
  private chunkBase = 0; // within-chunk offset helper for error positions
  // String scanning (keys and string/containers values) across chunk boundaries.
  private inString = false;
  private escapeCarry = false;
  // The value being captured or skipped.
  private vKind: TValueKind = 'null';
  private vKeep = false; // bytes collected (captured values, and scalars so they can be checked)
  private vEmit = false; // decoded value handed to the parser
  private vDepth = 0;
  private vPieces: Buffer[] = [];
  private vBytes = 0;
  private brackets: number[] = []; // bracket types, only while skipping (capture is checked by JSON.parse)
  // The key being read.
  private kPieces: Buffer[] = [];

  constructor(
    private readonly plan: TSplitPlan,
    private readonly emit: (event: TSplitEvent) => void,
  ) {}

  /** Bytes seen so far. */
  get bytesRead(): number {
    return this.consumed;
  }

  write(chunk: Buffer): void {
    let i = 0;
    const len = chunk.length;
    if (!this.started && len > 0) {
      this.started = true;
      // A UTF-8 byte-order mark, as some Windows tools write, is not JSON but carries no meaning.
      if (len >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) i = 3;
    }
    this.chunkBase = this.consumed;
    while (i < len) {
      if (this.mode === Mode.Value) {
        i = this.continueValue(chunk, i);
        continue;
      }
      if (this.mode === Mode.Key) {
        i = this.continueKey(chunk, i);
        continue;
      }
      const c = chunk[i];
      if (isWs(c)) {
        i++;
        continue;
      }
      if (this.rootDone) throw this.syntax('unexpected data after the end of the document', i);
      const top = this.stack.length === 0 ? undefined : this.stack[this.stack.length - 1];
      if (top === undefined) {
        i = this.beginValue(chunk, i, c);
        continue;
      }
      switch (top.state) {
        case St.ObjKeyOrEnd:
          if (c === CLOSE_OBJ) {
            this.closeFrame();
            i++;
          } else if (c === QUOTE) i = this.beginKey(chunk, i + 1);
          else throw this.syntax('expected a key or "}"', i);
          break;
        case St.ObjKey:
          if (c !== QUOTE) throw this.syntax('expected a key', i);
          i = this.beginKey(chunk, i + 1);
          break;
        case St.ObjColon:
          if (c !== COLON) throw this.syntax('expected ":"', i);
          top.state = St.ObjValue;
          i++;
          break;
        case St.ObjValue:
          i = this.beginValue(chunk, i, c);
          break;
        case St.ObjCommaOrEnd:
          if (c === COMMA) top.state = St.ObjKey;
          else if (c === CLOSE_OBJ) this.closeFrame();
          else throw this.syntax('expected "," or "}"', i);
          i++;
          break;
        case St.ArrValueOrEnd:
          if (c === CLOSE_ARR) {
            this.closeFrame();
            i++;
          } else i = this.beginValue(chunk, i, c);
          break;
        case St.ArrValue:
          i = this.beginValue(chunk, i, c);
          break;
        case St.ArrCommaOrEnd:
          if (c === COMMA) {
            top.state = St.ArrValue;
            top.index++;
          } else if (c === CLOSE_ARR) this.closeFrame();
          else throw this.syntax('expected "," or "]"', i);
          i++;
          break;
      }
    }
    this.consumed += len;
  }

  /** Call once the input is exhausted; throws unless exactly one complete document was read. */
  end(): void {
    if (this.mode === Mode.Value && !this.inString && (this.vKind === 'number' || this.vKind === 'boolean' || this.vKind === 'null')) {
      this.finishValue(); // a bare scalar document ends at end of input
    }
    if (!this.started || (!this.rootDone && this.stack.length === 0 && this.mode === Mode.Structural)) {
      throw new ReportParseError('empty_report', 'the report body is empty', '', 0);
    }
    if (!this.rootDone) {
      throw new ReportParseError('truncated_report', 'the report ends before its JSON document does', toJsonPointer(this.path), this.consumed);
    }
  }

  private syntax(message: string, i: number): ReportParseError {
    return new ReportParseError('invalid_json', `invalid JSON: ${message} at byte ${this.chunkBase + i}`, toJsonPointer(this.path), this.chunkBase + i);
  }

  private beginKey(chunk: Buffer, start: number): number {
    this.mode = Mode.Key;
    this.kPieces.length = 0;
    this.inString = true;
    this.escapeCarry = false;
    return this.continueKey(chunk, start, start);
  }

  private continueKey(chunk: Buffer, i: number, start = i): number {
    const end = this.scanString(chunk, i);
    if (end < 0) {
      this.kPieces.push(chunk.subarray(start));
      return chunk.length;
    }
    const top = this.stack[this.stack.length - 1];
    let key: string;
    if (this.kPieces.length === 0) {
      // Fast path: the key lies within this chunk.
      const bs = chunk.indexOf(BACKSLASH, start);
      key = bs >= 0 && bs < end ? (this.parseJson(chunk.toString('utf8', start - 1, end), start - 1) as string) : chunk.toString('utf8', start, end - 1);
    } else {
      this.kPieces.push(chunk.subarray(start, end));
      const raw = Buffer.concat(this.kPieces);
      this.kPieces.length = 0;
      key = this.parseJson('"' + raw.toString('utf8'), i) as string;
    }
    this.path.length = this.stack.length;
    this.path[this.stack.length - 1] = key;
    top.state = St.ObjColon;
    this.mode = Mode.Structural;
    return end;
  }

  private beginValue(chunk: Buffer, i: number, c: number): number {
    let kind: TValueKind;
    if (c === OPEN_OBJ) kind = 'object';
    else if (c === OPEN_ARR) kind = 'array';
    else if (c === QUOTE) kind = 'string';
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) kind = 'number';
    else if (c === 0x74 || c === 0x66) kind = 'boolean';
    else if (c === 0x6e) kind = 'null';
    else throw this.syntax('expected a value', i);
    if (kind === 'boolean' || kind === 'null') {
      // Check what this chunk holds of the literal now, so "not json" is reported as invalid
      // JSON rather than as a null of the wrong shape.
      const literal = c === 0x74 ? 'true' : c === 0x66 ? 'false' : 'null';
      for (let k = 1; k < literal.length && i + k < chunk.length; k++) {
        if (chunk[i + k] !== literal.charCodeAt(k)) throw this.syntax('expected a value', i);
      }
    }

    const top = this.stack.length === 0 ? undefined : this.stack[this.stack.length - 1];
    if (top !== undefined && top.kind === 'array') {
      this.path.length = this.stack.length;
      this.path[this.stack.length - 1] = top.index;
    } else this.path.length = this.stack.length;

    let decision = this.plan(this.path, kind);
    if (decision === 'stream' && kind !== 'object' && kind !== 'array') decision = 'capture';
    if (decision === 'stream') {
      const frameKind = kind as 'object' | 'array';
      this.stack.push({ kind: frameKind, state: frameKind === 'object' ? St.ObjKeyOrEnd : St.ArrValueOrEnd, index: 0 });
      this.emit({ type: 'enter', path: this.path.slice(), kind: frameKind });
      return i + 1;
    }
    this.mode = Mode.Value;
    this.vKind = kind;
    this.vEmit = decision === 'capture';
    this.vKeep = this.vEmit || (kind !== 'object' && kind !== 'array' && kind !== 'string');
    this.vDepth = 0;
    this.vPieces.length = 0;
    this.vBytes = 0;
    this.brackets.length = 0;
    this.inString = false;
    this.escapeCarry = false;
    return this.continueValue(chunk, i, i);
  }

  /** Scans the value being captured or skipped; returns where structural parsing resumes. */
  private continueValue(chunk: Buffer, i: number, start = i): number {
    const len = chunk.length;
    let end = -1;
    if (this.vKind === 'object' || this.vKind === 'array') {
      let depth = this.vDepth;
      const keep = this.vKeep;
      if (this.inString) {
        const e = this.scanString(chunk, i);
        i = e < 0 ? len : e;
      }
      while (i < len) {
        const c = chunk[i];
        if (c === QUOTE) {
          this.inString = true;
          this.escapeCarry = false;
          const e = this.scanString(chunk, i + 1);
          if (e < 0) {
            i = len;
            break;
          }
          i = e;
          continue;
        }
        if (c === OPEN_OBJ || c === OPEN_ARR) {
          depth++;
          if (!keep) this.brackets.push(c);
        } else if (c === CLOSE_OBJ || c === CLOSE_ARR) {
          if (!keep && this.brackets.pop() !== c - 2) throw this.syntax('mismatched bracket', i);
          if (--depth === 0) {
            end = i + 1;
            break;
          }
        }
        i++;
      }
      this.vDepth = depth;
    } else if (this.vKind === 'string') {
      if (!this.inString) {
        this.inString = true;
        this.escapeCarry = false;
        i++;
      }
      const e = this.scanString(chunk, i);
      end = e;
    } else {
      while (i < len && !isScalarEnd(chunk[i])) i++;
      if (i < len) end = i;
    }

    if (end < 0) {
      if (this.vKeep) this.vPieces.push(chunk.subarray(start));
      this.vBytes += len - start;
      return len;
    }
    if (this.vKeep) {
      let text: string;
      if (this.vPieces.length === 0) text = chunk.toString('utf8', start, end);
      else {
        this.vPieces.push(chunk.subarray(start, end));
        text = Buffer.concat(this.vPieces).toString('utf8');
        this.vPieces.length = 0;
      }
      const value = this.parseJson(text, start);
      if (this.vEmit) this.emitValue(value);
    }
    this.afterValue();
    return end;
  }

  private finishValue(): void {
    if (this.vKeep) {
      const text = Buffer.concat(this.vPieces).toString('utf8');
      this.vPieces.length = 0;
      const value = this.parseJson(text, 0);
      if (this.vEmit) this.emitValue(value);
    }
    this.afterValue();
  }

  private emitValue(value: unknown): void {
    this.emit({ type: 'value', path: this.path.slice(), value });
  }

  private parseJson(text: string, at: number): unknown {
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new ReportParseError('invalid_json', `invalid JSON: ${(err as Error).message}`, toJsonPointer(this.path), this.chunkBase + at);
    }
  }

  private afterValue(): void {
    this.mode = Mode.Structural;
    this.inString = false;
    const top = this.stack.length === 0 ? undefined : this.stack[this.stack.length - 1];
    if (top === undefined) this.rootDone = true;
    else top.state = top.kind === 'object' ? St.ObjCommaOrEnd : St.ArrCommaOrEnd;
  }

  private closeFrame(): void {
    const frame = this.stack.pop() as TFrame;
    this.path.length = this.stack.length;
    this.emit({ type: 'exit', path: this.path.slice(), kind: frame.kind });
    this.afterValue();
  }

  /**
   * Finds the closing quote of the string whose content continues at `i`. Returns the index
   * just past it, or -1 when the chunk ends first (state carried to the next chunk: whether the
   * chunk ended on an unpaired backslash, which escapes the next chunk's first byte).
   */
  private scanString(chunk: Buffer, i: number): number {
    let p = i;
    if (this.escapeCarry) {
      this.escapeCarry = false;
      p++;
      if (p > chunk.length) {
        this.escapeCarry = true;
        return -1;
      }
    }
    for (;;) {
      const q = chunk.indexOf(QUOTE, p);
      if (q < 0) {
        let n = 0;
        for (let b = chunk.length - 1; b >= p && chunk[b] === BACKSLASH; b--) n++;
        this.escapeCarry = (n & 1) === 1;
        return -1;
      }
      let n = 0;
      for (let b = q - 1; b >= p && chunk[b] === BACKSLASH; b--) n++;
      if ((n & 1) === 0) {
        this.inString = false;
        return q + 1;
      }
      p = q + 1;
    }
  }
}
