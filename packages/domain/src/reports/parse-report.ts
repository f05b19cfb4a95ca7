import { TextDecoder } from 'node:util';
import { makeOccurrenceCounter } from '../findings/fingerprint';
import { limitFinding } from '../findings/finding-limits';
import { makeCycloneDxHandler } from './cyclonedx.parser';
import { makeGitleaksHandler } from './gitleaks.parser';
import { makeGrypeHandler } from './grype.parser';
import { JsonSplitter } from './json-splitter';
import { makeNpmAuditHandler } from './npm-audit.parser';
import { makeOsvScannerHandler } from './osv-scanner.parser';
import { makePalisadeHandler } from './palisade.parser';
import { explainLogPrefix, ReportParseError } from './report-parse-error';
import { REPORT_FORMATS, type TParseReportOptions, type TReportComponent, type TReportFormat, type TReportHandlerFactory, type TReportItem } from './report-item';
import { makeSarifHandler } from './sarif.parser';
import { makeSemgrepHandler } from './semgrep.parser';
import { makeTrivyHandler } from './trivy.parser';

const HANDLERS: Record<TReportFormat, TReportHandlerFactory> = {
  sarif: makeSarifHandler,
  cyclonedx: makeCycloneDxHandler,
  palisade: makePalisadeHandler,
  trivy: makeTrivyHandler,
  grype: makeGrypeHandler,
  gitleaks: makeGitleaksHandler,
  semgrep: makeSemgrepHandler,
  'npm-audit': makeNpmAuditHandler,
  'osv-scanner': makeOsvScannerHandler,
};

/**
 * The report format from the callback's headers (API.md): `application/sarif+json` → sarif,
 * `application/vnd.cyclonedx+json` → cyclonedx, `application/json` + `X-Report-Format` → that
 * format. Media-type parameters (charset, version) are ignored; an X-Report-Format that
 * contradicts a specific content type, or none with plain JSON, gives null (the caller's 415/422).
 */
export function detectReportFormat(contentType: string | undefined | null, xReportFormat?: string | string[] | null): TReportFormat | null {
  const media = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const rawHeader = Array.isArray(xReportFormat) ? xReportFormat[0] : xReportFormat;
  const header = rawHeader === undefined || rawHeader === null || rawHeader.trim() === '' ? undefined : rawHeader.trim().toLowerCase();
  if (media === 'application/sarif+json') return header === undefined || header === 'sarif' ? 'sarif' : null;
  if (media === 'application/vnd.cyclonedx+json') return header === undefined || header === 'cyclonedx' ? 'cyclonedx' : null;
  if (media === 'application/json') return header !== undefined && (REPORT_FORMATS as readonly string[]).includes(header) ? (header as TReportFormat) : null;
  return null;
}

/** An HTTP request, a file stream, or any (async) iterable of chunks. */
export type TReportSource = AsyncIterable<Buffer | string | Uint8Array> | Iterable<Buffer | string | Uint8Array> | NodeJS.ReadableStream;

/**
 * Parses a report as it arrives and yields one item per finding or SBOM component, in report
 * order, with memory bounded by the largest single element (see JsonSplitter and each parser's
 * note on what it keeps).
 *
 * Failure is all-or-nothing: any structural problem (not JSON, truncated, wrong version, wrong
 * shape) throws ReportParseError — possibly after items were already yielded, since a stream
 * cannot know it is truncated until it ends. Callers must therefore treat the items as a
 * proposal and commit them only once the generator has completed (stage and commit in one
 * transaction at the end); a truncated report must never leave a partial write, and it must not
 * mark findings absent from it as fixed.
 *
 * Every finding is within the model's limits (limitFinding) and, when it has neither a
 * fingerprint_hint nor a package, carries its `occurrence` index among same-position results.
 */
export async function* parseReportStream(
  format: TReportFormat,
  source: TReportSource,
  options: TParseReportOptions = {},
): AsyncGenerator<TReportItem> {
  for await (const items of parseReportChunks(format, source, options)) yield* items;
}

/**
 * parseReportStream's items, a batch per chunk of input (none for a chunk that completed no
 * item): what a hot consumer iterates, one await per chunk instead of one per finding.
 */
