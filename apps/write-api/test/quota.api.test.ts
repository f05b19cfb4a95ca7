import request from 'supertest';
import { makeRepositories } from '@palisade/db';
import { createLogger, startPlane, type TStartedPlane } from '@palisade/platform';
import { addMember, createOrganization, createUser, startTestPlanes, type TTestPlanes } from '@palisade/testing';
import { buildWriteApi } from '../src/app';

describe('per-organization quotas on the write plane', () => {
  let planes: TTestPlanes;
  let secondWritePlane: TStartedPlane;
  let headers: Record<string, string>;
  let orgId: string;

  beforeAll(async () => {
    planes = await startTestPlanes({ write: buildWriteApi });
    // A second write-api with its own connections: the budget must hold across both.
    secondWritePlane = await startPlane({ plane: 'write', env: planes.env, logger: createLogger({ service: 'second', level: 'silent' }), build: buildWriteApi });
    orgId = (await createOrganization(planes.db)).id;
    const user = await createUser(planes.db);
    await addMember(planes.db, orgId, user.id, 'member');
    await makeRepositories(planes.db.primary).orgQuotas.set(orgId, { requestsPerMinute: 3, burst: 0 });
    const { token } = await planes.plane('write').runtime.auth.accessTokens.issue({ kind: 'human', id: user.id, isPlatformAdmin: false });
    headers = { Authorization: `Bearer ${token}`, 'X-Organization-ID': orgId };
  });
  afterAll(async () => {
    await secondWritePlane?.close();
    await planes?.close();
  });

  const createScan = (app: TStartedPlane['app']) =>
    request(app).post('/api/v2/scans').set(headers).send({ target: { kind: 'image', reference: 'registry.example/app:1.0' }, tools: ['trivy'] });

  it('answers the overrun with 429, Retry-After and a retryable body, whichever process serves it', async () => {
    await createScan(planes.app('write')).expect(201);
    await createScan(secondWritePlane.app).expect(201);
    await createScan(planes.app('write')).expect(201);
    const refused = await createScan(secondWritePlane.app).expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body).toMatchObject({ error_code: 'rate_limited', retryable: true, category: 'network', hint: expect.stringContaining('Retry-After') });
    await createScan(planes.app('write')).expect(429);
  });

  it('keeps one organization’s overrun from limiting another', async () => {
    const other = await createOrganization(planes.db);
    const user = await createUser(planes.db);
    await addMember(planes.db, other.id, user.id, 'member');
    const { token } = await planes.plane('write').runtime.auth.accessTokens.issue({ kind: 'human', id: user.id, isPlatformAdmin: false });
    await request(planes.app('write'))
      .post('/api/v2/scans')
      .set({ Authorization: `Bearer ${token}`, 'X-Organization-ID': other.id })
      .send({ target: { kind: 'image', reference: 'registry.example/app:1.0' }, tools: ['trivy'] })
      .expect(201);
  });
});
