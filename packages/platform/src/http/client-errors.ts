import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { TErrorCode, TPlane } from '@palisade/contracts';
import { AppError } from '@palisade/domain';
import { toErrorBody } from './error-body';

/** Node's parser errors that a client caused, and the refusal each becomes. */
function refusalFor(code: string | undefined): AppError {
  const byCode: Record<string, [TErrorCode, string]> = {
    HPE_HEADER_OVERFLOW: ['request_header_too_large', 'The request headers are larger than this service accepts.'],
    ERR_HTTP_REQUEST_TIMEOUT: ['request_timeout', 'The request did not arrive in time.'],
    HPE_HEADERS_TIMEOUT: ['request_timeout', 'The request headers did not arrive in time.'],
  };
  const [errorCode, message] = byCode[code ?? ''] ?? ['bad_request', 'The request is not well-formed HTTP.'];
  return new AppError(errorCode, { message });
}

/**
 * Requests Node's HTTP parser rejects (oversized headers, malformed syntax, a client too slow to
 * send its headers) never reach Express; Node would answer with a bare status line. This answers
 * them with the spec's error body and a correlation id, like every other refusal.
 */
export function answerClientErrors(server: Server, plane: TPlane): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // Nothing can be written to a reset socket, or once a response to it has begun.
    if (error.code === 'ECONNRESET' || !socket.writable || (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const refusal = refusalFor(error.code);
    const correlationId = randomUUID();
    const body = JSON.stringify(toErrorBody(refusal, correlationId));
    socket.end(
      [
        `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? 'Error'}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        `X-Correlation-ID: ${correlationId}`,
        `X-Palisade-Plane: ${plane}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  });
}
