import request from 'supertest';
import { createOrganization, createUser, addMember, startTestPlanes, type TTestPlanes } from '@palisade/testing';
import { buildReadApi } from '../../read-api/src/app';
import { buildWriteApi } from '../src/app';

describe('password sessions (write and read planes in process)', () => {
  let planes: TTestPlanes;
  let org: { id: string };
  let user: { id: string; email: string; password: string };

  beforeAll(async () => {
    planes = await startTestPlanes({ write: buildWriteApi, read: buildReadApi });
    org = await createOrganization(planes.db);
    user = await createUser(planes.db, { password: 'correct horse battery staple' });
    await addMember(planes.db, org.id, user.id, 'member');
  });
  afterAll(() => planes?.close());

  const login = () =>
    request(planes.app('write')).post('/api/v2/auth/login').send({ email: user.email, password: user.password });

  it('signs in with email and password, returning a 15-minute RS256 token and a strict refresh cookie', async () => {
    const res = await login().expect(200);
    expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 900 });
    const header = JSON.parse(Buffer.from(res.body.access_token.split('.')[0], 'base64url').toString());
    expect(header).toMatchObject({ alg: 'RS256', kid: expect.any(String) });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^palisade_refresh=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/api\/v2\/auth/);
  });

  it('refuses a wrong password with the structured 401 body', async () => {
    const res = await request(planes.app('write'))
      .post('/api/v2/auth/login')
      .send({ email: user.email, password: 'wrong' })
      .expect(401);
    expect(res.body).toMatchObject({ error_code: 'invalid_credentials', category: 'auth', retryable: false, correlation_id: expect.any(String), hint: expect.any(String) });
  });

  it('refuses an unknown body field with a 422 naming it', async () => {
    const res = await request(planes.app('write'))
      .post('/api/v2/auth/login')
      .send({ email: user.email, password: user.password, remember_me: true })
      .expect(422);
    expect(res.body).toMatchObject({ error_code: 'validation_failed', field: 'body.remember_me' });
  });

  it('refuses a non-JSON body with 415 and malformed JSON with 400', async () => {
    await request(planes.app('write')).post('/api/v2/auth/login').set('Content-Type', 'text/plain').send('hello').expect(415);
    const res = await request(planes.app('write')).post('/api/v2/auth/login').set('Content-Type', 'application/json').send('{"email":').expect(400);
    expect(res.body.error_code).toBe('malformed_json');
  });

  it('rotates the refresh token, and re-use of a rotated one revokes the whole family', async () => {
    const first = (await login().expect(200)).headers['set-cookie'][0].split(';')[0];
    const rotated = await request(planes.app('write')).post('/api/v2/auth/refresh').set('Cookie', first).expect(200);
    const second = rotated.headers['set-cookie'][0].split(';')[0];
    expect(second).not.toEqual(first);
    expect(rotated.body.access_token).toEqual(expect.any(String));

    await request(planes.app('write')).post('/api/v2/auth/refresh').set('Cookie', first).expect(401);
    // The family is gone: even the legitimately rotated token no longer works.
    await request(planes.app('write')).post('/api/v2/auth/refresh').set('Cookie', second).expect(401);
  });

  it('logs out by revoking the session', async () => {
    const cookie = (await login().expect(200)).headers['set-cookie'][0].split(';')[0];
    await request(planes.app('write')).post('/api/v2/auth/logout').set('Cookie', cookie).expect(204);
    await request(planes.app('write')).post('/api/v2/auth/refresh').set('Cookie', cookie).expect(401);
  });

  it('tells the principal who it is on /me', async () => {
    const token = (await login().expect(200)).body.access_token;
    const res = await request(planes.app('read')).get('/api/v2/me').set('Authorization', `Bearer ${token}`).expect(200);
    expect(res.body.principal).toMatchObject({ kind: 'human', id: user.id, email: user.email });
    expect(res.body.memberships).toEqual([expect.objectContaining({ organization_id: org.id, role: 'member' })]);
  });

  it('resolves the tenant from membership and X-Organization-ID only', async () => {
    const token = (await login().expect(200)).body.access_token;
    const read = () => request(planes.app('read')).get('/api/v2/organization').set('Authorization', `Bearer ${token}`);

    const ok = await read().set('X-Organization-ID', org.id).expect(200);
    expect(ok.body).toMatchObject({ organization_id: org.id, role: 'member' });

    const missing = await read().expect(422);
    expect(missing.body.field).toBe('headers.x-organization-id');

    const foreign = await createOrganization(planes.db);
    const forbidden = await read().set('X-Organization-ID', foreign.id).expect(403);
    expect(forbidden.body).toMatchObject({ error_code: 'not_a_member', category: 'auth' });

    const viaQuery = await request(planes.app('read'))
      .get(`/api/v2/organization?org_id=${foreign.id}`)
      .set('Authorization', `Bearer ${token}`)
      .set('X-Organization-ID', org.id)
      .expect(422);
    expect(viaQuery.body.field).toBe('query.org_id');
  });

  it('answers 401 with the structured body for a missing, malformed or alg-none token', async () => {
    const noToken = await request(planes.app('read')).get('/api/v2/me').expect(401);
    expect(noToken.body).toMatchObject({ error_code: 'unauthenticated', category: 'auth' });
    await request(planes.app('read')).get('/api/v2/me').set('Authorization', 'Bearer nonsense').expect(401);
    const none = [
      Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url'),
      Buffer.from(JSON.stringify({ sub: user.id, pk: 'human', iss: 'palisade', aud: 'palisade-api' })).toString('base64url'),
      '',
    ].join('.');
    await request(planes.app('read')).get('/api/v2/me').set('Authorization', `Bearer ${none}`).expect(401);
  });

  it('publishes the signing key as a JWKS', async () => {
    const res = await request(planes.app('read')).get('/api/v2/auth/jwks.json').expect(200);
    expect(res.body.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.any(String) });
  });
});
