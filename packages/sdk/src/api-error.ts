import type { AxiosResponse } from 'axios';
import type { TErrorBody } from '@palisade/contracts';

export type TApiErrorBody = Partial<TErrorBody> & { correlation_id?: string };

/** A refusal from the API, carrying the spec's structured body. */
export class PalisadeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: TApiErrorBody,
  ) {
    super(body.message ?? `HTTP ${status}${body.correlation_id ? ` (correlation id ${body.correlation_id})` : ''}`);
    this.name = 'PalisadeApiError';
  }

  /** The catalogue code; a bare 500 (or a non-JSON answer) has none, so the status stands in. */
  get errorCode(): string {
    return this.body.error_code ?? `http_${this.status}`;
  }
}

// An HTML page from a proxy can be kilobytes; a message only needs its start.
const MAX_TEXT_MESSAGE = 200;

/** The body of a 2xx answer, or a PalisadeApiError for anything else. */
export function unwrap<T>(response: AxiosResponse): T {
  if (response.status >= 200 && response.status < 300) return response.data as T;
  throw toApiError(response);
}

export function toApiError(response: AxiosResponse): PalisadeApiError {
  const body: TApiErrorBody =
    typeof response.data === 'object' && response.data !== null
      ? { ...(response.data as TApiErrorBody) }
      : { message: String(response.data ?? '').slice(0, MAX_TEXT_MESSAGE) || undefined };
  // Every answer through the edge carries the id as a header, even one whose body lost it.
  const headerId = response.headers?.['x-correlation-id'];
  if (!body.correlation_id && typeof headerId === 'string') body.correlation_id = headerId;
  return new PalisadeApiError(response.status, body);
}
