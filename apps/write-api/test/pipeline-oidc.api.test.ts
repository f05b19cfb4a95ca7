import { createHmac } from 'node:crypto';
import request from 'supertest';
import { makeAuditLogRepo } from '@palisade/db';
import { addMember, createOrganization, createUser, startTestPlanes, type TTestPlanes } from '@palisade/testing';
import { buildReadApi } from '../../read-api/src/app';
import { buildWriteApi } from '../src/app';
import { newIssuerKey, startLocalOidcIssuer, unsignedToken, type TLocalIssuer } from './support/local-oidc-issuer';

const AUDIENCE = 'https://palisade.test/acme';
const SUBJECT = 'repo:acme/api:ref:refs/heads/main';
const PATTERN = 'repo:acme/*:ref:refs/heads/main';
const EXCHANGE = '/api/v2/ci/pipeline/token-oidc';
const POLICIES = '/api/v2/ci/pipeline/trust-policies';

describe('pipeline OIDC exchange (local issuer, write and read planes in process)', () => {
  let planes: TTestPlanes;
  let issuer: TLocalIssuer;
  let orgA: { id: string };
  let orgB: { id: string };
  let ownerA: string;
  let ownerB: string;
  let memberA: string;

  const write = () => request(planes.app('write'));
  const read = () => request(planes.app('read'));
  const humanToken = async (id: string) =>
    (await planes.plane('write').runtime.auth.accessTokens.issue({ kind: 'human', id, isPlatformAdmin: false })).token;
  const policyBody = (overrides: Record<string, unknown> = {}) => ({
    name: 'GitHub Actions main',
    issuer: issuer.issuer,
    audience: AUDIENCE,
    jwks_uri: issuer.jwksUri,
    subject_pattern: PATTERN,
    claims: { repository_owner: 'acme' },
    scopes: ['scans:create', 'gate:evaluate', 'org:read'],
    ...overrides,
  });
  const createPolicy = (token: string, orgId: string, body: Record<string, unknown>) =>
    write().post(POLICIES).set('Authorization', `Bearer ${token}`).set('X-Organization-ID', orgId).send(body);
  const exchange = (body: Record<string, unknown>) => write().post(EXCHANGE).send(body);
  const sign = (options: Parameters<TLocalIssuer['sign']>[0] = {}) =>
    issuer.sign({ ...options, claims: { repository_owner: 'acme', ...options.claims } });

  beforeAll(async () => {
    planes = await startTestPlanes({ write: buildWriteApi, read: buildReadApi });
    issuer = await startLocalOidcIssuer({ audience: AUDIENCE, subject: SUBJECT });
    [orgA, orgB] = await Promise.all([createOrganization(planes.db), createOrganization(planes.db)]);
    const [a, b, m] = await Promise.all([createUser(planes.db), createUser(planes.db), createUser(planes.db)]);
    await Promise.all([addMember(planes.db, orgA, a, 'owner'), addMember(planes.db, orgB, b, 'owner'), addMember(planes.db, orgA, m, 'member')]);
    [ownerA, ownerB, memberA] = await Promise.all([humanToken(a.id), humanToken(b.id), humanToken(m.id)]);
    await createPolicy(ownerA, orgA.id, policyBody()).expect(201);
  });
  afterAll(async () => {
    await issuer?.close();
    await planes?.close();
  });

  describe('trust policies', () => {
    it('registers a policy (201) and lists it on the read plane', async () => {
      const created = await createPolicy(ownerA, orgA.id, policyBody({ name: 'second', scopes: undefined })).expect(201);
      expect(created.body).toEqual({
        trust_policy_id: expect.any(String),
        name: 'second',
        issuer: issuer.issuer,
        audience: AUDIENCE,
        jwks_uri: issuer.jwksUri,
        subject_pattern: PATTERN,
        claims: { repository_owner: 'acme' },
        scopes: ['scans:create', 'gate:evaluate'],
        created_at: expect.any(String),
      });
      const list = await read().get(POLICIES).set('Authorization', `Bearer ${ownerA}`).set('X-Organization-ID', orgA.id).expect(200);
      expect(list.body.items.map((p: { name: string }) => p.name)).toEqual(['second', 'GitHub Actions main']);
      const page = await read().get(`${POLICIES}?limit=1`).set('Authorization', `Bearer ${ownerA}`).set('X-Organization-ID', orgA.id).expect(200);
      expect(page.body.next_cursor).toEqual(expect.any(String));
      const next = await read()
        .get(`${POLICIES}?limit=1&cursor=${page.body.next_cursor}`)
        .set('Authorization', `Bearer ${ownerA}`)
        .set('X-Organization-ID', orgA.id)
        .expect(200);
      expect(next.body.items[0].name).toBe('GitHub Actions main');
      await write().delete(`${POLICIES}/${created.body.trust_policy_id}`).set('Authorization', `Bearer ${ownerA}`).set('X-Organization-ID', orgA.id).expect(204);
    });

    it('refuses a plain-http non-loopback issuer, a wildcard-only subject, a human-only scope and a reserved claim, naming each field', async () => {
      const res = await createPolicy(
        ownerA,
        orgA.id,
        policyBody({ issuer: 'http://issuer.example', subject_pattern: '**', scopes: ['findings:disposition'], claims: { aud: 'x' } }),
      ).expect(422);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['body.issuer', 'body.subject_pattern', 'body.claims.aud', 'body.scopes.0']);
      expect(res.body).toMatchObject({ error_code: 'validation_failed', field: 'body.issuer' });
      await createPolicy(ownerA, orgA.id, { ...policyBody(), extra: 1 }).expect(422);
    });

    it('is for administrators only: a member is 403', async () => {
      const res = await createPolicy(memberA, orgA.id, policyBody()).expect(403);
      expect(res.body.error_code).toBe('forbidden');
      await read().get(POLICIES).set('Authorization', `Bearer ${memberA}`).set('X-Organization-ID', orgA.id).expect(403);
    });

    it("hides another organization's policy: listing shows none, deleting is 404", async () => {
      const created = await createPolicy(ownerA, orgA.id, policyBody({ name: 'private' })).expect(201);
      const list = await read().get(POLICIES).set('Authorization', `Bearer ${ownerB}`).set('X-Organization-ID', orgB.id).expect(200);
      expect(list.body.items).toEqual([]);
      const res = await write().delete(`${POLICIES}/${created.body.trust_policy_id}`).set('Authorization', `Bearer ${ownerB}`).set('X-Organization-ID', orgB.id).expect(404);
      expect(res.body.error_code).toBe('not_found');
      await write().delete(`${POLICIES}/${created.body.trust_policy_id}`).set('Authorization', `Bearer ${ownerA}`).set('X-Organization-ID', orgA.id).expect(204);
    });
  });

  describe('exchange', () => {
    it('exchanges a valid token for a 15-minute pipeline token carrying only the policy scopes', async () => {
      const res = await exchange({ token: await sign() }).expect(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 900,
        organization_id: orgA.id,
        scopes: ['scans:create', 'gate:evaluate', 'org:read'],
      });
      const pipeline = res.body.access_token;
      // In scope: org:read.
      const org = await read().get('/api/v2/organization').set('Authorization', `Bearer ${pipeline}`).set('X-Organization-ID', orgA.id).expect(200);
      expect(org.body).toMatchObject({ organization_id: orgA.id, role: null });
      // Outside its scopes: 403.
      const denied = await read().get(POLICIES).set('Authorization', `Bearer ${pipeline}`).set('X-Organization-ID', orgA.id).expect(403);
      expect(denied.body).toMatchObject({ error_code: 'forbidden', message: 'This action needs the pipeline_trust:manage permission.' });
      // Another tenant: 403, whatever its scopes.
      const foreign = await read().get('/api/v2/organization').set('Authorization', `Bearer ${pipeline}`).set('X-Organization-ID', orgB.id).expect(403);
      expect(foreign.body.error_code).toBe('not_a_member');
      // Tokens it could use to mint more credentials are out of reach too.
      await write().post(POLICIES).set('Authorization', `Bearer ${pipeline}`).set('X-Organization-ID', orgA.id).send(policyBody()).expect(403);
    });

    it('refuses a token for another audience with 401', async () => {
      const res = await exchange({ token: await sign({ audience: 'https://someone-else.example' }) }).expect(401);
      expectRefusal(res.body, 'The token was issued for another audience.', /audience/);
    });

    it('refuses an expired token with 401 (beyond the 30 s skew), but accepts one expired within the skew', async () => {
      const res = await exchange({ token: await sign({ expiresIn: -120 }) }).expect(401);
      expectRefusal(res.body, 'The token has expired.', /new OIDC token/);
      await exchange({ token: await sign({ expiresIn: -10 }) }).expect(200);
      await exchange({ token: await sign({ notBefore: 120 }) }).expect(401);
    });

    it('refuses a token of an issuer no organization trusts with 401', async () => {
      const res = await exchange({ token: await sign({ issuer: 'https://unknown-issuer.example' }) }).expect(401);
      expectRefusal(res.body, 'No organization trusts the issuer of this token.', /trust-policies/);
    });

    it('refuses a token signed by another key with 401, under the issuer kid or an unknown one', async () => {
      const foreign = await newIssuerKey();
      const sameKid = await exchange({ token: await sign({ key: foreign.privateKey }) }).expect(401);
      expectRefusal(sameKid.body, "The token signature does not verify against the issuer's published keys.", /modified or re-signed/);
      const otherKid = await exchange({ token: await sign({ key: foreign.privateKey, kid: foreign.kid }) }).expect(401);
      expectRefusal(otherKid.body, 'The token is signed with a key the issuer does not publish.', /rotated/);
    });

    it('refuses a subject outside the pattern, and a claim that differs from the policy, with 401', async () => {
      const branch = await exchange({ token: await sign({ subject: 'repo:acme/api:ref:refs/heads/dev' }) }).expect(401);
      expectRefusal(branch.body, 'The token subject is outside every trust policy of this issuer.', /subject_pattern/);
      const owner = await exchange({ token: await sign({ claims: { repository_owner: 'evil' } }) }).expect(401);
      expect(owner.body.message).toMatch(/claim repository_owner/);
    });

    it('answers garbage, alg none, HS256 and claim-less tokens with 401, never 500', async () => {
      const payload = { iss: issuer.issuer, aud: AUDIENCE, sub: SUBJECT, exp: Math.floor(Date.now() / 1000) + 300, repository_owner: 'acme' };
      const hs256Header = { alg: 'HS256', typ: 'JWT', kid: issuer.current().kid };
      const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
      const hs256Sig = createHmac('sha256', JSON.stringify(issuer.current().publicJwk)).update(`${part(hs256Header)}.${part(payload)}`).digest('base64url');
      const cases: [string, RegExp][] = [
        ['not-a-jwt', /not a signed JWT/],
        ['a.b.c', /not a signed JWT/],
        ['a.b.c.d.e', /not a signed JWT/],
        [unsignedToken({ alg: 'none', typ: 'JWT' }, payload), /asymmetric algorithm/],
        [unsignedToken(hs256Header, payload, hs256Sig), /asymmetric algorithm/],
        [unsignedToken({ alg: 'RS256', kid: issuer.current().kid }, payload, 'AAAA'), /signature does not verify/],
        [unsignedToken({ alg: 'RS256' }, { sub: SUBJECT }, 'AAAA'), /No organization trusts/],
        [await sign({ omitExp: true }), /lacks a claim/],
      ];
      for (const [token, message] of cases) {
        const res = await exchange({ token });
        expect({ token, status: res.status }).toEqual({ token, status: 401 });
        expect(res.body.message).toMatch(message);
      }
      await exchange({}).expect(422);
      await exchange({ token: 'x', scope: 'all' }).expect(422);
      await exchange({ token: 'x'.repeat(20_000) }).expect(422);
    });

    it('answers 503 (retryable, Retry-After) when the issuer JWKS is unreachable', async () => {
      const down = await startLocalOidcIssuer({ audience: AUDIENCE, subject: SUBJECT });
      await createPolicy(ownerA, orgA.id, policyBody({ issuer: down.issuer, jwks_uri: down.jwksUri, claims: {} })).expect(201);
      const token = await down.sign();
      await down.close();
      const res = await exchange({ token }).expect(503);
      expect(res.body).toMatchObject({ error_code: 'issuer_unavailable', category: 'network', retryable: true });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('asks for organization_id when several organizations trust the issuer, and honours it', async () => {
      const shared = await startLocalOidcIssuer({ audience: AUDIENCE, subject: SUBJECT });
      try {
        await createPolicy(ownerA, orgA.id, policyBody({ issuer: shared.issuer, jwks_uri: shared.jwksUri, claims: {}, scopes: ['org:read'] })).expect(201);
        await createPolicy(ownerB, orgB.id, policyBody({ issuer: shared.issuer, jwks_uri: shared.jwksUri, claims: {}, scopes: ['scans:read'] })).expect(201);
        const token = await shared.sign();
        const ambiguous = await exchange({ token }).expect(422);
        expect(ambiguous.body).toMatchObject({ error_code: 'validation_failed', field: 'body.organization_id' });
        const picked = await exchange({ token, organization_id: orgB.id }).expect(200);
        expect(picked.body).toMatchObject({ organization_id: orgB.id, scopes: ['scans:read'] });
        const elsewhere = await exchange({ token, organization_id: '0190d6a2-6a86-7c3e-9d0a-3f4b2c1d0e9f' }).expect(401);
        expect(elsewhere.body.message).toMatch(/named organization has no trust policy/);
      } finally {
        await shared.close();
      }
    });

    it('stops exchanging once the policy is deleted', async () => {
      const solo = await startLocalOidcIssuer({ audience: AUDIENCE, subject: SUBJECT });
      try {
        const created = await createPolicy(ownerB, orgB.id, policyBody({ issuer: solo.issuer, jwks_uri: solo.jwksUri, claims: {} })).expect(201);
        await exchange({ token: await solo.sign() }).expect(200);
        await write().delete(`${POLICIES}/${created.body.trust_policy_id}`).set('Authorization', `Bearer ${ownerB}`).set('X-Organization-ID', orgB.id).expect(204);
        await exchange({ token: await solo.sign() }).expect(401);
      } finally {
        await solo.close();
      }
    });

    it('writes every exchange, issued or refused, to the hash-chained audit log', async () => {
      const auditRepo = makeAuditLogRepo(planes.db.primary);
      const before = (await auditRepo.list(orgA.id, { limit: 1000 })).length;
      await exchange({ token: await sign() }).expect(200);
      await exchange({ token: await sign({ audience: 'wrong' }) }).expect(401);
      const rows = (await auditRepo.list(orgA.id, { limit: 1000 })).slice(before);
      expect(rows.map((r) => [r.action, r.actorType, r.actorId])).toEqual([
        ['pipeline.token_exchanged', 'pipeline', SUBJECT],
        ['pipeline.token_exchange_refused', 'pipeline', SUBJECT],
      ]);
      expect(rows[0].data).toMatchObject({ outcome: 'issued', token_id: expect.any(String), scopes: ['scans:create', 'gate:evaluate', 'org:read'] });
      expect(rows[1].data).toMatchObject({ outcome: 'refused', reason: 'audience_mismatch' });
      await expect(auditRepo.verifyAuditChain(orgA.id)).resolves.toMatchObject({ ok: true });
      // A token no organization trusts is recorded on the platform chain.
      const platformBefore = (await auditRepo.list(null, { limit: 1000 })).length;
      await exchange({ token: 'garbage' }).expect(401);
      const platformRows = (await auditRepo.list(null, { limit: 1000 })).slice(platformBefore);
      expect(platformRows.map((r) => r.action)).toContain('pipeline.token_exchange_refused');
    });
  });
});

function expectRefusal(body: Record<string, unknown>, message: string, hint: RegExp): void {
  expect(body).toMatchObject({ error_code: 'invalid_pipeline_token', category: 'auth', retryable: false, message, correlation_id: expect.any(String) });
  expect(body.hint).toMatch(hint);
}
