import { z } from 'zod';
import type { TRouteContract } from '@palisade/contracts';
import type { Request } from 'express';
import { fieldIssues, validationError } from './error-body';

const EMPTY = z.object({}).strict();

/**
 * Validates params, query and body against the route's contract. A route without a query
 * schema takes no query parameters at all, so `?org_id=` on any route is a 422: a tenant is
 * never read from the query (spec Section 5).
 */
export function validateRequest(route: TRouteContract, req: Request): { params: unknown; query: unknown; body: unknown } {
  const issues = [];
  const params = (route.request.params ?? EMPTY).safeParse(req.params ?? {});
  if (!params.success) issues.push(...fieldIssues('params', params.error.issues));
  const query = (route.request.query ?? EMPTY).safeParse({ ...(req.query as object) });
  if (!query.success) issues.push(...fieldIssues('query', query.error.issues));

  let body: unknown;
  if (route.request.body) {
    const parsed = route.request.body.safeParse(req.body ?? {});
    if (parsed.success) body = parsed.data;
    else issues.push(...fieldIssues('body', parsed.error.issues));
  } else if (!route.request.rawBody && hasContent(req.body)) {
    issues.push({ field: 'body', issue: 'this route takes no request body' });
  }

  if (issues.length) throw validationError(issues, { oauth: route.request.acceptsForm === true });
  return { params: params.success ? params.data : {}, query: query.success ? query.data : {}, body };
}

function hasContent(body: unknown): boolean {
  if (body === undefined || body === null) return false;
  if (typeof body === 'object') return Object.keys(body as object).length > 0;
  return true;
}
