import request from 'supertest';
import { makeRepositories } from '@palisade/db';
import { createUser, startTestPlanes, type TTestPlanes } from '@palisade/testing';
import { buildWriteApi } from '../src/app';

describe('brute-forced sign-in', () => {
  let planes: TTestPlanes;
  beforeAll(async () => {
    planes = await startTestPlanes({ write: buildWriteApi });
  });
  afterAll(() => planes?.close());

  const attempt = (email: string, password: string) => request(planes.app('write')).post('/api/v2/auth/login').send({ email, password });

  it('pauses an account after ten failures, even for the right password, with Retry-After', async () => {
    const victim = await createUser(planes.db);
    for (let i = 0; i < 10; i++) await attempt(victim.email, `guess-${i}`).expect(401);
    const paused = await attempt(victim.email, victim.password).expect(429);
    expect(Number(paused.headers['retry-after'])).toBeGreaterThan(0);
    expect(paused.body).toMatchObject({ error_code: 'too_many_attempts', category: 'auth', retryable: true, hint: expect.stringContaining('Retry-After') });

    // Another account from the same address is unaffected.
    const bystander = await createUser(planes.db);
    await attempt(bystander.email, bystander.password).expect(200);
  });

  it('clears an account’s count on success', async () => {
    const user = await createUser(planes.db);
    for (let i = 0; i < 9; i++) await attempt(user.email, 'wrong').expect(401);
    await attempt(user.email, user.password).expect(200);
    for (let i = 0; i < 9; i++) await attempt(user.email, 'wrong').expect(401);
    await attempt(user.email, user.password).expect(200);
  });

  it('audits failed sign-ins on the platform chain without the password', async () => {
    const user = await createUser(planes.db);
    await attempt(user.email, 'a-wrong-password').expect(401);
    const rows = await makeRepositories(planes.db.primary).audit.list(null, { limit: 1000 });
    const failed = rows.filter((row) => row.action === 'auth.login_failed' && (row.data as { email?: string }).email === user.email);
    expect(failed).toHaveLength(1);
    expect(JSON.stringify(failed[0], (_key, value) => (typeof value === 'bigint' ? String(value) : value))).not.toContain('a-wrong-password');
  });
});
