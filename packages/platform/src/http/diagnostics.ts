import type { Express } from 'express';
import type { TPlane } from '@palisade/contracts';
import { AppError } from '@palisade/domain';
import type { TAuthenticate } from '../auth/principal';
import { bearerToken } from './route-access';

/**
 * Routes that exist only to prove the plumbing end to end (edge tests): which plane answered,
 * and what a crash looks like to a client. Mounted only with DIAGNOSTICS_ENABLED=true, never in
 * the route table or the OpenAPI document.
 */
export function mountDiagnostics(app: Express, plane: TPlane, authenticate: TAuthenticate): void {
  const prefixes: Record<TPlane, string> = {
    read: '/api/v2/diagnostics',
    write: '/api/v2/diagnostics',
    callback: '/api/v2/callbacks/diagnostics',
    sse: '/api/v2/events/diagnostics',
    admin: '/api/v2/admin/diagnostics',
  };
  const prefix = prefixes[plane];
  app.all(`${prefix}/echo`, (req, res) => {
    res.json({ plane, method: req.method, correlation_id: res.locals.correlationId });
  });
  // The same answer as echo, behind token verification: the pair measures what auth adds.
  app.all(`${prefix}/echo-authenticated`, async (req, res) => {
    const token = bearerToken(req);
    if (!token) throw new AppError('unauthenticated', { message: 'This route needs an access token.' });
    await authenticate(token);
    res.json({ plane, method: req.method, correlation_id: res.locals.correlationId });
  });
  app.all(`${prefix}/crash`, () => {
    throw new Error('diagnostic crash: this error is deliberate');
  });
}
