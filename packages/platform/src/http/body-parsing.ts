import express, { type RequestHandler } from 'express';
import type { TRouteContract } from '@palisade/contracts';
import { AppError } from '@palisade/domain';

const JSON_TYPES = ['application/json', 'application/*+json'];
const FORM_TYPE = 'application/x-www-form-urlencoded';

/**
 * Parses a JSON (or, for OAuth routes, form) body with the plane's size cap, and refuses other
 * media types with a 415 rather than treating an unparsed body as empty.
 */
export function bodyParsing(route: TRouteContract, limitBytes: number): RequestHandler[] {
  // Raw bodies (scanner reports) are streamed by their handler, never buffered here.
  if (route.request.rawBody) return [];
  if (!route.request.body) return [rejectUnexpectedBody(limitBytes)];
  const json = express.json({ limit: limitBytes, strict: true, type: JSON_TYPES });
  const form = express.urlencoded({ limit: limitBytes, extended: false, type: FORM_TYPE });
  const accepted = route.request.acceptsForm ? [...JSON_TYPES, FORM_TYPE] : JSON_TYPES;
  return [
    (req, _res, next) => {
      if (!req.is(accepted)) {
        next(
          new AppError('unsupported_media_type', {
            message: `Content-Type must be ${route.request.acceptsForm ? 'application/json or application/x-www-form-urlencoded' : 'application/json'}.`,
          }),
        );
        return;
      }
      next();
    },
    json,
    ...(route.request.acceptsForm ? [form] : []),
  ];
}

/** A route that takes no body still parses one if sent, so the validator can refuse it. */
function rejectUnexpectedBody(limitBytes: number): RequestHandler {
  const json = express.json({ limit: limitBytes, strict: false, type: () => true });
  return (req, res, next) => {
    const length = Number(req.get('content-length') ?? 0);
    if (!req.get('transfer-encoding') && length === 0) return next();
    json(req, res, next);
  };
}
