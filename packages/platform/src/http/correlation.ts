import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { TPlane } from '@palisade/contracts';

// The edge sets X-Request-ID ($request_id: 32 hex chars). A plane reached directly makes its own.
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export function correlationId(plane: TPlane): RequestHandler {
  return (req, res, next) => {
    const given = req.get('x-request-id');
    const id = given && REQUEST_ID.test(given) ? given : randomUUID();
    res.locals.correlationId = id;
    res.setHeader('X-Correlation-ID', id);
    res.setHeader('X-Palisade-Plane', plane);
    next();
  };
}
