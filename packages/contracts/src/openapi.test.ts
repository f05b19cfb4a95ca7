import SwaggerParser from '@apidevtools/swagger-parser';
import { buildOpenApiDocument } from './openapi';
import { ROUTE_TABLE } from './route-table';

describe('the OpenAPI document', () => {
  const document = buildOpenApiDocument({ serverUrl: 'http://127.0.0.1:8080' });

  it('validates as OpenAPI 3.1 with a standard validator', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
    expect(document.openapi).toBe('3.1.0');
  });

  it('describes every route of the table under its OpenAPI path', () => {
    for (const route of ROUTE_TABLE) {
      const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      expect(document.paths?.[path]?.[route.method.toLowerCase() as 'get']?.operationId).toBe(route.operationId);
    }
  });

  it('marks request bodies strict: unknown fields are not allowed', () => {
    const login = document.paths?.['/api/v2/auth/login']?.post?.requestBody as { content: Record<string, { schema: { additionalProperties?: boolean } }> };
    expect(login.content['application/json'].schema.additionalProperties).toBe(false);
  });
});
