import { z } from 'zod';

/** The deployments that serve the API behind the one hostname (ARCHITECTURE.md). */
export const PLANES = ['read', 'write', 'callback', 'sse', 'admin'] as const;
export type TPlane = (typeof PLANES)[number];

export type THttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route.
 * - public: nobody needs to be signed in (login, JWKS, OpenAPI).
 * - principal: a verified access token, no tenant (e.g. /me).
 * - tenant: a verified access token plus an X-Organization-ID the principal belongs to.
 * - platform_admin: a verified token of a platform administrator (admin plane).
 * - callback: a per-(scan, tool) scanner credential (callback plane).
 * - webhook: verified by the provider's own signature scheme (callback plane).
 */
export type TRouteAuth = 'public' | 'principal' | 'tenant' | 'platform_admin' | 'callback' | 'webhook';

export interface TRouteRequest {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The body is taken raw (a stream), not parsed as JSON: scanner reports. */
  rawBody?: { contentTypes: readonly string[] };
  /** Form-encoded bodies are accepted beside JSON (OAuth endpoints). */
  acceptsForm?: boolean;
}

export interface TRouteResponse {
  description: string;
  schema?: z.ZodType;
  contentType?: string;
}

/** One row of the route table: everything the edge, the planes and OpenAPI need to know. */
export interface TRouteContract {
  operationId: string;
  method: THttpMethod;
  /** Express-style path with `:param` segments, always under /api/v2. */
  path: string;
  plane: TPlane;
  auth: TRouteAuth;
  /** Permission checked against the principal's role when auth is `tenant`. */
  permission?: string;
  summary: string;
  tags: readonly string[];
  request: TRouteRequest;
  responses: Record<number, TRouteResponse>;
}

export function defineRoute<const T extends TRouteContract>(route: T): T {
  if (!route.path.startsWith('/api/v2/')) {
    throw new Error(`route ${route.operationId}: path must start with /api/v2/`);
  }
  return route;
}

/** The input a route handler receives once the platform has validated the request. */
export type TRouteInput<T extends TRouteContract> = {
  params: T['request']['params'] extends z.ZodType ? z.infer<T['request']['params']> : Record<string, never>;
  query: T['request']['query'] extends z.ZodType ? z.infer<T['request']['query']> : Record<string, never>;
  body: T['request']['body'] extends z.ZodType ? z.infer<T['request']['body']> : undefined;
};
