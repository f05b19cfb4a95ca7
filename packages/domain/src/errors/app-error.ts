import { ERROR_CATALOGUE, type TErrorCode, type TFieldIssue } from '@palisade/contracts';

export interface TAppErrorOptions {
  message?: string;
  hint?: string;
  /** For validation failures: every offending field, the first one named in `field`. */
  errors?: TFieldIssue[];
  /** Seconds the caller should wait (429, 503): sent as Retry-After. */
  retryAfterSeconds?: number;
  /** Extra members merged into the body (e.g. the OAuth `error` of the device flow). */
  extra?: Record<string, unknown>;
  /** Overrides the catalogue status where a protocol fixes it (RFC 8628 answers 400). */
  status?: number;
  cause?: unknown;
}

/**
 * The one error type a rule or a service throws for a refusal a client can act on.
 * Its code picks status, category and retryability from ERROR_CATALOGUE, so the same refusal
 * reads the same on every plane. Anything else that escapes a handler is a crash (500).
 */
export class AppError extends Error {
  readonly code: TErrorCode;
  readonly status: number;
  readonly hint: string;
  readonly errors?: TFieldIssue[];
  readonly retryAfterSeconds?: number;
  readonly extra?: Record<string, unknown>;

  constructor(code: TErrorCode, options: TAppErrorOptions = {}) {
    super(options.message ?? defaultMessage(code), { cause: options.cause });
    const entry = ERROR_CATALOGUE[code];
    this.name = 'AppError';
    this.code = code;
    this.status = options.status ?? entry.status;
    this.hint = options.hint ?? entry.hint;
    this.errors = options.errors;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.extra = options.extra;
  }

  get category() {
    return ERROR_CATALOGUE[this.code].category;
  }

  get retryable(): boolean {
    return ERROR_CATALOGUE[this.code].retryable;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

function defaultMessage(code: TErrorCode): string {
  return code.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()) + '.';
}