export async function* parseReportChunks(
  format: TReportFormat,
  source: TReportSource,
  options: TParseReportOptions = {},
): AsyncGenerator<TReportItem[]> {
  const factory = HANDLERS[format];
  if (factory === undefined) throw new ReportParseError('invalid_shape', `unknown report format ${JSON.stringify(format)}`);
  // The first reason only, whichever part of the report gives it and however many do.
  let incomplete = false;
  const onIncomplete = (reason: string): void => {
    if (incomplete) return;
    incomplete = true;
    options.onIncomplete?.(reason);
  };
  const handler = factory({ ...options, onIncomplete });
  const out: TReportItem[] = [];
  const occurrence = makeOccurrenceCounter();
  const splitter = new JsonSplitter(handler.plan, (event) => handler.onEvent(event, out));
  let bytes = 0;

  const finalize = (item: TReportItem): TReportItem => {
    if (item.type === 'component') return { type: 'component', component: limitComponent(item.component) };
    const finding = limitFinding(item.finding);
    if (finding.fingerprint_hint === undefined && finding.location.package === undefined) finding.occurrence = occurrence(finding);
    return { type: 'finding', finding };
  };

  // A UTF-16 body (what Windows PowerShell's ">" writes, with its byte-order mark) is
  // transcoded to UTF-8 as it streams; anything else goes to the splitter as it is.
  let decoder: TextDecoder | null | undefined;
  let head: Buffer | undefined;
  const write = (buf: Buffer): void => {
    if (decoder === undefined) {
      head = head === undefined ? buf : Buffer.concat([head, buf]);
      if (head.length < 2) return;
      decoder = utf16Decoder(head);
      buf = head;
      head = undefined;
    }
    splitter.write(decoder === null ? buf : Buffer.from(decoder.decode(buf, { stream: true }), 'utf8'));
  };

  // The body's first bytes, to tell log output in front of the JSON from broken JSON.
  let opening = '';
  try {
    for await (const chunk of source as AsyncIterable<Buffer | string | Uint8Array>) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      if (opening.length < OPENING_CHARS) opening += buf.toString('utf8', 0, OPENING_CHARS);
      bytes += buf.length;
      if (options.maxBytes !== undefined && bytes > options.maxBytes) {
        throw new ReportParseError('report_too_large', `the report is larger than ${options.maxBytes} bytes`, '', options.maxBytes);
      }
      write(buf);
      if (out.length > 0) yield out.splice(0, out.length).map(finalize);
    }
    if (head !== undefined) splitter.write(head);
    if (decoder) splitter.write(Buffer.from(decoder.decode(), 'utf8'));
    splitter.end();
    handler.finish(out);
  } catch (err) {
    throw err instanceof ReportParseError ? explainLogPrefix(err, opening) : err;
  }
  if (out.length > 0) yield out.splice(0, out.length).map(finalize);
}

const OPENING_CHARS = 256;

/** Convenience for small inputs and tests: the whole report as one buffer. */
export async function parseReportBuffer(format: TReportFormat, body: Buffer | string, options: TParseReportOptions = {}): Promise<TReportItem[]> {
  const items: TReportItem[] = [];
  for await (const item of parseReportStream(format, [typeof body === 'string' ? Buffer.from(body, 'utf8') : body], options)) items.push(item);
  return items;
}

/** A decoder for a body that starts with a UTF-16 byte-order mark, else null. */
function utf16Decoder(head: Buffer): TextDecoder | null {
  const encoding = head[0] === 0xff && head[1] === 0xfe ? 'utf-16le' : head[0] === 0xfe && head[1] === 0xff ? 'utf-16be' : undefined;
  if (encoding === undefined) return null;
  try {
    return new TextDecoder(encoding);
  } catch {
    return null; // a runtime without that decoder: the body is refused as invalid JSON, as before
  }
}

function limitComponent(c: TReportComponent): TReportComponent {
  const clip = (s: string | undefined, max: number): string | undefined => (s === undefined ? undefined : s.replace(/\u0000/g, '').slice(0, max));
  const out: TReportComponent = { name: clip(c.name, 512) ?? '', licenses: c.licenses.slice(0, 64).map((l) => clip(l, 512) ?? '') };
  if (c.group !== undefined) out.group = clip(c.group, 512);
  if (c.version !== undefined) out.version = clip(c.version, 256);
  if (c.purl !== undefined) out.purl = clip(c.purl, 1024);
  if (c.type !== undefined) out.type = clip(c.type, 64);
  if (c.bom_ref !== undefined) out.bom_ref = clip(c.bom_ref, 1024);
  return out;
}
