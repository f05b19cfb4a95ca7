import express, { type Express } from 'express';
import { buildOpenApiDocument, routesForPlane, type TPlane } from '@palisade/contracts';
import type { TTrustProxy } from '../config/env';
import type { Logger } from '../logging/logger';
import type { TAccessDeps } from './route-access';
import { cookies } from './cookies';
import { correlationId } from './correlation';
import { mountDiagnostics } from './diagnostics';
import { errorHandler, notFoundHandler } from './error-middleware';
import { mountHealth, type TReadiness, type TReadinessCheck } from './health';
import { createHttpMetrics, type THttpMetrics } from './metrics';
import { mountRoute } from './route-mount';
import type { TOrgQuota } from './org-quota';
import type { TAnyBoundRoute } from './route-handler';

/** The edge caps bodies too (nginx); the plane enforces the same caps so it holds without the edge. */
export const BODY_LIMIT_BYTES = 1024 * 1024;
export const CALLBACK_BODY_LIMIT_BYTES = 64 * 1024 * 1024;

export interface TPlaneAppOptions {
  plane: TPlane;
  logger: Logger;
  routes: TAnyBoundRoute[];
  access: TAccessDeps;
  readinessChecks?: Record<string, TReadinessCheck>;
  publicBaseUrl: string;
  diagnosticsEnabled?: boolean;
  quota?: TOrgQuota;
  /** Express `trust proxy` (TRUST_PROXY); default loopback, the edge of `npm start`. */
  trustProxy?: TTrustProxy;
}

export interface TPlaneApp {
  app: Express;
  metrics: THttpMetrics;
  readiness: TReadiness;
}

/**
 * Builds a plane: the same middleware on every plane, and exactly the route-table rows that
 * belong to it. A plane that lacks a handler for one of its rows, or carries a handler for
 * another plane's row, refuses to start — the table and the code cannot drift apart.
 */
export function createPlaneApp(options: TPlaneAppOptions): TPlaneApp {
  assertRoutesMatchTable(options.plane, options.routes);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy ?? 'loopback');
  app.set('etag', false);
  app.set('query parser', 'simple');

  const metrics = createHttpMetrics(options.plane);
  app.use(correlationId(options.plane));
  const readiness = mountHealth(app, { metrics, checks: options.readinessChecks ?? {}, logger: options.logger });
  app.use(cookies());
  app.use(requestLog(options.logger));

  for (const route of options.routes) {
    mountRoute(app, route, {
      ...options.access,
      logger: options.logger,
      metrics,
      bodyLimitBytes: options.plane === 'callback' ? CALLBACK_BODY_LIMIT_BYTES : BODY_LIMIT_BYTES,
      quota: options.quota,
    });
  }
  if (options.diagnosticsEnabled) mountDiagnostics(app, options.plane, options.access.authenticate);

  app.use(notFoundHandler());
  app.use(errorHandler(options.logger));
  return { app, metrics, readiness };
}

function assertRoutesMatchTable(plane: TPlane, routes: TAnyBoundRoute[]): void {
  const expected = new Set(routesForPlane(plane).map((route) => route.operationId));
  const given = new Set(routes.map((route) => route.contract.operationId));
  const missing = [...expected].filter((id) => !given.has(id));
  const foreign = routes.filter((route) => route.contract.plane !== plane).map((route) => route.contract.operationId);
  if (missing.length || foreign.length) {
    throw new Error(
      `plane ${plane}: ` +
        (missing.length ? `no handler for ${missing.join(', ')}` : '') +
        (foreign.length ? ` handlers for other planes' routes: ${foreign.join(', ')}` : ''),
    );
  }
}

function requestLog(logger: Logger): express.RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        { correlationId: res.locals.correlationId, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 },
        'request',
      );
    });
    next();
  };
}

/** The OpenAPI route's body, built once per process. */
export function openApiDocumentFor(publicBaseUrl: string): ReturnType<typeof buildOpenApiDocument> {
  return buildOpenApiDocument({ serverUrl: publicBaseUrl.replace(/\/$/, '') });
}
