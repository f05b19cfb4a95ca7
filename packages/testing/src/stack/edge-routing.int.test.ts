// The generated edge, run by a real nginx in front of stub planes: every route-table row reaches
// the plane it declares, and the edge's own refusals carry the API error body.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PLANES, ROUTE_TABLE, type TPlane } from '@palisade/contracts';
import { startEdgeNginx, type TEdgeNginx } from './edge-nginx';

interface TSeen {
  plane: TPlane;
  method: string;
  url: string;
  requestId: string | undefined;
  bodyBytes: number;
}

function stubPlane(plane: TPlane): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    let bodyBytes = 0;
    req.on('data', (chunk: Buffer) => (bodyBytes += chunk.length));
    req.on('end', () => {
      res.setHeader('X-Palisade-Plane', plane);
      if (req.url?.endsWith('/stream')) {
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.write('data: first\n\n');
        // The rest only comes much later: a buffering edge would hold the first event back.
        const timer = setTimeout(() => res.end('data: last\n\n'), 3000);
        res.on('close', () => clearTimeout(timer));
        return;
      }
      const seen: TSeen = { plane, method: req.method!, url: req.url!, requestId: req.headers['x-request-id'] as string | undefined, bodyBytes };
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(seen));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const samplePath = (path: string) => path.replace(/\/[:*][A-Za-z_$][\w$]*/g, '/sample-id');

describe('the generated edge config under nginx', () => {
  const stubs = new Map<TPlane, http.Server>();
  let edge: TEdgeNginx;

  beforeAll(async () => {
    for (const plane of PLANES) stubs.set(plane, await stubPlane(plane));
    const upstreams = Object.fromEntries(PLANES.map((plane) => [plane, (stubs.get(plane)!.address() as AddressInfo).port])) as Record<TPlane, number>;
    edge = await startEdgeNginx({ upstreams });
  }, 60_000);

  afterAll(async () => {
    await edge?.stop();
    await Promise.all([...stubs.values()].map((s) => new Promise((resolve) => s.close(resolve))));
  });

  it('sends every route-table row to the plane the row declares', async () => {
    const misrouted: string[] = [];
    for (const route of ROUTE_TABLE) {
      const res = await fetch(`${edge.baseUrl}${samplePath(route.path)}`, {
        method: route.method,
        ...(['GET', 'HEAD'].includes(route.method) ? {} : { body: '{}', headers: { 'Content-Type': 'application/json' } }),
      });
      await res.arrayBuffer();
      const plane = res.headers.get('x-palisade-plane');
      if (plane !== route.plane) misrouted.push(`${route.method} ${route.path}: ${plane ?? res.status} (declared ${route.plane})`);
    }
    expect(misrouted).toEqual([]);
  });

  it('sends reads to read, mutations to write, and the reserved prefixes to their planes', async () => {
    const cases: Array<[string, string, TPlane]> = [
      ['GET', '/api/v2/anything/at/all', 'read'],
      ['HEAD', '/api/v2/anything', 'read'],
      ['POST', '/api/v2/anything', 'write'],
      ['PUT', '/api/v2/anything', 'write'],
      ['PATCH', '/api/v2/anything', 'write'],
      ['DELETE', '/api/v2/anything', 'write'],
      ['POST', '/api/v2/callbacks/scans/x/tools/y', 'callback'],
      ['GET', '/api/v2/callbacks/x', 'callback'],
      ['POST', '/api/v2/webhooks/github/x', 'callback'],
      ['GET', '/api/v2/events/x', 'sse'],
      ['POST', '/api/v2/events/tickets', 'sse'],
      ['GET', '/api/v2/admin/organizations', 'admin'],
      ['DELETE', '/api/v2/admin/x', 'admin'],
    ];
    for (const [method, path, plane] of cases) {
      const res = await fetch(`${edge.baseUrl}${path}`, { method });
      await res.arrayBuffer();
      expect(`${method} ${path} → ${res.headers.get('x-palisade-plane')}`).toBe(`${method} ${path} → ${plane}`);
    }
  });

  it('gives the plane and the client the same request id, and keeps a well-formed one the client sent', async () => {
    const made = await fetch(`${edge.baseUrl}/api/v2/anything`);
    const seen = (await made.json()) as TSeen;
    expect(seen.requestId).toMatch(/^[0-9a-f]{32}$/);
    expect(made.headers.get('x-request-id')).toBe(seen.requestId);

    const given = await fetch(`${edge.baseUrl}/api/v2/anything`, { headers: { 'X-Request-ID': 'client-trace-0001' } });
    expect(((await given.json()) as TSeen).requestId).toBe('client-trace-0001');
    expect(given.headers.get('x-request-id')).toBe('client-trace-0001');

    const bad = await fetch(`${edge.baseUrl}/api/v2/anything`, { headers: { 'X-Request-ID': 'no spaces "allowed"' } });
    expect(((await bad.json()) as TSeen).requestId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('answers a path outside the API with a 404 error body carrying the request id', async () => {
    const res = await fetch(`${edge.baseUrl}/nothing-here`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json');
    const body = await res.json();
    expect(body).toEqual({
      error_code: 'route_not_found',
      category: 'config',
      message: expect.any(String),
      hint: expect.any(String),
      correlation_id: res.headers.get('x-request-id'),
      retryable: false,
    });
  });

  it('answers a method the API does not serve with a 405 error body', async () => {
    const res = await fetch(`${edge.baseUrl}/api/v2/anything`, { method: 'OPTIONS' });
    expect(res.status).toBe(405);
    expect(await res.json()).toMatchObject({ error_code: 'method_not_allowed', retryable: false });
  });

  it('caps API bodies at 1 MiB with a 413 error body, and lets 64 MiB callbacks through unbuffered', async () => {
    const big = Buffer.alloc(1024 * 1024 + 100, 'a');
    const refused = await fetch(`${edge.baseUrl}/api/v2/anything`, { method: 'POST', body: big });
    expect(refused.status).toBe(413);
    expect(await refused.json()).toMatchObject({ error_code: 'payload_too_large', category: 'config', correlation_id: expect.stringMatching(/^[0-9a-f]{32}$/) });

    const report = Buffer.alloc(3 * 1024 * 1024, 'b');
    const accepted = await fetch(`${edge.baseUrl}/api/v2/callbacks/scans/s/tools/t`, { method: 'POST', body: report });
    expect(accepted.status).toBe(200);
    expect(((await accepted.json()) as TSeen).bodyBytes).toBe(report.length);
  });

  it('passes server-sent events through without buffering', async () => {
    const started = Date.now();
    const res = await fetch(`${edge.baseUrl}/api/v2/events/stream`);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('data: first');
    expect(Date.now() - started).toBeLessThan(2500);
    await reader.cancel();
  });

  it('answers a plane that is down with a retryable 502 error body', async () => {
    const admin = stubs.get('admin')!;
    const closed = new Promise((resolve) => admin.close(resolve));
    admin.closeAllConnections();
    await closed;
    const res = await fetch(`${edge.baseUrl}/api/v2/admin/anything`);
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ error_code: 'service_unavailable', category: 'network', retryable: true });
  });
});
