import { createHmac, generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { makeRepositories } from '@palisade/db';
import { createOrganization, createUser, addMember, startTestPlanes, type TTestPlanes } from '@palisade/testing';
import { buildAdminApi } from '../../admin-api/src/app';
import { buildWriteApi } from '../../write-api/src/app';
import { buildReadApi } from '../src/app';

// Every kind of bad token, on an authenticated route of every plane that has one: always a
// structured 401, never a 500.
describe('bad access tokens on every plane', () => {
  let planes: TTestPlanes;
  const bad: Record<string, string> = {};
  let orgId: string;

  beforeAll(async () => {
    planes = await startTestPlanes({ write: buildWriteApi, read: buildReadApi, admin: buildAdminApi });
    const user = await createUser(planes.db, { isPlatformAdmin: true });
    orgId = (await createOrganization(planes.db)).id;
    await addMember(planes.db, orgId, user.id, 'owner');
    const { token } = await planes.plane('write').runtime.auth.accessTokens.issue({ kind: 'human', id: user.id, isPlatformAdmin: true });
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const { exp: _exp, iat: _iat, ...timeless } = claims;
    const key = await makeRepositories(planes.db.primary).signingKeys.active();
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const foreignKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const sign = (overrides: object, options: jwt.SignOptions = {}) =>
      jwt.sign({ ...timeless, ...overrides }, foreignKey, { algorithm: 'RS256', keyid: key!.kid, ...options });

    bad.tampered = [header, b64({ ...claims, adm: true, sub: '00000000-0000-7000-8000-000000000000' }), signature].join('.');
    bad.alg_none = [b64({ alg: 'none', typ: 'JWT', kid: key!.kid }), payload, ''].join('.');
    const hsHeader = b64({ alg: 'HS256', typ: 'JWT', kid: key!.kid });
    bad.hs256 = `${hsHeader}.${payload}.${createHmac('sha256', key!.publicKeyPem).update(`${hsHeader}.${payload}`).digest('base64url')}`;
    bad.unknown_kid = sign({}, { keyid: 'no-such-key', expiresIn: 60 });
    bad.foreign_key = sign({}, { expiresIn: 60 });
    bad.expired = jwt.sign({ ...timeless, exp: Math.floor(Date.now() / 1000) - 3600 }, foreignKey, { algorithm: 'RS256', keyid: key!.kid });
    bad.wrong_audience = [header, b64({ ...claims, aud: 'someone-else' }), signature].join('.');
    bad.garbage = 'not.a.jwt';
    bad.empty_segments = '..';
  });
  afterAll(() => planes?.close());

  const routes = [
    { plane: 'read' as const, method: 'get' as const, path: '/api/v2/me' },
    { plane: 'read' as const, method: 'get' as const, path: '/api/v2/organization' },
    { plane: 'write' as const, method: 'post' as const, path: '/api/v2/organization/members' },
    { plane: 'admin' as const, method: 'get' as const, path: '/api/v2/admin/signing-keys' },
  ];

  it.each(['tampered', 'alg_none', 'hs256', 'unknown_kid', 'foreign_key', 'expired', 'wrong_audience', 'garbage', 'empty_segments'])(
    'refuses a %s token with a structured 401',
    async (kind) => {
      for (const route of routes) {
        const res = await request(planes.app(route.plane))
          [route.method](route.path)
          .set('Authorization', `Bearer ${bad[kind]}`)
          .set('X-Organization-ID', orgId)
          .send(route.method === 'post' ? { email: 'x@example.com', role: 'member' } : undefined);
        expect({ route: route.path, status: res.status }).toEqual({ route: route.path, status: 401 });
        expect(res.body).toMatchObject({ error_code: 'unauthenticated', category: 'auth', hint: expect.any(String), correlation_id: expect.any(String) });
      }
    },
  );
});
