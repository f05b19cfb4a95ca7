// The generator's answer to rows the prefix and method rules would misroute: a regex location
// of their own (proved under a real nginx), or a loud failure under a reserved prefix.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PLANES, type THttpMethod, type TPlane, type TRouteContract } from '@palisade/contracts';
import { renderEdgeConfig, renderStandaloneConfig, STANDALONE_TEMP_DIRS } from '../../../../infra/nginx/edge-config';
import { EdgeRoutingError, edgePlaneFor, pathRegex, planEdgeRoutes, samplePath } from '../../../../infra/nginx/edge-routing';
import { freePort, nginxBinary, waitForOk } from './edge-nginx';
import { ManagedProcess } from './managed-process';

const row = (method: THttpMethod, routePath: string, plane: TPlane, operationId = `${method}${routePath}`): TRouteContract => ({
  operationId, method, path: routePath, plane, auth: 'public', summary: '', tags: [], request: {}, responses: {},
});

const TABLE = [
  row('GET', '/api/v2/scans/:scan_id', 'read'),
  row('POST', '/api/v2/scans', 'write'),
  // A read that must see the primary (a device-flow poll, say): declared on write.
  row('GET', '/api/v2/auth/device/poll/:code', 'write'),
  // A mutation served by the read plane, and an sse route outside /api/v2/events/.
  row('POST', '/api/v2/findings/search', 'read'),
  row('GET', '/api/v2/stream.sse', 'sse'),
  row('POST', '/api/v2/callbacks/scans/:scan_id/tools/:tool', 'callback'),
];

describe('edge overrides for rows the plain rules would misroute', () => {
  it('translates Express paths to anchored regexes and sample URIs', () => {
    expect(pathRegex('/api/v2/scans/:scan_id/sbom/cyclonedx')).toBe('^/api/v2/scans/[^/]+/sbom/cyclonedx/?$');
    expect(pathRegex('/api/v2/auth/jwks.json')).toBe('^/api/v2/auth/jwks\\.json/?$');
    expect(samplePath('/api/v2/scans/:scan_id')).toBe('/api/v2/scans/sample');
    expect(() => pathRegex('/api/v2/files{/:name}')).toThrow(EdgeRoutingError);
  });

  it('plans one override per misrouted row and none for the rest', () => {
    const overrides = planEdgeRoutes(TABLE);
    expect(overrides.map((o) => [o.regex, o.methods, o.plane])).toEqual([
      ['^/api/v2/auth/device/poll/[^/]+/?$', ['GET', 'HEAD'], 'write'],
      ['^/api/v2/findings/search/?$', ['POST'], 'read'],
      ['^/api/v2/stream\\.sse/?$', ['GET', 'HEAD'], 'sse'],
    ]);
    // Other methods at an overridden path keep the method rule.
    expect(edgePlaneFor('DELETE', '/api/v2/auth/device/poll/x', overrides)).toBe('write');
    expect(edgePlaneFor('GET', '/api/v2/findings/search', overrides)).toBe('read');
  });

  it('refuses a row on the wrong plane under a reserved prefix', () => {
    expect(() => planEdgeRoutes([row('GET', '/api/v2/admin/organizations', 'read', 'listOrgs')])).toThrow(
      /listOrgs.*\/api\/v2\/admin\/ is reserved for the admin plane/,
    );
    expect(() => planEdgeRoutes([row('POST', '/api/v2/events/tickets', 'write', 'ticket')])).toThrow(EdgeRoutingError);
  });

  it('refuses an override that would swallow a sibling route', () => {
    const table = [row('GET', '/api/v2/things/:id', 'write', 'getThing'), row('GET', '/api/v2/things/special', 'read', 'special')];
    expect(() => planEdgeRoutes(table)).toThrow(/special.*declared on read but the edge would send it to write/);
  });

  describe('under nginx', () => {
    const stubs: http.Server[] = [];
    let dir: string;
    let nginx: ManagedProcess;
    let baseUrl: string;

    beforeAll(async () => {
      const upstreams = {} as Record<TPlane, string>;
      for (const plane of PLANES) {
        const server = http.createServer((req, res) => {
          req.resume().on('end', () => res.setHeader('X-Palisade-Plane', plane).end('{}'));
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        stubs.push(server);
        upstreams[plane] = `127.0.0.1:${(server.address() as AddressInfo).port}`;
      }
      const port = await freePort();
      baseUrl = `http://127.0.0.1:${port}`;
      dir = mkdtempSync(path.join(tmpdir(), 'palisade-edge-overrides-'));
      // Not root in every environment; without a user directive nginx keeps the current user.
      const asRoot = process.getuid?.() === 0;
      for (const sub of STANDALONE_TEMP_DIRS) mkdirSync(path.join(dir, sub), { recursive: true });
      writeFileSync(path.join(dir, 'palisade.conf'), renderEdgeConfig(TABLE, { listen: `127.0.0.1:${port}`, upstreams }));
      writeFileSync(path.join(dir, 'nginx.conf'), renderStandaloneConfig({ prefix: dir, user: asRoot ? 'root' : undefined }));
      nginx = new ManagedProcess({
        name: 'nginx', command: nginxBinary(), cwd: dir, env: process.env,
        args: ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log'), '-g', 'daemon off;'],
      });
      await waitForOk(`${baseUrl}/healthz`, nginx, 15_000, () => nginx.stderr);
    }, 30_000);

    afterAll(async () => {
      await nginx?.stop();
      stubs.forEach((s) => s.close());
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('routes every row, and the methods around it, as the simulation says', async () => {
      const overrides = planEdgeRoutes(TABLE);
      const probes: Array<[THttpMethod, string]> = [
        ...TABLE.map((r) => [r.method, samplePath(r.path)] as [THttpMethod, string]),
        ['HEAD', '/api/v2/auth/device/poll/abc'],
        ['DELETE', '/api/v2/auth/device/poll/abc'],
        ['GET', '/api/v2/findings/search'],
        ['GET', '/api/v2/auth/device/poll/abc/extra'],
      ];
      for (const [method, uri] of probes) {
        const res = await fetch(`${baseUrl}${uri}`, { method });
        await res.arrayBuffer();
        expect(`${method} ${uri} → ${res.headers.get('x-palisade-plane')}`).toBe(`${method} ${uri} → ${edgePlaneFor(method, uri, overrides)}`);
      }
      const unknown = await fetch(`${baseUrl}/api/v2/findings/search`, { method: 'OPTIONS' });
      expect(unknown.status).toBe(405);
    });
  });
});
