import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { TErrorCode } from '@palisade/contracts';
import { AppError, isAppError } from '@palisade/domain';
import type { Logger } from '../logging/logger';
import { toErrorBody } from './error-body';

/** body-parser's and raw-body's error types whose refusal says more than the status alone. */
const KNOWN_TYPES: Readonly<Record<string, () => AppError>> = {
  'entity.parse.failed': () => new AppError('malformed_json', { message: 'The request body is not valid JSON.' }),
  'entity.too.large': () => new AppError('payload_too_large', { message: 'The request body is larger than this route accepts.' }),
  'parameters.too.many': () =>
    new AppError('payload_too_large', { message: 'The form body has more fields than this route accepts (at most 1000).' }),
  'encoding.unsupported': () => new AppError('unsupported_media_type', { message: 'The body encoding (Content-Encoding) is not supported.' }),
  'charset.unsupported': () => new AppError('unsupported_media_type', { message: 'The body charset is not supported.' }),
  'request.aborted': () => new AppError('bad_request', { message: 'The request body ended early.' }),
  'request.size.invalid': () => new AppError('bad_request', { message: 'The request body does not match its Content-Length.' }),
};

/** A client error whose status has no more precise code keeps its status under these codes. */
const CODE_FOR_STATUS: Readonly<Record<number, TErrorCode>> = {
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'route_not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  431: 'request_header_too_large',
};

/**
 * Errors raised by Express, its router and body-parser for what the client sent: the
 * http-errors convention is a 4xx `status` (or `statusCode`) and `expose: true`. The router's
 * path-parameter decoding is the one producer that sets a 400 status on a plain URIError
 * without `expose`. Anything else with a status (an outbound call's failure, say) is not the
 * client's doing and stays a crash.
 */
export function fromHttpError(error: unknown): AppError | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const { status, statusCode, expose, type } = error as { status?: unknown; statusCode?: unknown; expose?: unknown; type?: unknown };
  const code = typeof status === 'number' ? status : statusCode;
  if (typeof code !== 'number' || !Number.isInteger(code) || code < 400 || code > 499) return undefined;
  // Duck-typed, not instanceof: errors from Node's core (zlib) may come from another realm.
  const { name, message: text } = error as { name?: unknown; message?: unknown };
  if (name === 'URIError') {
    return new AppError('bad_request', { message: 'A path segment is not valid percent-encoded UTF-8.', cause: error });
  }
  if (expose !== true) return undefined;
  const known = typeof type === 'string' ? KNOWN_TYPES[type] : undefined;
  if (known) return known();
  const mapped = CODE_FOR_STATUS[code];
  const message = typeof text === 'string' && text ? `The request could not be read: ${text.replace(/\.$/, '')}.` : undefined;
  return mapped ? new AppError(mapped, { message }) : new AppError('bad_request', { status: code, message });
}

export function notFoundHandler(): RequestHandler {
  return (req, _res, next) => {
    next(new AppError('route_not_found', { message: `No route ${req.method} ${req.path}.` }));
  };
}

/** Set by the route mount on OAuth endpoints, whose refusals also speak RFC 6749 section 5.2. */
export function markOAuthRoute(res: Response): void {
  res.locals.oauthErrors = true;
}

/**
 * The one error handler of a process. A refusal becomes the spec's structured body; anything
 * else is a crash: logged with its stack and answered with the correlation id only.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const correlationId: string = res.locals.correlationId ?? 'unknown';
    let refusal = isAppError(error) ? error : fromHttpError(error);
    if (res.headersSent) {
      logger.error({ err: error, correlationId }, 'error after response started');
      res.destroy();
      return;
    }
    if (refusal) {
      if (!isAppError(error) && res.locals.oauthErrors === true) refusal = withOAuthError(refusal);
      if (refusal.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(Math.ceil(refusal.retryAfterSeconds)));
      if (refusal.status >= 500) logger.error({ err: refusal, correlationId }, refusal.message);
      res.status(refusal.status).json(toErrorBody(refusal, correlationId));
      return;
    }
    logger.error({ err: error, correlationId, method: req.method, path: req.path }, 'unhandled error');
    res.status(500).json({ correlation_id: correlationId });
  };
}

function withOAuthError(refusal: AppError): AppError {
  return new AppError(refusal.code, {
    status: refusal.status,
    message: refusal.message,
    hint: refusal.hint,
    extra: { ...refusal.extra, error: 'invalid_request', error_description: refusal.message },
  });
}
