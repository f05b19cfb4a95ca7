import request from 'supertest';
import type { TPlane } from '@palisade/contracts';
import { addMember, createOrganization, createUser, expectRefusal, startTestPlanes, type TTestPlanes } from '@palisade/testing';
import { buildAdminApi } from '../../admin-api/src/app';
import { buildCallbackApi } from '../../callback-api/src/app';
import { buildSse } from '../../sse/src/app';
import { buildWriteApi } from '../../write-api/src/app';
import { buildReadApi } from '../src/app';

// What an audit of client-reachable crashes found: inputs Express, its router or body-parser
// refuse before our code runs. Each must be the client's 4xx with the structured body.
describe('requests the framework cannot read', () => {
  let planes: TTestPlanes;
  let tenant: Record<string, string>;

  beforeAll(async () => {
    planes = await startTestPlanes({ write: buildWriteApi, read: buildReadApi, callback: buildCallbackApi, sse: buildSse, admin: buildAdminApi });
    const user = await createUser(planes.db, { isPlatformAdmin: true });
    const orgId = (await createOrganization(planes.db)).id;
    await addMember(planes.db, orgId, user.id, 'owner');
    const login = await request(planes.app('write')).post('/api/v2/auth/login').send({ email: user.email, password: user.password }).expect(200);
    tenant = { Authorization: `Bearer ${login.body.access_token}`, 'X-Organization-ID': orgId };
  });
  afterAll(() => planes?.close());

  const badEscape = '%E0%A4%A';
  const pathParamRoutes: Array<[TPlane, 'get' | 'put' | 'post' | 'delete', string]> = [
    ['read', 'get', `/api/v2/scans/${badEscape}`],
    ['read', 'get', `/api/v2/findings/%zz/detail`],
    ['write', 'delete', `/api/v2/ci/pipeline/trust-policies/${badEscape}`],
    ['write', 'put', `/api/v2/organization/members/${badEscape}`],
    ['callback', 'post', `/api/v2/callbacks/scans/${badEscape}/tools/semgrep`],
    ['callback', 'post', `/api/v2/callbacks/scans/00000000-0000-4000-8000-000000000000/tools/${badEscape}/outcome`],
    ['admin', 'put', `/api/v2/admin/organizations/${badEscape}/quota`],
  ];

  it.each(pathParamRoutes)('answers a malformed percent-escape in a path parameter with a 400 (%s plane, %s %s)', async (plane, method, path) => {
    for (const headers of [{}, tenant]) {
      const res = await request(planes.app(plane))[method](path).set(headers);
      expectRefusal(res, 400, 'bad_request');
    }
  });

  it('answers a malformed escape on the sse plane, which has no routes yet, with a 404', async () => {
    expectRefusal(await request(planes.app('sse')).get(`/api/v2/events/${badEscape}`), 404, 'route_not_found');
  });

  it('refuses query parameters given as arrays, brackets or nested keys with a 422 naming them', async () => {
    const findings = (query: string) => request(planes.app('read')).get(`/api/v2/findings?${query}`).set(tenant);
    const cases: Array<[string, string]> = [
      ['limit[]=1', 'query.limit[]'],
      ['limit=1&limit=2', 'query.limit'],
      ['severity=high&severity=low', 'query.severity'],
      ['cursor=a&cursor=b', 'query.cursor'],
      ['a[b][c][d][e][f]=1', 'query.a[b][c][d][e][f]'],
      ['__proto__[x]=1', 'query.__proto__[x]'],
      ['__proto__=1', 'query.__proto__'],
      ['constructor=1', 'query.constructor'],
      [`severity=${badEscape}`, 'query.severity'],
    ];
    for (const [query, field] of cases) {
      const res = await findings(query);
      expectRefusal(res, 422, 'validation_failed');
      expect(res.body.field).toBe(field);
    }
    const many = Array.from({ length: 2000 }, (_, i) => `p${i}=1`).join('&');
    expectRefusal(await findings(many), 422, 'validation_failed');
  });

  it('refuses a body it cannot decompress with a 400, an unknown encoding or charset with a 415', async () => {
    const login = () => request(planes.app('write')).post('/api/v2/auth/login');
    const jwks = () => request(planes.app('read')).get('/api/v2/auth/jwks.json');
    for (const encoding of ['gzip', 'deflate', 'br']) {
      expectRefusal(await login().set('Content-Type', 'application/json').set('Content-Encoding', encoding).send('{"not":"compressed"}'), 400, 'bad_request');
      // A route that takes no body still reads one to refuse it: the same answer.
      expectRefusal(await jwks().set('Content-Type', 'application/json').set('Content-Encoding', encoding).send('xx'), 400, 'bad_request');
    }
    expectRefusal(await login().set('Content-Type', 'application/json').set('Content-Encoding', 'bogus').send('{}'), 415, 'unsupported_media_type');
    expectRefusal(await login().set('Content-Type', 'application/json; charset=latin1').send('{}'), 415, 'unsupported_media_type');
  });

  it('reads a body that is not valid UTF-8 as text and refuses it field by field', async () => {
    const bytes = Buffer.concat([Buffer.from('{"email":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('","password":"x"}')]);
    const res = await request(planes.app('write')).post('/api/v2/auth/login').set('Content-Type', 'application/json').send(bytes);
    expectRefusal(res, 422, 'validation_failed');
    expect(res.body.field).toBe('body.email');
  });

  it('refuses a body that is JSON but not an object, and a malformed Content-Type, without crashing', async () => {
    const login = () => request(planes.app('write')).post('/api/v2/auth/login');
    expectRefusal(await login().set('Content-Type', 'application/json').send('null'), 400, 'malformed_json');
    expectRefusal(await login().set('Content-Type', 'application/json').send('[]'), 422, 'validation_failed');
    expectRefusal(await login().set('Content-Type', '/;;;').send('{}'), 415, 'unsupported_media_type');
    const deep = `{"target":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expectRefusal(await request(planes.app('write')).post('/api/v2/scans').set(tenant).set('Content-Type', 'application/json').send(deep), 422, 'validation_failed');
  });
});
