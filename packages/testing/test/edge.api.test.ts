import { randomUUID } from 'node:crypto';
import axios from 'axios';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { TDb } from '@palisade/db';
import { addMember, createOrganization, createUser, startTestStack, type TStack, type TTestStack } from '../src';

// The proof that the planes sit behind one hostname as ARCHITECTURE.md draws it: real nginx,
// real plane processes, real PostgreSQL and Redis.
describe('the edge in front of the five planes', () => {
  let stack: TStack;
  let env: TTestStack | undefined;
  let db: TDb;
  let token: string;
  let orgId: string;
  const http = axios.create({ validateStatus: () => true });

  beforeAll(async () => {
    env = await startTestStack({ env: { DIAGNOSTICS_ENABLED: 'true', OPENAPI_ENABLED: 'true' } });
    ({ stack, db } = env);
    const org = await createOrganization(db);
    const user = await createUser(db, { password: 'edge-test-password' });
    await addMember(db, org.id, user.id, 'owner');
    orgId = org.id;
    const login = await http.post(`${stack.baseUrl}/api/v2/auth/login`, { email: user.email, password: 'edge-test-password' });
    expect(login.status).toBe(200);
    token = login.data.access_token;
  }, 120_000);

  afterAll(async () => {
    await env?.stop();
  });

  it('sends reads to the read plane and writes to the write plane', async () => {
    const get = await http.get(`${stack.baseUrl}/api/v2/diagnostics/echo`);
    expect(get.headers['x-palisade-plane']).toBe('read');
    const post = await http.post(`${stack.baseUrl}/api/v2/diagnostics/echo`, {});
    expect(post.headers['x-palisade-plane']).toBe('write');
  });

  it('sends the callback, webhook, events and admin prefixes to their planes', async () => {
    expect((await http.post(`${stack.baseUrl}/api/v2/callbacks/diagnostics/echo`, {})).headers['x-palisade-plane']).toBe('callback');
    expect((await http.post(`${stack.baseUrl}/api/v2/webhooks/anything`, {})).headers['x-palisade-plane']).toBe('callback');
    expect((await http.get(`${stack.baseUrl}/api/v2/events/diagnostics/echo`)).headers['x-palisade-plane']).toBe('sse');
    expect((await http.get(`${stack.baseUrl}/api/v2/admin/diagnostics/echo`)).headers['x-palisade-plane']).toBe('admin');
  });

  it('gives every response the edge request id as its correlation id', async () => {
    const res = await http.get(`${stack.baseUrl}/api/v2/auth/jwks.json`);
    expect(res.status).toBe(200);
    expect(res.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{16,}$/);
    expect(res.headers['x-correlation-id']).toBe(res.headers['x-request-id']);
  });

  it('refuses an unknown body field with a 422 naming it', async () => {
    const res = await http.post(`${stack.baseUrl}/api/v2/auth/login`, { email: 'a@b.co', password: 'x', tenant: 'other' });
    expect(res.status).toBe(422);
    expect(res.data).toMatchObject({ error_code: 'validation_failed', field: 'body.tenant', category: 'config', retryable: false });
  });

  it('refuses a body over the cap with a 413, at the edge and in the plane', async () => {
    const big = { email: 'a@b.co', password: 'x'.repeat(1024 * 1024 + 10) };
    const viaEdge = await http.post(`${stack.baseUrl}/api/v2/auth/login`, big);
    expect(viaEdge.status).toBe(413);
    expect(viaEdge.data).toMatchObject({ error_code: 'payload_too_large' });
    const direct = await http.post(`${stack.planeUrls.write}/api/v2/auth/login`, big);
    expect(direct.status).toBe(413);
    expect(direct.data).toMatchObject({ error_code: 'payload_too_large', correlation_id: expect.any(String) });
  });

  it('answers a missing token with a structured 401', async () => {
    const res = await http.get(`${stack.baseUrl}/api/v2/me`);
    expect(res.status).toBe(401);
    expect(res.data).toMatchObject({ error_code: 'unauthenticated', category: 'auth', hint: expect.any(String), correlation_id: expect.any(String) });
  });

  it('answers an organization the caller does not belong to with a 403', async () => {
    const headers = { Authorization: `Bearer ${token}` };
    expect((await http.get(`${stack.baseUrl}/api/v2/organization`, { headers: { ...headers, 'X-Organization-ID': orgId } })).status).toBe(200);
    const res = await http.get(`${stack.baseUrl}/api/v2/organization`, { headers: { ...headers, 'X-Organization-ID': randomUUID() } });
    expect(res.status).toBe(403);
    expect(res.data).toMatchObject({ error_code: 'not_a_member', category: 'auth' });
  });

  it('answers a crash with a 500 whose body is only the correlation id, which is in the log', async () => {
    const res = await http.get(`${stack.baseUrl}/api/v2/diagnostics/crash`);
    expect(res.status).toBe(500);
    expect(Object.keys(res.data)).toEqual(['correlation_id']);
    const id = res.data.correlation_id;
    expect(id).toBe(res.headers['x-correlation-id']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const line = stack
      .logs('read')
      .split('\n')
      .find((l) => l.includes(id) && l.includes('unhandled error'));
    expect(line).toBeDefined();
    expect(JSON.parse(line!).err.stack).toMatch(/diagnostic crash/);
  });

  it('serves a valid OpenAPI 3.1 document when enabled', async () => {
    const res = await http.get(`${stack.baseUrl}/api/v2/openapi.json`);
    expect(res.status).toBe(200);
    await expect(SwaggerParser.validate(res.data)).resolves.toBeDefined();
  });

  it('answers paths outside the API with a structured 404 from the edge, carrying its correlation id', async () => {
    const res = await http.get(`${stack.baseUrl}/nothing-here`);
    expect(res.status).toBe(404);
    expect(res.data).toMatchObject({ error_code: 'route_not_found', correlation_id: expect.any(String) });
    expect(res.headers['x-correlation-id']).toBe(res.data.correlation_id);
  });

  it('sends exactly one correlation id header on a response proxied from a plane', async () => {
    const res = await fetch(`${stack.baseUrl}/api/v2/auth/jwks.json`);
    expect(res.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{16,}$/);
    expect(res.headers.get('x-correlation-id')).not.toContain(',');
  });

  it('refuses a tenant-scoped call without X-Organization-ID with a 422 naming the header', async () => {
    const res = await http.get(`${stack.baseUrl}/api/v2/organization`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(422);
    expect(res.data).toMatchObject({ error_code: 'validation_failed', field: 'headers.x-organization-id' });
  });

  it('refuses a tenant named in the query string as an unknown field', async () => {
    const res = await http.get(`${stack.baseUrl}/api/v2/organization?org_id=${orgId}`, {
      headers: { Authorization: `Bearer ${token}`, 'X-Organization-ID': orgId },
    });
    expect(res.status).toBe(422);
    expect(res.data).toMatchObject({ error_code: 'validation_failed', field: 'query.org_id' });
  });
});
