import { z } from 'zod';
import { defineRoute } from '../../route';

export const openApiContract = defineRoute({
  operationId: 'getOpenApiDocument',
  method: 'GET',
  path: '/api/v2/openapi.json',
  plane: 'read',
  auth: 'public',
  summary: 'The OpenAPI 3.1 document of this deployment (served only when the operator enables it)',
  tags: ['system'],
  request: {},
  responses: { 200: { description: 'OpenAPI 3.1 document', schema: z.record(z.string(), z.unknown()) } },
});
