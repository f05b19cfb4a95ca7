import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ZErrorBody, ZInternalErrorBody } from './errors';
import type { TRouteContract } from './route';
import { ROUTE_TABLE } from './route-table';

const SECURITY_BY_AUTH: Record<TRouteContract['auth'], Record<string, string[]>[]> = {
  public: [],
  principal: [{ bearer: [] }],
  tenant: [{ bearer: [], organization: [] }],
  platform_admin: [{ bearer: [] }],
  callback: [{ callbackCredential: [] }],
  webhook: [],
};

/** `/api/v2/scans/:scan_id` → `/api/v2/scans/{scan_id}` */
export function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

/**
 * The OpenAPI 3.1 document, generated from the route table and its schemas, so it cannot
 * disagree with what the planes validate.
 */
export function buildOpenApiDocument(options: { serverUrl: string; routes?: readonly TRouteContract[] }) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  registry.registerComponent('securitySchemes', 'organization', { type: 'apiKey', in: 'header', name: 'X-Organization-ID' });
  registry.registerComponent('securitySchemes', 'callbackCredential', { type: 'http', scheme: 'bearer', description: 'Per-(scan, tool) scanner callback credential' });
  const errorBody = ZErrorBody;
  const internalErrorBody = ZInternalErrorBody;

  for (const route of options.routes ?? ROUTE_TABLE) {
    if (route.method === 'HEAD') continue;
    const responses: Record<string, { description: string; content?: Record<string, { schema: z.ZodType }> }> = {};
    for (const [status, response] of Object.entries(route.responses)) {
      responses[status] = {
        description: response.description,
        ...(response.schema ? { content: { [response.contentType ?? 'application/json']: { schema: response.schema } } } : {}),
      };
    }
    responses['4XX'] = { description: 'Refusal with the structured error body', content: { 'application/json': { schema: errorBody } } };
    responses['500'] = { description: 'Crash: the correlation id only', content: { 'application/json': { schema: internalErrorBody } } };

    const body = route.request.body
      ? {
          body: {
            required: true,
            content: {
              'application/json': { schema: route.request.body },
              ...(route.request.acceptsForm ? { 'application/x-www-form-urlencoded': { schema: route.request.body } } : {}),
            },
          },
        }
      : route.request.rawBody
        ? {
            body: {
              required: true,
              content: Object.fromEntries(route.request.rawBody.contentTypes.map((type) => [type, { schema: z.any() }])),
            },
          }
        : {};

    registry.registerPath({
      operationId: route.operationId,
      method: route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete',
      path: toOpenApiPath(route.path),
      summary: route.summary,
      tags: [...route.tags],
      security: SECURITY_BY_AUTH[route.auth],
      request: {
        ...(route.request.params ? { params: route.request.params as z.ZodObject } : {}),
        ...(route.request.query ? { query: route.request.query as z.ZodObject } : {}),
        ...body,
      },
      responses,
    });
  }

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Palisade API',
      version: '2.0.0',
      description: 'Security scanning and findings management. Every route is under /api/v2 behind one hostname.',
    },
    servers: [{ url: options.serverUrl }],
  });
}
