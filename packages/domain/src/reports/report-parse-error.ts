/**
 * Why a report was rejected. Every code is a client error (the caller answers 422): the report
 * is structurally wrong, not the service. `pointer` is a JSON Pointer (RFC 6901) to the offending
 * value, '' for the document itself; `offset` is the byte offset in the body when known.
 */
export const REPORT_PARSE_ERROR_CODES = [
  'empty_report',
  'invalid_json',
  'truncated_report',
  'unsupported_version',
  'invalid_shape',
  'report_too_large',
] as const;
export type TReportParseErrorCode = (typeof REPORT_PARSE_ERROR_CODES)[number];

export class ReportParseError extends Error {
  override readonly name = 'ReportParseError';
  constructor(
    readonly code: TReportParseErrorCode,
    message: string,
    readonly pointer: string = '',
    readonly offset?: number,
  ) {
    super(message);
  }

  toJSON(): { code: TReportParseErrorCode; message: string; pointer: string; offset?: number } {
    return { code: this.code, message: this.message, pointer: this.pointer, ...(this.offset === undefined ? {} : { offset: this.offset }) };
  }
}

/** RFC 6901 pointer for a path of keys and indices. */
export function toJsonPointer(path: readonly (string | number)[]): string {
  let out = '';
  for (const seg of path) out += '/' + String(seg).replace(/~/g, '~0').replace(/\//g, '~1');
  return out;
}

export function shapeError(path: readonly (string | number)[], message: string): ReportParseError {
  return new ReportParseError('invalid_shape', message, toJsonPointer(path));
}

/**
 * What a scanner's log line looks like at the start of a body: ANSI colour, a bracketed
 * counter or level ("[0000]  INFO", grype), a timestamp ("2024-05-01T10:00:00Z\tINFO", trivy),
 * a figure with its unit (a download progress bar: "47.33 MiB / 47.33 MiB"), a word that is
 * not a JSON literal ("Running scan..."), or a symbol no JSON starts with ("✔ Vulnerability
 * DB", "# comment"). Not markup ("<?xml"), control bytes or undecodable ones (a compressed
 * body sent without its Content-Encoding): those are other mistakes.
 */
const LOG_LINE =
  /^(?:\x1b\[|\[[^\]"{[]*\]\s+\S|\d{4}-\d{2}-\d{2}[T ]\d|\d{2}:\d{2}:\d{2}|\d+(?:\.\d+)?\s+\p{L}|(?!(?:true|false|null)\b)\p{L}|[^\s\p{Cc}\uFFFD{}[\]"<\-\d\p{L}])/u;

/**
 * A parse error at the very start of a body whose first line reads like log output (the
 * scanner's stderr captured with its stdout, or its progress lines) becomes an invalid_json
 * that says so: "must be a JSON object" or "expected a value at byte 0" leaves the sender
 * looking for a fault in the JSON that follows. `opening` is the body's first bytes.
 */
export function explainLogPrefix(err: ReportParseError, opening: string): ReportParseError {
  if ((err.code !== 'invalid_json' && err.code !== 'invalid_shape') || err.pointer !== '') return err;
  const text = opening.replace(/^\ufeff/, '').trimStart();
  const line = text.split(/\r?\n/, 1)[0];
  const lineStart = opening.length - text.length;
  if (err.offset !== undefined && err.offset > lineStart + Buffer.byteLength(line)) return err;
  if (!LOG_LINE.test(line)) return err;
  const quoted = JSON.stringify(line.length > 80 ? `${line.slice(0, 80)}…` : line);
  return new ReportParseError('invalid_json', `the report is not JSON: it starts with ${quoted}, which looks like log output; send only the scanner's JSON output (its report file, not its console)`, '', lineStart);
}
