import { createHmac, generateKeyPairSync, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { createScanInTransaction, uuidv7 } from '@palisade/db';
import { createOrganization, createUser, addMember, randomSuffix, startTestPlanes, type TTestPlanes } from '@palisade/testing';
import { buildAdminApi } from '../../admin-api/src/app';
import { buildCallbackApi } from '../../callback-api/src/app';
import { buildSse } from '../../sse/src/app';
import { buildWriteApi } from '../../write-api/src/app';
import { buildReadApi } from '../src/app';

// Every kind of bad token, on an authenticated route of every plane that has one: always a
// structured 401, never a 500. The expired and wrong-audience tokens are signed by the real
// active signing key, so the expiry or the audience is the only thing wrong with them. The sse
// plane has no authenticated route of its own yet: its diagnostic echo-authenticated route runs
// the same verification.
describe('bad access tokens on every plane', () => {
  let planes: TTestPlanes;
  const bad: Record<string, string> = {};
  let wellFormed: string;
  let orgId: string;
  let scanId: string;

  beforeAll(async () => {
    planes = await startTestPlanes(
      { write: buildWriteApi, read: buildReadApi, callback: buildCallbackApi, sse: buildSse, admin: buildAdminApi },
      { DIAGNOSTICS_ENABLED: 'true' },
    );
    const user = await createUser(planes.db, { isPlatformAdmin: true });
    orgId = (await createOrganization(planes.db)).id;
    await addMember(planes.db, orgId, user.id, 'owner');
    scanId = await createExternalScan(planes, orgId);

    const signingKeys = planes.plane('write').runtime.auth.signingKeys;
    const { token } = await planes.plane('write').runtime.auth.accessTokens.issue({ kind: 'human', id: user.id, isPlatformAdmin: true });
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const { exp: _exp, iat: _iat, ...timeless } = claims;
    const active = await signingKeys.signingKey();
    const publicKeyPem = (await planes.db.pool.query('SELECT public_key_pem FROM signing_keys WHERE kid = $1', [active.kid])).rows[0].public_key_pem;
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const raw = (text: string) => Buffer.from(text).toString('base64url');
    const foreignKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const sign = (overrides: object, options: jwt.SignOptions = {}, key: KeyObject = active.privateKey) =>
      jwt.sign({ ...timeless, ...overrides }, key, { algorithm: 'RS256', keyid: active.kid, ...options });

    wellFormed = sign({}, { expiresIn: 60 });
    bad.tampered = [header, b64({ ...claims, adm: true, sub: '00000000-0000-7000-8000-000000000000' }), signature].join('.');
    bad.alg_none = [b64({ alg: 'none', typ: 'JWT', kid: active.kid }), payload, ''].join('.');
    const hsHeader = b64({ alg: 'HS256', typ: 'JWT', kid: active.kid });
    bad.hs256 = `${hsHeader}.${payload}.${createHmac('sha256', publicKeyPem).update(`${hsHeader}.${payload}`).digest('base64url')}`;
    bad.unknown_kid = sign({}, { keyid: 'no-such-key', expiresIn: 60 }, foreignKey);
    bad.foreign_key = sign({}, { expiresIn: 60 }, foreignKey);
    bad.expired = sign({ exp: Math.floor(Date.now() / 1000) - 3600 });
    bad.wrong_audience = sign({ aud: 'someone-else' }, { expiresIn: 60 });
    bad.wrong_issuer = sign({ iss: 'someone-else' }, { expiresIn: 60 });
    bad.garbage = 'not.a.jwt';
    bad.empty_segments = '..';

    // Malformed shapes: each one is refused before any key is looked up or any signature checked.
    const rsHeader = (extra: object = {}) => b64({ alg: 'RS256', typ: 'JWT', kid: active.kid, ...extra });
    bad.payload_not_json = `${rsHeader()}.${raw('{"sub": not json')}.${signature}`;
    bad.payload_not_object = `${rsHeader()}.${b64([timeless])}.${signature}`;
    bad.payload_null = `${rsHeader()}.${b64(null)}.${signature}`;
    bad.header_not_json = `${raw('{"alg":"RS256",')}.${payload}.${signature}`;
    bad.header_not_object = `${b64('RS256')}.${payload}.${signature}`;
    bad.bad_base64 = `${header.slice(0, 8)}+/+/${header.slice(8)}.${payload}.${signature}`;
    bad.kid_number = `${b64({ alg: 'RS256', typ: 'JWT', kid: 5 })}.${payload}.${signature}`;
    bad.kid_object = `${b64({ alg: 'RS256', typ: 'JWT', kid: { $ne: null } })}.${payload}.${signature}`;
    bad.kid_too_long = `${rsHeader({ kid: 'k'.repeat(4096) })}.${payload}.${signature}`;
    bad.kid_nul = `${rsHeader({ kid: 'a\u0000b' })}.${payload}.${signature}`;
    bad.kid_lone_surrogate = `${raw(`{"alg":"RS256","typ":"JWT","kid":"\\ud800"}`)}.${payload}.${signature}`;
    bad.no_signature = `${header}.${payload}.`;
    bad.four_segments = `${header}.${payload}.${signature}.${signature}`;
    // Validly signed by the active key, with one flaw in the header or the size.
    bad.wrong_typ = sign({}, { expiresIn: 60, header: { alg: 'RS256', typ: 'dpop+jwt' } });
    bad.no_typ = sign({}, { expiresIn: 60, header: { alg: 'RS256', typ: undefined } });
    bad.crit_header = sign({}, { expiresIn: 60, header: { alg: 'RS256', crit: ['exp'] } as jwt.JwtHeader });
    bad.rs512 = sign({}, { expiresIn: 60, algorithm: 'RS512' });
    bad.oversized = sign({ pad: 'x'.repeat(10_000) }, { expiresIn: 60 });
  });
  afterAll(() => planes?.close());

  const routes = [
    { plane: 'read' as const, method: 'get' as const, path: '/api/v2/me' },
    { plane: 'read' as const, method: 'get' as const, path: '/api/v2/organization' },
    { plane: 'write' as const, method: 'post' as const, path: '/api/v2/organization/members', body: { email: 'x@example.com', role: 'member' } },
    { plane: 'admin' as const, method: 'get' as const, path: '/api/v2/admin/signing-keys' },
    { plane: 'sse' as const, method: 'get' as const, path: '/api/v2/events/diagnostics/echo-authenticated' },
  ];
  const kinds = [
    ...['tampered', 'alg_none', 'hs256', 'unknown_kid', 'foreign_key', 'expired', 'wrong_audience', 'wrong_issuer', 'garbage', 'empty_segments'],
    ...['payload_not_json', 'payload_not_object', 'payload_null', 'header_not_json', 'header_not_object', 'bad_base64'],
    ...['kid_number', 'kid_object', 'kid_too_long', 'kid_nul', 'kid_lone_surrogate', 'no_signature', 'four_segments', 'wrong_typ', 'no_typ', 'crit_header', 'rs512', 'oversized'],
  ];

  const call = (route: (typeof routes)[number], token: string) =>
    request(planes.app(route.plane))
      [route.method](route.path)
      .set('Authorization', `Bearer ${token}`)
      .set('X-Organization-ID', orgId)
      .send(route.body);

  it('accepts a token signed the same way with nothing wrong, so each bad one fails for its own flaw', async () => {
    for (const route of routes.filter((r) => r.method === 'get')) {
      const res = await call(route, wellFormed);
      expect({ route: route.path, status: res.status }).toEqual({ route: route.path, status: 200 });
    }
  });

  it.each(kinds)('refuses a %s token with a structured 401', async (kind) => {
    for (const route of routes) {
      const res = await call(route, bad[kind]);
      expect({ route: route.path, status: res.status }).toEqual({ route: route.path, status: 401 });
      expect(res.body).toMatchObject({ error_code: 'unauthenticated', category: 'auth', hint: expect.any(String), correlation_id: expect.any(String) });
    }
  });

  it('says an expired token expired, not that it is forged', async () => {
    const res = await call(routes[0], bad.expired).expect(401);
    expect(res.body).toMatchObject({ message: 'The access token has expired.', hint: expect.stringContaining('sign in again') });
  });

  // The callback plane authenticates a scanner by its per-(scan, tool) credential, not a JWT:
  // any access token there, good or bad, is an unknown credential.
  it.each([...kinds, 'well_formed'])('refuses a %s bearer JWT on the callback plane with a structured 401', async (kind) => {
    const res = await request(planes.app('callback'))
      .post(`/api/v2/callbacks/scans/${scanId}/tools/ext-scanner/outcome`)
      .set('Authorization', `Bearer ${kind === 'well_formed' ? wellFormed : bad[kind]}`)
      .send({ status: 'failed' });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error_code: 'invalid_callback_credential', category: 'auth', hint: expect.any(String), correlation_id: expect.any(String) });
  });
});

/** A scan of one external tool, made as POST /scans makes it, so the callback route has a real target. */
async function createExternalScan(planes: TTestPlanes, orgId: string): Promise<string> {
  const created = await planes.db.primary.$transaction((tx) =>
    createScanInTransaction(tx, {
      orgId,
      scanId: uuidv7(),
      target: { kind: 'other', name: `project-${randomSuffix()}` },
      tools: ['ext-scanner'],
      deadlineAt: new Date(Date.now() + 3600_000),
    }),
  );
  return created.scan.id;
}
