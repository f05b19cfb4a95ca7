import request from 'supertest';
import { makeRepositories } from '@palisade/db';
import { createUser, startTestPlanes, type TTestPlanes } from '@palisade/testing';
import { buildWriteApi } from '../src/app';
import { ACCOUNT_ATTEMPTS, ADDRESS_ATTEMPTS } from '../src/services/login-throttle';

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

  // Each test below signs in from its own documentation address (the planes trust a loopback
  // proxy's X-Forwarded-For), so the per-address budget of one does not leak into another.
  const attemptFrom = (ip: string, email: string, password: string) =>
    request(planes.app('write')).post('/api/v2/auth/login').set('X-Forwarded-For', ip).send({ email, password });

  async function auditedFailures(email: string): Promise<number> {
    const rows = await makeRepositories(planes.db.primary).audit.list(null, { limit: 1000 });
    return rows.filter((row) => row.action === 'auth.login_failed' && (row.data as { email?: string }).email === email).length;
  }

  it('lets at most the account budget of a burst of parallel guesses reach the password check', async () => {
    const victim = await createUser(planes.db);
    const burst = await Promise.all(
      Array.from({ length: ACCOUNT_ATTEMPTS + 5 }, (_, i) => attemptFrom('198.51.100.10', victim.email, `parallel-guess-${i}`)),
    );
    const statuses = burst.map((res) => res.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(ACCOUNT_ATTEMPTS);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
    await expect(auditedFailures(victim.email)).resolves.toBe(ACCOUNT_ATTEMPTS);
  });

  it('pauses an address that sprays guesses across many accounts, without charging the accounts for its refusals', async () => {
    const spray = '198.51.100.20';
    const accounts = await Promise.all(Array.from({ length: ADDRESS_ATTEMPTS / ACCOUNT_ATTEMPTS }, () => createUser(planes.db)));
    // Each account stays within its own budget; only their sum reaches the address's.
    await Promise.all(
      accounts.map(async (account) => {
        for (let i = 0; i < ACCOUNT_ATTEMPTS; i++) await attemptFrom(spray, account.email, `spray-${i}`).expect(401);
      }),
    );
    const fresh = await createUser(planes.db);
    for (let i = 0; i < ACCOUNT_ATTEMPTS + 2; i++) {
      const paused = await attemptFrom(spray, fresh.email, fresh.password).expect(429);
      expect(paused.body).toMatchObject({ error_code: 'too_many_attempts' });
      expect(Number(paused.headers['retry-after'])).toBeGreaterThan(0);
    }
    // The pause is the address's: from elsewhere the account, never charged for those, signs in.
    await attemptFrom('198.51.100.21', fresh.email, fresh.password).expect(200);
  });

  it('writes a refused (429) sign-in to the audit log', async () => {
    const user = await createUser(planes.db);
    const ip = '198.51.100.40';
    for (let i = 0; i < ACCOUNT_ATTEMPTS; i++) await attemptFrom(ip, user.email, `guess-${i}`).expect(401);
    await attemptFrom(ip, user.email, 'one-too-many').expect(429);
    const rows = await makeRepositories(planes.db.primary).audit.list(null, { limit: 1000 });
    const refused = rows.filter((row) => row.action === 'auth.login_throttled' && (row.data as { email?: string }).email === user.email);
    expect(refused).toHaveLength(1);
    expect(refused[0].data).toMatchObject({ email: user.email, ip });
  });
});
