import { PLANES } from './route';
import { ROUTE_TABLE, routesForPlane } from './route-table';

describe('the route table', () => {
  it('has unique operation ids and unique method+path pairs', () => {
    const ids = ROUTE_TABLE.map((route) => route.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const keys = ROUTE_TABLE.map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('assigns every route to exactly one known plane', () => {
    const total = PLANES.reduce((sum, plane) => sum + routesForPlane(plane).length, 0);
    expect(total).toBe(ROUTE_TABLE.length);
  });

  it('names a permission on every tenant-scoped route', () => {
    for (const route of ROUTE_TABLE.filter((r) => r.auth === 'tenant')) expect(route.permission).toEqual(expect.any(String));
  });
});
