import jwt from 'jsonwebtoken';
import request from 'supertest';
import { addMember, createOrganization, createUser, startTestPlanes, type TTestPlanes } from '@palisade/testing';
import { makeRepositories } from '@palisade/db';
import { ACCESS_TOKEN_TTL_SECONDS, decryptWithKek, KEY_STATE_TTL_MS } from '@palisade/platform';
import { buildReadApi } from '../../read-api/src/app';
import { buildWriteApi } from '../../write-api/src/app';
import { buildAdminApi } from '../src/app';

describe('the admin plane', () => {
  let planes: TTestPlanes;
  let adminToken: string;
  let memberToken: string;
  let member: { email: string; password: string };

  beforeAll(async () => {
    planes = await startTestPlanes({ write: buildWriteApi, read: buildReadApi, admin: buildAdminApi });
    const admin = await createUser(planes.db, { isPlatformAdmin: true });
    member = await createUser(planes.db);
    adminToken = await login(admin);
    memberToken = await login(member);
  });
  afterAll(() => planes?.close());

  /** A sign-in on the running write plane: tokens come from the same process before and after a rotation. */
  async function login(user: { email: string; password: string }): Promise<string> {
    const res = await request(planes.app('write')).post('/api/v2/auth/login').send({ email: user.email, password: user.password }).expect(200);
    return res.body.access_token;
  }

  async function rotate() {
    const res = await request(planes.app('admin')).post('/api/v2/admin/signing-keys/rotate').set('Authorization', `Bearer ${adminToken}`).send({});
    expect(res.status).toBe(201);
    return res.body;
  }

  it('is closed to anyone but platform administrators', async () => {
    await request(planes.app('admin')).get('/api/v2/admin/signing-keys').expect(401);
    const res = await request(planes.app('admin')).get('/api/v2/admin/signing-keys').set('Authorization', `Bearer ${memberToken}`).expect(403);
    expect(res.body).toMatchObject({ error_code: 'forbidden', category: 'auth', hint: expect.stringContaining('platform administrator') });
  });

  it('rotates the signing key: the running write plane signs with the new kid at once, the JWKS publishes both', async () => {
    const oldKid = kidOf(memberToken);
    const rotated = await rotate();
    expect(rotated.active.kid).not.toBe(oldKid);
    expect(rotated.retiring).toEqual([expect.objectContaining({ kid: oldKid, status: 'retiring', retire_after: expect.any(String) })]);

    // The write plane that signed memberToken is the one asked here: no restart, no cache to wait out.
    expect(kidOf(await login(member))).toBe(rotated.active.kid);

    const jwks = await request(planes.app('read')).get('/api/v2/auth/jwks.json').expect(200);
    expect(jwks.body.keys.map((key: { kid: string }) => key.kid).sort()).toEqual([oldKid, rotated.active.kid].sort());

    const audit = await makeRepositories(planes.db.primary).audit.list(null, { limit: 1000 });
    expect(audit.map((row) => row.action)).toContain('signing_key.rotated');
  });

  it('accepts a token of the rotated-out kid until its retire_after, then refuses it on every plane and drops it from the JWKS', async () => {
    const token = await login(member);
    const oldKid = kidOf(token);
    await request(planes.app('read')).get('/api/v2/me').set('Authorization', `Bearer ${token}`).expect(200);

    const rotated = await rotate();
    const retireAfter = Date.parse(rotated.retiring.find((key: { kid: string }) => key.kid === oldKid).retire_after);
    expect(retireAfter - Date.now()).toBeGreaterThan(ACCESS_TOKEN_TTL_SECONDS * 1000);
    await request(planes.app('read')).get('/api/v2/me').set('Authorization', `Bearer ${token}`).expect(200);

    await planes.db.pool.query(`UPDATE signing_keys SET retire_after = now() - interval '1 second' WHERE kid = $1`, [oldKid]);
    await withClockAhead(KEY_STATE_TTL_MS, async () => {
      const refused = await request(planes.app('read')).get('/api/v2/me').set('Authorization', `Bearer ${token}`).expect(401);
      expect(refused.body).toMatchObject({ error_code: 'unauthenticated', message: expect.stringContaining('retired') });
      await request(planes.app('write')).post('/api/v2/organization/members').set('Authorization', `Bearer ${token}`).send({}).expect(401);
      const jwks = await request(planes.app('read')).get('/api/v2/auth/jwks.json').expect(200);
      expect(jwks.body.keys.map((key: { kid: string }) => key.kid)).not.toContain(oldKid);
    });
  });

  it('refuses a token of a key retired before its retire_after', async () => {
    const token = await login(member);
    const oldKid = kidOf(token);
    await request(planes.app('read')).get('/api/v2/me').set('Authorization', `Bearer ${token}`).expect(200);
    await rotate();
    await planes.db.pool.query(`UPDATE signing_keys SET status = 'retired' WHERE kid = $1`, [oldKid]);
    await withClockAhead(KEY_STATE_TTL_MS, async () => {
      await request(planes.app('read')).get('/api/v2/me').set('Authorization', `Bearer ${token}`).expect(401);
    });
  });

  it('leaves exactly one active key after concurrent rotations', async () => {
    const results = await Promise.all([rotate(), rotate(), rotate()]);
    const { rows } = await planes.db.pool.query(`SELECT kid FROM signing_keys WHERE status = 'active'`);
    expect(rows).toHaveLength(1);
    expect(results.map((result) => result.active.kid)).toContain(rows[0].kid);
    // Each rotation retired the key the previous one made active: nothing was skipped or forked.
    const audit = await makeRepositories(planes.db.primary).audit.list(null, { limit: 1000 });
    const rotations = audit.filter((row) => row.action === 'signing_key.rotated').slice(-3);
    const previous = rotations.map((row) => (row.data as { previous_kid: string }).previous_kid);
    expect(previous.slice(1)).toEqual(rotations.slice(0, 2).map((row) => row.targetId));
  });

  it('stores private keys sealed by the key-encryption key, never as plaintext PEM', async () => {
    await rotate();
    const { rows } = await planes.db.pool.query<{ kid: string; private_key_encrypted: Buffer }>('SELECT kid, private_key_encrypted FROM signing_keys');
    expect(rows.length).toBeGreaterThan(1);
    const kek = Buffer.from(planes.env.KEY_ENCRYPTION_KEY, 'base64');
    for (const row of rows) {
      const stored = row.private_key_encrypted.toString('utf8');
      expect(stored).not.toMatch(/PRIVATE KEY|-----BEGIN/);
      expect(stored).toMatch(/^v1\./);
      expect(decryptWithKek(kek, stored)).toContain('-----BEGIN PRIVATE KEY-----');
    }
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

  it('sets a quota that the write plane then enforces for that organization', async () => {
    const org = await createOrganization(planes.db);
    const user = await createUser(planes.db);
    await addMember(planes.db, org.id, user.id, 'member');
    await request(planes.app('admin'))
      .put(`/api/v2/admin/organizations/${org.id}/quota`)
      .set('Authorization', `Bearer ${adminToken}`)
      .send({ requests_per_minute: 2, burst: 0 })
      .expect(200);
    const headers = { Authorization: `Bearer ${await login(user)}`, 'X-Organization-ID': org.id };
    const createScan = () => request(planes.app('write')).post('/api/v2/scans').set(headers).send({ target: { kind: 'image', reference: 'registry.example/q:1' }, tools: ['trivy-ext'] });
    await createScan().expect(201);
    await createScan().expect(201);
    const refused = await createScan().expect(429);
    expect(refused.body).toMatchObject({ error_code: 'rate_limited', retryable: true });
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

function kidOf(token: string): string | undefined {
  return jwt.decode(token, { complete: true })?.header.kid;
}

/**
 * Runs `work` with every clock read through Date.now moved ahead, as if that much time had
 * passed: how the verifiers' key-state cache is made to expire without sleeping.
 */
async function withClockAhead(ms: number, work: () => Promise<void>): Promise<void> {
  const realNow = Date.now.bind(Date);
  const spy = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + ms);
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
}
