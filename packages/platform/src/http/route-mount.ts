import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import type { TRouteContract } from '@palisade/contracts';
import type { Logger } from '../logging/logger';
import { bodyParsing } from './body-parsing';
import { markOAuthRoute } from './error-middleware';
import type { THttpMetrics } from './metrics';
import type { TOrgQuota } from './org-quota';
import { resolveAccess, type TAccessDeps } from './route-access';
import { validateRequest } from './request-validation';
import type { TAnyBoundRoute, TRequestContext, TRouteResult } from './route-handler';

export interface TMountOptions extends TAccessDeps {
  logger: Logger;
  metrics: THttpMetrics;
  bodyLimitBytes: number;
  /** Spent by mutating tenant calls on the write plane (spec Section 8, API quotas). */
  quota?: TOrgQuota;
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Mounts one contract row: access → body → validation → handler → response schema. */
export function mountRoute(app: Express, bound: TAnyBoundRoute, options: TMountOptions): void {
  const route = bound.contract;
  const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head';
  const access: RequestHandler = async (req, res, next) => {
    const { principal, tenant } = await resolveAccess(route, req, options);
    res.locals.principal = principal;
    res.locals.tenant = tenant;
    if (options.quota && tenant && route.plane === 'write' && MUTATING.has(route.method)) await options.quota.consume(tenant.orgId);
    next();
  };
  const serve: RequestHandler = async (req, res) => {
    const input = validateRequest(route, req);
    const ctx: TRequestContext = {
      correlationId: res.locals.correlationId,
      log: options.logger.child({
        correlationId: res.locals.correlationId,
        orgId: res.locals.tenant?.orgId,
        principal: res.locals.principal?.id,
      }),
      principal: res.locals.principal,
      tenant: res.locals.tenant,
      req,
      res,
    };
    const result = await bound.handle(input as never, ctx);
    send(route, result, res);
  };
  const oauth: RequestHandler[] = route.request.acceptsForm
    ? [
        (_req, res, next) => {
          markOAuthRoute(res);
          next();
        },
      ]
    : [];
  app[method](route.path, observe(route, options.metrics), ...oauth, access, ...bodyParsing(route, options.bodyLimitBytes), serve);
}

// Session cookies are always Secure, HttpOnly and SameSite=Strict: browsers treat loopback as a
// secure context, so local http development keeps working.
const COOKIE_FLAGS = { httpOnly: true, secure: true, sameSite: 'strict' } as const;

function send(route: TRouteContract, result: TRouteResult, res: Response): void {
  if ('handled' in result) return;
  for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
  for (const cookie of result.setCookies ?? []) {
    res.cookie(cookie.name, cookie.value, {
      ...COOKIE_FLAGS,
      path: cookie.path,
      maxAge: cookie.maxAgeSeconds * 1000,
    });
  }
  for (const cookie of result.clearCookies ?? []) {
    res.clearCookie(cookie.name, { ...COOKIE_FLAGS, path: cookie.path });
  }
  const declared = route.responses[result.status];
  if (!declared) throw new Error(`route ${route.operationId} answered undeclared status ${result.status}`);
  if (result.body === undefined) {
    res.status(result.status).end();
    return;
  }
  // Serializing through the schema keeps a handler from leaking a field the contract never promised.
  const body = declared.schema ? declared.schema.parse(result.body) : result.body;
  res.status(result.status).json(body);
}

function observe(route: TRouteContract, metrics: THttpMetrics) {
  return (_req: Request, res: Response, next: NextFunction) => {
    const stop = metrics.requestDuration.startTimer({ method: route.method, operation: route.operationId });
    res.on('finish', () => {
      const status = String(res.statusCode);
      stop({ status });
      metrics.requestsTotal.inc({ method: route.method, operation: route.operationId, status });
    });
    next();
  };
}
