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
