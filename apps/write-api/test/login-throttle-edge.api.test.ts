import { makeRepositories, type TDb } from '@palisade/db';
import { createUser, startTestStack, type TStack, type TTestStack } from '@palisade/testing';
import { ACCOUNT_ATTEMPTS, ADDRESS_ATTEMPTS } from '../src/services/login-throttle';

// Through the real nginx edge, as a client sees it: the edge overwrites X-Forwarded-For with the
// address it saw, so a client that sends its own cannot buy a fresh per-address sign-in budget.
describe('the per-address sign-in budget behind the edge', () => {
  let stack: TStack;
  let env: TTestStack | undefined;
  let db: TDb;

  beforeAll(async () => {
    env = await startTestStack({ planes: ['write'] });
    ({ stack, db } = env);
  }, 120_000);

  afterAll(async () => {
    await env?.stop();
  });

  const login = async (email: string, password: string, forwardedFor: string) => {
    const res = await fetch(`${stack.baseUrl}/api/v2/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': forwardedFor },
      body: JSON.stringify({ email, password }),
    });
    return { status: res.status, headers: res.headers, data: await res.json() };
  };

  it('records the address the edge saw, not the one the client claims', async () => {
    const user = await createUser(db);
    expect((await login(user.email, 'wrong', '1.2.3.4')).status).toBe(401);
    const rows = await makeRepositories(db.primary).audit.list(null, { limit: 1000 });
    const failed = rows.filter((row) => row.action === 'auth.login_failed' && (row.data as { email?: string }).email === user.email);
    expect(failed.map((row) => (row.data as { ip?: string }).ip)).toEqual(['127.0.0.1']);
  });

  it('pauses a spray across accounts however many addresses the client claims', async () => {
    const accounts = await Promise.all(Array.from({ length: ADDRESS_ATTEMPTS / ACCOUNT_ATTEMPTS }, () => createUser(db)));
    let n = 0;
    for (const account of accounts) {
      // Each account within its own budget, each guess from a different claimed address.
      for (let i = 0; i < ACCOUNT_ATTEMPTS; i++) {
        n += 1;
        const res = await login(account.email, `spray-${i}`, `203.0.113.${n % 250}, 198.51.100.${n % 250}`);
        // The first test's failure already counts against this address's budget.
        expect([401, 429]).toContain(res.status);
      }
    }
    const fresh = await createUser(db);
    const paused = await login(fresh.email, fresh.password, '1.2.3.4');
    expect(paused.status).toBe(429);
    expect(paused.data).toMatchObject({
      error_code: 'too_many_attempts',
      category: 'auth',
      message: expect.any(String),
      hint: expect.any(String),
      correlation_id: paused.headers.get('x-correlation-id'),
      retryable: true,
    });
    expect(Number(paused.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 60_000);
});
