import jwt from 'jsonwebtoken';
import request from 'supertest';
import { createOrganization, createUser, startTestPlanes, type TTestPlanes } from '@palisade/testing';
import { makeRepositories } from '@palisade/db';
import { makeAuthKit } from '@palisade/platform';
import { buildReadApi } from '../../read-api/src/app';
import { buildWriteApi } from '../../write-api/src/app';
import { buildAdminApi } from '../src/app';

describe('the admin plane', () => {
  let planes: TTestPlanes;
  let adminToken: string;
  let memberToken: string;

  beforeAll(async () => {
    planes = await startTestPlanes({ write: buildWriteApi, read: buildReadApi, admin: buildAdminApi });
    const admin = await createUser(planes.db, { isPlatformAdmin: true });
    const member = await createUser(planes.db);
    const login = async (user: { email: string; password: string }) =>
      (await request(planes.app('write')).post('/api/v2/auth/login').send({ email: user.email, password: user.password }).expect(200)).body.access_token;
    adminToken = await login(admin);
    memberToken = await login(member);
  });
  afterAll(() => planes?.close());

  it('is closed to anyone but platform administrators', async () => {
    await request(planes.app('admin')).get('/api/v2/admin/signing-keys').expect(401);
    const res = await request(planes.app('admin')).get('/api/v2/admin/signing-keys').set('Authorization', `Bearer ${memberToken}`).expect(403);
    expect(res.body).toMatchObject({ error_code: 'forbidden', category: 'auth' });
  });

  it('rotates the signing key: new tokens use the new kid, old tokens stay valid, the JWKS publishes both', async () => {
    const oldKid = jwt.decode(memberToken, { complete: true })!.header.kid;
    const rotated = await request(planes.app('admin'))
      .post('/api/v2/admin/signing-keys/rotate')
      .set('Authorization', `Bearer ${adminToken}`)
      .send({})
      .expect(201);
    expect(rotated.body.active.kid).not.toBe(oldKid);
    expect(rotated.body.retiring).toEqual([expect.objectContaining({ kid: oldKid, status: 'retiring', retire_after: expect.any(String) })]);

    const jwks = await request(planes.app('read')).get('/api/v2/auth/jwks.json').expect(200);
    expect(jwks.body.keys.map((key: { kid: string }) => key.kid).sort()).toEqual([oldKid, rotated.body.active.kid].sort());

    // A fresh signing service, as a process started after the rotation would have.
    const issued = await makeFreshIssuer(planes).issue({ kind: 'human', id: rotated.body.active.kid, isPlatformAdmin: false });
    expect(jwt.decode(issued.token, { complete: true })!.header.kid).toBe(rotated.body.active.kid);

    await request(planes.app('read')).get('/api/v2/me').set('Authorization', `Bearer ${memberToken}`).expect(200);

    const audit = await makeRepositories(planes.db.primary).audit.list(null, { limit: 1000 });
    expect(audit.map((row) => row.action)).toContain('signing_key.rotated');
  });

  it('lists organizations across tenants with keyset pages', async () => {
    for (let i = 0; i < 3; i++) await createOrganization(planes.db);
    const first = await request(planes.app('admin')).get('/api/v2/admin/organizations?limit=2').set('Authorization', `Bearer ${adminToken}`).expect(200);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await request(planes.app('admin'))
      .get(`/api/v2/admin/organizations?limit=2&cursor=${first.body.next_cursor}`)
      .set('Authorization', `Bearer ${adminToken}`)
      .expect(200);
    const ids = [...first.body.items, ...second.body.items].map((org: { organization_id: string }) => org.organization_id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sets an organization quota and audits it in that tenant’s chain', async () => {
    const org = await createOrganization(planes.db);
    const res = await request(planes.app('admin'))
      .put(`/api/v2/admin/organizations/${org.id}/quota`)
      .set('Authorization', `Bearer ${adminToken}`)
      .send({ requests_per_minute: 5, burst: 0 })
      .expect(200);
    expect(res.body.quota).toEqual({ requests_per_minute: 5, burst: 0, source: 'custom' });
    const audit = await makeRepositories(planes.db.primary).audit.list(org.id);
    expect(audit.map((row) => row.action)).toEqual(['quota.updated']);
  });

  it('refuses a bad quota and an unknown organization', async () => {
    const org = await createOrganization(planes.db);
    const bad = await request(planes.app('admin'))
      .put(`/api/v2/admin/organizations/${org.id}/quota`)
      .set('Authorization', `Bearer ${adminToken}`)
      .send({ requests_per_minute: 0, burst: 1 })
      .expect(422);
    expect(bad.body.field).toBe('body.requests_per_minute');
    await request(planes.app('admin'))
      .put('/api/v2/admin/organizations/0190d6a2-6a86-7c3e-9d0a-3f4b2c1d0e9f/quota')
      .set('Authorization', `Bearer ${adminToken}`)
      .send({ requests_per_minute: 5, burst: 1 })
      .expect(404);
  });
});

function makeFreshIssuer(planes: TTestPlanes) {
  const repos = makeRepositories(planes.db.primary);
  return makeAuthKit({ keys: repos.signingKeys, memberships: repos.memberships, kek: Buffer.from(planes.env.KEY_ENCRYPTION_KEY, 'base64') }).accessTokens;
}
