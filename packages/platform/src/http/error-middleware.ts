import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError, isAppError } from '@palisade/domain';
import type { Logger } from '../logging/logger';
import { toErrorBody } from './error-body';

/** body-parser's error types, mapped to the refusals a client can act on. */
function fromBodyParser(error: { type?: string; status?: number }): AppError | undefined {
  switch (error.type) {
    case 'entity.parse.failed':
      return new AppError('malformed_json', { message: 'The request body is not valid JSON.' });
    case 'entity.too.large':
      return new AppError('payload_too_large', { message: 'The request body is larger than this route accepts.' });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('unsupported_media_type', { message: 'The body encoding or charset is not supported.' });
    case 'request.aborted':
      return new AppError('malformed_json', { message: 'The request body ended early.' });
    default:
      return undefined;
  }
}

export function notFoundHandler(): RequestHandler {
  return (req, _res, next) => {
    next(new AppError('route_not_found', { message: `No route ${req.method} ${req.path}.` }));
  };
}

/**
 * The one error handler of a process. A refusal becomes the spec's structured body; anything
 * else is a crash: logged with its stack and answered with the correlation id only.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const correlationId: string = res.locals.correlationId ?? 'unknown';
    const refusal = isAppError(error) ? error : fromBodyParser(error ?? {});
    if (res.headersSent) {
      logger.error({ err: error, correlationId }, 'error after response started');
      res.destroy();
      return;
    }
    if (refusal) {
      if (refusal.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(Math.ceil(refusal.retryAfterSeconds)));
      if (refusal.status >= 500) logger.error({ err: refusal, correlationId }, refusal.message);
      res.status(refusal.status).json(toErrorBody(refusal, correlationId));
      return;
    }
    logger.error({ err: error, correlationId, method: req.method, path: req.path }, 'unhandled error');
    res.status(500).json({ correlation_id: correlationId });
  };
}
