import { makeRepositories, type TDb } from '@palisade/db';
import { addMember, createOrganization, createUser, startTestStack, type TStack, type TTestStack } from '@palisade/testing';

// The quota is the organization's, not a process's: two write-api processes (separate OS
// processes, separate Redis connections) spend one budget between them.
describe('a per-organization quota across two write-api processes', () => {
  let env: TTestStack | undefined;
  let db: TDb;
  let stack: TStack;
  let headers: Record<string, string>;

  beforeAll(async () => {
    env = await startTestStack({ planes: ['write'], replicas: { write: 2 }, env: { LOG_LEVEL: 'warn' } });
    ({ stack, db } = env);
    const org = await createOrganization(db);
    const user = await createUser(db, { password: 'quota-processes-password' });
    await addMember(db, org.id, user.id, 'member');
    await makeRepositories(db.primary).orgQuotas.set(org.id, { requestsPerMinute: 4, burst: 0 });
    const login = await fetch(`${stack.replicaUrls.write![0]}/api/v2/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: 'quota-processes-password' }),
    });
    expect(login.status).toBe(200);
    headers = { Authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}`, 'X-Organization-ID': org.id, 'Content-Type': 'application/json' };
  }, 120_000);

  afterAll(async () => {
    await env?.stop();
  });

  const createScan = (baseUrl: string) =>
    fetch(`${baseUrl}/api/v2/scans`, { method: 'POST', headers, body: JSON.stringify({ target: { kind: 'image', reference: 'registry.example/app:2.0' }, tools: ['trivy-ext'] }) });

  it('refuses the call past the budget whichever process it reaches', async () => {
    const [first, second] = stack.replicaUrls.write!;
    expect(first).not.toBe(second);
    const statuses: number[] = [];
    for (const url of [first, second, first, second]) statuses.push((await createScan(url)).status);
    expect(statuses).toEqual([201, 201, 201, 201]);
    for (const url of [first, second]) {
      const refused = await createScan(url);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.json()).toMatchObject({ error_code: 'rate_limited', retryable: true });
    }
  });
});
