import request from 'supertest';
import { startTestPlanes, type TTestPlanes } from '@palisade/testing';
import { buildReadApi } from '../src/app';

// The plane's own endpoints (on its port, never through the edge) and the OpenAPI switch.
describe('health, metrics and the OpenAPI switch of a plane', () => {
  let planes: TTestPlanes;
  beforeAll(async () => {
    planes = await startTestPlanes({ read: buildReadApi }, { OPENAPI_ENABLED: 'false' });
  });
  afterAll(() => planes?.close());

  it('answers /api/v2/openapi.json with a structured 404 when OPENAPI_ENABLED is not true', async () => {
    const res = await request(planes.app('read')).get('/api/v2/openapi.json').expect(404);
    expect(res.body).toEqual({
      error_code: 'route_not_found',
      category: 'config',
      message: expect.stringContaining('not enabled'),
      hint: expect.stringContaining('OPENAPI_ENABLED'),
      correlation_id: res.headers['x-correlation-id'],
      retryable: false,
    });
  });

  it('answers /healthz with 200', async () => {
    const res = await request(planes.app('read')).get('/healthz').expect(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('answers /readyz with 200 and each dependency ok', async () => {
    const res = await request(planes.app('read')).get('/readyz').expect(200);
    expect(res.body).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok' } });
  });

  it('serves Prometheus text on /metrics that counts the requests served, by operation and status', async () => {
    const app = planes.app('read');
    await request(app).get('/api/v2/auth/jwks.json').expect(200);
    await request(app).get('/api/v2/auth/jwks.json').expect(200);
    await request(app).get('/api/v2/me').expect(401);
    const res = await request(app).get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const lines = res.text.split('\n');
    expect(lines).toContain('# TYPE palisade_http_requests_total counter');
    const sample = (operation: string, status: number) =>
      lines.find((line) => line.startsWith('palisade_http_requests_total{') && line.includes(`operation="${operation}"`) && line.includes(`status="${status}"`));
    expect(sample('getJwks', 200)).toMatch(/method="GET".*plane="read".* 2$/);
    expect(sample('getMe', 401)).toMatch(/ 1$/);
    expect(lines.some((line) => line.startsWith('palisade_http_request_duration_seconds_bucket{'))).toBe(true);
    expect(lines.some((line) => line.startsWith('process_cpu_user_seconds_total'))).toBe(true);
  });
});
