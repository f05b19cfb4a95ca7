import request from 'supertest';
import { MAX_POLICY_CLAIMS, MAX_TARGET_ATTRIBUTES } from '@palisade/contracts';
import { addMember, createOrganization, createUser, startTestPlanes, type TTestPlanes } from '@palisade/testing';
import { buildWriteApi } from '../src/app';

const entries = (count: number, value: (i: number) => unknown = (i) => `v${i}`) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, value(i)]));

// Maps a client fills with keys of its choosing: capped in entries, key and value length.
describe('map-typed request fields', () => {
  let planes: TTestPlanes;
  let headers: Record<string, string>;

  beforeAll(async () => {
    planes = await startTestPlanes({ write: buildWriteApi });
    const org = await createOrganization(planes.db);
    const user = await createUser(planes.db);
    await addMember(planes.db, org, user, 'owner');
    const { token } = await planes.plane('write').runtime.auth.accessTokens.issue({ kind: 'human', id: user.id, isPlatformAdmin: false });
    headers = { Authorization: `Bearer ${token}`, 'X-Organization-ID': org.id };
  });
  afterAll(() => planes?.close());

  const refused = (res: request.Response, field: string) => {
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error_code: 'validation_failed', category: 'config', retryable: false, correlation_id: expect.any(String), hint: expect.any(String) });
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  };

  describe('scan target attributes', () => {
    const scan = (attributes: Record<string, unknown>) =>
      request(planes.app('write')).post('/api/v2/scans').set(headers).send({ target: { kind: 'other', name: 'thing', attributes }, tools: ['custom-tool'] });

    it(`accepts ${MAX_TARGET_ATTRIBUTES} attributes`, async () => {
      const res = await scan(entries(MAX_TARGET_ATTRIBUTES)).expect(201);
      expect(Object.keys(res.body.target.attributes)).toHaveLength(MAX_TARGET_ATTRIBUTES);
    });

    it('refuses one attribute more, a key over 64 characters and a value over 1024, naming each', async () => {
      refused(await scan(entries(MAX_TARGET_ATTRIBUTES + 1)), 'body.target.attributes');
      refused(await scan({ ['k'.repeat(65)]: 'v' }), `body.target.attributes.${'k'.repeat(65)}`);
      refused(await scan({ k: 'v'.repeat(1025) }), 'body.target.attributes.k');
    });

    it('refuses a map of 10,000 entries in a multi-target request', async () => {
      const res = await request(planes.app('write'))
        .post('/api/v2/scans')
        .set(headers)
        .send({ targets: [{ kind: 'other', name: 'x', attributes: entries(10_000) }], tools: ['custom-tool'] });
      refused(res, 'body.targets.0.attributes');
    });
  });

  describe('trust policy claims', () => {
    const policy = (claims: Record<string, unknown>) =>
      request(planes.app('write'))
        .post('/api/v2/ci/pipeline/trust-policies')
        .set(headers)
        .send({
          name: 'capped claims',
          issuer: 'https://token.actions.githubusercontent.com',
          audience: 'https://palisade.test/acme',
          jwks_uri: 'https://token.actions.githubusercontent.com/.well-known/jwks',
          subject_pattern: 'repo:acme/*:ref:refs/heads/main',
          claims,
        });

    it(`accepts ${MAX_POLICY_CLAIMS} claims`, async () => {
      const res = await policy(entries(MAX_POLICY_CLAIMS)).expect(201);
      expect(Object.keys(res.body.claims)).toHaveLength(MAX_POLICY_CLAIMS);
    });

    it('refuses one claim more, an empty or over-long name and an over-long value, naming each', async () => {
      refused(await policy(entries(MAX_POLICY_CLAIMS + 1)), 'body.claims');
      refused(await policy({ ['c'.repeat(65)]: 'v' }), `body.claims.${'c'.repeat(65)}`);
      refused(await policy({ '': 'v' }), 'body.claims.');
      refused(await policy({ c: 'v'.repeat(257) }), 'body.claims.c');
    });
  });
});
