import request from 'supertest';
import { makeAuditLogRepo } from '@palisade/db';
import { SERVICE_ACCOUNT_CACHE_MS } from '@palisade/platform';
import { addMember, createOrganization, createUser, startTestPlanes, type TTestPlanes } from '@palisade/testing';
import { buildReadApi } from '../../read-api/src/app';
import { buildWriteApi } from '../src/app';

const ACCOUNTS = '/api/v2/service-accounts';

describe('service accounts (write and read planes in process)', () => {
  let planes: TTestPlanes;
  let orgA: { id: string };
  let orgB: { id: string };
  let adminA: string;
  let ownerB: string;
  let memberA: string;

  const write = () => request(planes.app('write'));
  const read = () => request(planes.app('read'));
  const humanToken = async (id: string) =>
    (await planes.plane('write').runtime.auth.accessTokens.issue({ kind: 'human', id, isPlatformAdmin: false })).token;
  const create = (token: string, orgId: string, body: Record<string, unknown>) =>
    write().post(ACCOUNTS).set('Authorization', `Bearer ${token}`).set('X-Organization-ID', orgId).send(body);
  const list = (token: string, orgId: string) => read().get(ACCOUNTS).set('Authorization', `Bearer ${token}`).set('X-Organization-ID', orgId);

  beforeAll(async () => {
    planes = await startTestPlanes({ write: buildWriteApi, read: buildReadApi });
    [orgA, orgB] = await Promise.all([createOrganization(planes.db), createOrganization(planes.db)]);
    const [a, b, m] = await Promise.all([createUser(planes.db), createUser(planes.db), createUser(planes.db)]);
    await Promise.all([addMember(planes.db, orgA, a, 'admin'), addMember(planes.db, orgB, b, 'owner'), addMember(planes.db, orgA, m, 'member')]);
    [adminA, ownerB, memberA] = await Promise.all([humanToken(a.id), humanToken(b.id), humanToken(m.id)]);
  });
  afterAll(() => planes?.close());

  it('lives through create (token shown once), use, list (token hidden) and revoke (then 401)', async () => {
    const created = await create(adminA, orgA.id, { name: 'nightly export', scopes: ['org:read', 'scans:create'] }).expect(201);
    expect(created.headers['cache-control']).toBe('no-store');
    expect(created.body).toEqual({
      service_account_id: expect.any(String),
      name: 'nightly export',
      scopes: ['org:read', 'scans:create'],
      token: expect.stringMatching(/^psa_[A-Za-z0-9_-]{43}$/),
      token_hint: created.body.token.slice(0, 8),
      created_at: expect.any(String),
    });
    const { token, service_account_id: id } = created.body;

    // Used as a bearer on any plane, in its own organization, within its scopes.
    const org = await read().get('/api/v2/organization').set('Authorization', `Bearer ${token}`).set('X-Organization-ID', orgA.id).expect(200);
    expect(org.body).toMatchObject({ organization_id: orgA.id, role: null });
    const outside = await list(token, orgA.id).expect(403);
    expect(outside.body).toMatchObject({ error_code: 'forbidden', message: 'This action needs the service_accounts:manage permission.' });
    const foreign = await read().get('/api/v2/organization').set('Authorization', `Bearer ${token}`).set('X-Organization-ID', orgB.id).expect(403);
    expect(foreign.body.error_code).toBe('not_a_member');

    const listed = await list(adminA, orgA.id).expect(200);
    expect(listed.body.items).toEqual([{ service_account_id: id, name: 'nightly export', scopes: ['org:read', 'scans:create'], token_hint: created.body.token_hint, created_at: created.body.created_at }]);
    expect(JSON.stringify(listed.body)).not.toContain(token);

    await write().delete(`${ACCOUNTS}/${id}`).set('Authorization', `Bearer ${adminA}`).set('X-Organization-ID', orgA.id).expect(204);
    expect((await list(adminA, orgA.id).expect(200)).body.items).toEqual([]);
    await write().delete(`${ACCOUNTS}/${id}`).set('Authorization', `Bearer ${adminA}`).set('X-Organization-ID', orgA.id).expect(404);

    // Revocation reaches every plane within the authentication cache bound.
    const deadline = Date.now() + SERVICE_ACCOUNT_CACHE_MS + 2_000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (await read().get('/api/v2/organization').set('Authorization', `Bearer ${token}`).set('X-Organization-ID', orgA.id)).status;
      if (status === 401) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(401);
    const refused = await read().get('/api/v2/organization').set('Authorization', `Bearer ${token}`).set('X-Organization-ID', orgA.id).expect(401);
    expect(refused.body).toMatchObject({ error_code: 'unauthenticated', category: 'auth', message: 'The service-account token is unknown or revoked.' });
  }, 20_000);

  it('refuses an unknown or malformed psa_ token with 401', async () => {
    for (const token of [`psa_${'A'.repeat(43)}`, 'psa_short']) {
      const res = await read().get('/api/v2/organization').set('Authorization', `Bearer ${token}`).set('X-Organization-ID', orgA.id).expect(401);
      expect(res.body.hint).toMatch(/service-accounts/);
    }
  });

  it('refuses human-only and credential-minting scopes with 422 naming them', async () => {
    const res = await create(adminA, orgA.id, { name: 'x', scopes: ['scans:read', 'findings:disposition', 'service_accounts:manage'] }).expect(422);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['body.scopes.1', 'body.scopes.2']);
    await create(adminA, orgA.id, { name: 'x', scopes: [] }).expect(422);
    await create(adminA, orgA.id, { name: 'x', scopes: ['scans:read'], token: 'mine' }).expect(422);
  });

  it('is for administrators only: a member is 403, and so is a service account', async () => {
    await create(memberA, orgA.id, { name: 'x', scopes: ['scans:read'] }).expect(403);
    await list(memberA, orgA.id).expect(403);
    const sa = (await create(adminA, orgA.id, { name: 'ci', scopes: ['scans:create'] }).expect(201)).body.token;
    await create(sa, orgA.id, { name: 'escalate', scopes: ['scans:create'] }).expect(403);
  });

  it("hides another organization's accounts: listing shows none, revoking is 404", async () => {
    const created = await create(adminA, orgA.id, { name: 'private', scopes: ['scans:read'] }).expect(201);
    const listed = await list(ownerB, orgB.id).expect(200);
    expect(listed.body.items).toEqual([]);
    const res = await write().delete(`${ACCOUNTS}/${created.body.service_account_id}`).set('Authorization', `Bearer ${ownerB}`).set('X-Organization-ID', orgB.id).expect(404);
    expect(res.body.error_code).toBe('not_found');
    // Still alive in its own organization.
    await write().delete(`${ACCOUNTS}/${created.body.service_account_id}`).set('Authorization', `Bearer ${adminA}`).set('X-Organization-ID', orgA.id).expect(204);
  });

  it('audits creation and revocation without the token', async () => {
    const auditRepo = makeAuditLogRepo(planes.db.primary);
    const before = (await auditRepo.list(orgA.id, { limit: 1000 })).length;
    const created = await create(adminA, orgA.id, { name: 'audited', scopes: ['scans:read'] }).expect(201);
    await write().delete(`${ACCOUNTS}/${created.body.service_account_id}`).set('Authorization', `Bearer ${adminA}`).set('X-Organization-ID', orgA.id).expect(204);
    const rows = (await auditRepo.list(orgA.id, { limit: 1000 })).slice(before);
    expect(rows.map((r) => [r.action, r.targetId])).toEqual([
      ['service_account.created', created.body.service_account_id],
      ['service_account.revoked', created.body.service_account_id],
    ]);
    expect(JSON.stringify(rows.map((r) => r.data))).not.toContain(created.body.token);
    await expect(auditRepo.verifyAuditChain(orgA.id)).resolves.toMatchObject({ ok: true });
  });
});
