import request from 'supertest';
import { createUser, startTestPlanes, type TTestPlanes } from '@palisade/testing';
import { buildReadApi } from '../../read-api/src/app';
import { buildWriteApi } from '../src/app';

const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';
const USER_CODE = /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('device authorization grant (RFC 8628), in process', () => {
  let planes: TTestPlanes;
  let user: { id: string; email: string; password: string };
  let bearer: string;

  beforeAll(async () => {
    // A 1-second interval keeps the polling tests quick; the default is 5.
    planes = await startTestPlanes({ write: buildWriteApi, read: buildReadApi }, { DEVICE_POLL_INTERVAL_SECONDS: '1' });
    user = await createUser(planes.db, { password: 'device flow password' });
    const login = await request(planes.app('write')).post('/api/v2/auth/login').send({ email: user.email, password: user.password }).expect(200);
    bearer = `Bearer ${login.body.access_token}`;
  });
  afterAll(() => planes?.close());

  const write = () => request(planes.app('write'));
  const startCode = async (body: Record<string, string> = { client_id: 'palisade-cli' }) =>
    (await write().post('/api/v2/auth/device/code').send(body).expect(200)).body as { device_code: string; user_code: string; interval: number };
  const poll = (deviceCode: string, extra: Record<string, string> = {}) =>
    write().post('/api/v2/auth/device/token').type('form').send({ grant_type: GRANT_TYPE, device_code: deviceCode, client_id: 'palisade-cli', ...extra });
  const decide = (userCode: string, decision?: 'approve' | 'deny', auth = bearer) =>
    write().post('/api/v2/auth/device/approve').set('Authorization', auth).send({ user_code: userCode, ...(decision ? { decision } : {}) });

  describe('POST /auth/device/code', () => {
    it('returns a device code, an unambiguous XXXX-XXXX user code and the verification page on the public hostname', async () => {
      const res = await write().post('/api/v2/auth/device/code').send({ client_id: 'palisade-cli' }).expect(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        device_code: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        user_code: expect.stringMatching(USER_CODE),
        verification_uri: `${planes.env.PUBLIC_BASE_URL}/api/v2/auth/device`,
        verification_uri_complete: `${planes.env.PUBLIC_BASE_URL}/api/v2/auth/device?user_code=${res.body.user_code}`,
        expires_in: 600,
        interval: 1,
      });
    });

    it('accepts a form-encoded body, as OAuth clients send it', async () => {
      const res = await write().post('/api/v2/auth/device/code').type('form').send({ client_id: 'palisade-cli', scope: 'api' }).expect(200);
      expect(res.body.user_code).toMatch(USER_CODE);
    });

    it('refuses an unregistered client with invalid_client beside the structured fields', async () => {
      const res = await write().post('/api/v2/auth/device/code').type('form').send({ client_id: 'evil-cli' }).expect(401);
      expect(res.body).toMatchObject({
        error: 'invalid_client',
        error_description: expect.any(String),
        error_code: 'invalid_client',
        category: 'auth',
        retryable: false,
        hint: expect.any(String),
        correlation_id: expect.any(String),
      });
    });

    it('refuses a scope the client may not ask for with invalid_scope', async () => {
      const res = await write().post('/api/v2/auth/device/code').send({ client_id: 'palisade-cli', scope: 'api admin' }).expect(400);
      expect(res.body).toMatchObject({ error: 'invalid_scope', error_code: 'invalid_scope' });
    });

    it('refuses unknown fields with a 422 naming them, in JSON and in form bodies', async () => {
      const json = await write().post('/api/v2/auth/device/code').send({ client_id: 'palisade-cli', client_secret: 'x' }).expect(422);
      // The spec's 422, with RFC 6749's error member beside it so that OAuth libraries read it.
      expect(json.body).toMatchObject({ error_code: 'validation_failed', field: 'body.client_secret', error: 'invalid_request', error_description: expect.stringContaining('body.client_secret') });
      const form = await write().post('/api/v2/auth/device/code').type('form').send({ client_id: 'palisade-cli', audience: 'x' }).expect(422);
      expect(form.body.field).toBe('body.audience');
      const missing = await write().post('/api/v2/auth/device/code').send({}).expect(422);
      expect(missing.body.field).toBe('body.client_id');
    });

    it('refuses other media types with 415', async () => {
      await write().post('/api/v2/auth/device/code').set('Content-Type', 'text/plain').send('client_id=palisade-cli').expect(415);
    });
  });

  describe('POST /auth/device/token', () => {
    it('answers authorization_pending while the user has not decided, and slow_down (interval + 5 s, for good) when polled too fast', async () => {
      const { device_code } = await startCode();
      const first = await poll(device_code).expect(400);
      expect(first.headers['cache-control']).toBe('no-store');
      expect(first.body).toMatchObject({ error: 'authorization_pending', error_code: 'authorization_pending', retryable: true, interval: 1 });

      await sleep(1100);
      expect((await poll(device_code).expect(400)).body).toMatchObject({ error: 'authorization_pending', interval: 1 });

      const fast = await poll(device_code).expect(400);
      expect(fast.body).toMatchObject({ error: 'slow_down', error_code: 'slow_down', interval: 6 });
      const faster = await poll(device_code).expect(400);
      expect(faster.body).toMatchObject({ error: 'slow_down', interval: 11 });
      // The grown interval holds: a poll after the original interval is still too fast.
      await sleep(1100);
      expect((await poll(device_code).expect(400)).body).toMatchObject({ error: 'slow_down', interval: 16 });
    });

    it('issues tokens for the approving user exactly once, then invalid_grant', async () => {
      const { device_code, user_code } = await startCode();
      const approved = await decide(user_code).expect(200);
      expect(approved.body).toEqual({ user_code, status: 'approved', client_id: 'palisade-cli', client_name: 'Palisade CLI', scopes: ['api', 'offline_access'] });

      const res = await poll(device_code).expect(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers.pragma).toBe('no-cache');
      expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 900, refresh_token: expect.any(String) });

      const me = await request(planes.app('read')).get('/api/v2/me').set('Authorization', `Bearer ${res.body.access_token}`).expect(200);
      expect(me.body.principal).toMatchObject({ kind: 'human', id: user.id, email: user.email });

      // The refresh token is a session like a password sign-in's: it rotates.
      const refreshed = await write().post('/api/v2/auth/refresh').set('Cookie', `palisade_refresh=${res.body.refresh_token}`).expect(200);
      expect(refreshed.body.access_token).toEqual(expect.any(String));

      const again = await poll(device_code).expect(400);
      expect(again.body).toMatchObject({ error: 'invalid_grant', error_code: 'invalid_grant' });
    });

    it('lets only one of many concurrent polls redeem an approved code', async () => {
      const { device_code, user_code } = await startCode();
      await decide(user_code).expect(200);
      const results = await Promise.all(Array.from({ length: 8 }, () => poll(device_code)));
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of results.filter((x) => x.status !== 200)) expect(r.body.error).toBe('invalid_grant');
    });

    it('issues no refresh token when offline_access was not asked for', async () => {
      const { device_code, user_code } = await startCode({ client_id: 'palisade-cli', scope: 'api' });
      await decide(user_code).expect(200);
      const res = await poll(device_code).expect(200);
      expect(res.body.refresh_token).toBeUndefined();
    });

    it('answers access_denied once the user denies, and the code cannot be approved afterwards', async () => {
      const { device_code, user_code } = await startCode();
      expect((await decide(user_code, 'deny').expect(200)).body.status).toBe('denied');
      expect((await poll(device_code).expect(400)).body).toMatchObject({ error: 'access_denied', error_code: 'access_denied', retryable: false });
      const late = await decide(user_code, 'approve').expect(409);
      expect(late.body.error_code).toBe('invalid_state_transition');
    });

    it('refuses another grant type with unsupported_grant_type', async () => {
      const { device_code } = await startCode();
      const res = await poll(device_code, { grant_type: 'authorization_code' }).expect(400);
      expect(res.body).toMatchObject({ error: 'unsupported_grant_type', error_code: 'unsupported_grant_type' });
    });

    it('refuses an unknown client with invalid_client and an unknown device code with invalid_grant', async () => {
      const { device_code } = await startCode();
      expect((await poll(device_code, { client_id: 'evil-cli' }).expect(401)).body.error).toBe('invalid_client');
      expect((await poll('not-a-device-code').expect(400)).body.error).toBe('invalid_grant');
    });

    it('takes JSON as well as form bodies, and refuses unknown fields with 422', async () => {
      const { device_code } = await startCode();
      const json = await write().post('/api/v2/auth/device/token').send({ grant_type: GRANT_TYPE, device_code, client_id: 'palisade-cli' }).expect(400);
      expect(json.body.error).toBe('authorization_pending');
      const extra = await poll(device_code, { client_secret: 'x' }).expect(422);
      expect(extra.body).toMatchObject({ error_code: 'validation_failed', field: 'body.client_secret', error: 'invalid_request' });
    });
  });

  describe('POST /auth/device/approve', () => {
    it('needs a signed-in principal (401 without a token)', async () => {
      const { user_code } = await startCode();
      const res = await write().post('/api/v2/auth/device/approve').send({ user_code }).expect(401);
      expect(res.body.error_code).toBe('unauthenticated');
    });

    it('is for people only: a service-account token is a 403', async () => {
      const { user_code } = await startCode();
      const robot = await planes.plane('write').runtime.auth.accessTokens.issue({ kind: 'service_account', id: user.id, isPlatformAdmin: false, orgId: user.id, scopes: [] });
      const res = await decide(user_code, 'approve', `Bearer ${robot.token}`).expect(403);
      expect(res.body.error_code).toBe('forbidden');
    });

    it('reads the code regardless of case and dashes', async () => {
      const { user_code } = await startCode();
      const res = await decide(user_code.replace('-', '').toLowerCase()).expect(200);
      expect(res.body.user_code).toBe(user_code);
    });

    it('refuses an unknown code with 404, unknown fields with 422, and slows a guesser down with 429', async () => {
      const guesser = await createUser(planes.db, { password: 'guessing password' });
      const login = await write().post('/api/v2/auth/login').send({ email: guesser.email, password: guesser.password }).expect(200);
      const auth = `Bearer ${login.body.access_token}`;
      const unknown = await decide('BCDF-GHJK', 'approve', auth).expect(404);
      expect(unknown.body).toMatchObject({ error_code: 'invalid_user_code', hint: expect.any(String) });
      await write().post('/api/v2/auth/device/approve').set('Authorization', auth).send({ user_code: 'BCDF-GHJK', remember: true }).expect(422);
      for (let i = 1; i < 10; i += 1) await decide('XXXX-XXXX', 'approve', auth).expect(404);
      const limited = await decide('BCDF-GHJK', 'approve', auth).expect(429);
      expect(limited.headers['retry-after']).toEqual(expect.stringMatching(/^\d+$/));
      expect(limited.body).toMatchObject({ error_code: 'too_many_attempts', retryable: true });
    });
  });

  it('appends approvals, denials and token issuance to the audit log', async () => {
    const a = await startCode();
    await decide(a.user_code).expect(200);
    await poll(a.device_code).expect(200);
    const d = await startCode();
    await decide(d.user_code, 'deny').expect(200);

    const rows = await planes.plane('write').runtime.repos.audit.list(null, { limit: 1000 });
    const actions = rows.map((row) => row.action);
    expect(actions).toEqual(expect.arrayContaining(['auth.device_approved', 'auth.device_denied', 'auth.device_token_issued']));
    const issued = rows.filter((row) => row.action === 'auth.device_token_issued').at(-1)!;
    expect(issued).toMatchObject({ actorType: 'client', actorId: 'palisade-cli', targetType: 'user', targetId: user.id });
    expect(JSON.stringify(rows.map((row) => row.data))).not.toContain(a.device_code);
    expect((await planes.plane('write').runtime.repos.audit.verifyAuditChain(null)).ok).toBe(true);
  });

  describe('GET /auth/device (the verification page, read plane)', () => {
    const read = () => request(planes.app('read'));

    it('serves a page with a strict CSP, no framing and no inline script', async () => {
      const res = await read().get('/api/v2/auth/device').expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['content-security-policy']).not.toContain('unsafe-inline');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(res.text).not.toMatch(/\son[a-z]+=/i);
      expect(res.text).toContain('name="user_code"');
    });

    it('shows which client asks for which scopes when opened from verification_uri_complete', async () => {
      const { user_code } = await startCode({ client_id: 'palisade-cli', scope: 'api' });
      const res = await read().get('/api/v2/auth/device').query({ user_code: user_code.toLowerCase() }).expect(200);
      expect(res.text).toContain(user_code);
      expect(res.text).toContain('Palisade CLI');
      expect(res.text).toContain('<code>api</code>');
      expect(res.text).not.toContain('offline_access');
      expect(res.text).toContain('id="sign-in"');
    });

    it('says so for an unknown code, and escapes what was typed', async () => {
      const res = await read().get('/api/v2/auth/device').query({ user_code: '"><script>x</script>' }).expect(200);
      expect(res.text).toContain('No device is waiting for this code');
      expect(res.text).not.toContain('<script>x');
      expect(res.text).toContain('&#34;&#62;&#60;script&#62;');
    });

    it('serves its script and stylesheet with the same headers, and refuses unknown query parameters', async () => {
      const js = await read().get('/api/v2/auth/device/app.js').expect(200);
      expect(js.headers['content-type']).toMatch(/^text\/javascript/);
      expect(js.headers['x-content-type-options']).toBe('nosniff');
      expect(js.text).toContain('/api/v2/auth/device/approve');
      const css = await read().get('/api/v2/auth/device/app.css').expect(200);
      expect(css.headers['content-type']).toMatch(/^text\/css/);
      await read().get('/api/v2/auth/device?org_id=x').expect(422);
    });
  });
});

describe('device authorization grant: expiry', () => {
  let planes: TTestPlanes;
  beforeAll(async () => {
    planes = await startTestPlanes({ write: buildWriteApi }, { DEVICE_CODE_TTL_SECONDS: '1', DEVICE_POLL_INTERVAL_SECONDS: '1' });
  });
  afterAll(() => planes?.close());

  it('answers expired_token after expires_in, and the code can no longer be approved', async () => {
    const user = await createUser(planes.db, { password: 'expiry password' });
    const login = await request(planes.app('write')).post('/api/v2/auth/login').send({ email: user.email, password: user.password }).expect(200);
    const code = await request(planes.app('write')).post('/api/v2/auth/device/code').send({ client_id: 'palisade-cli' }).expect(200);
    expect(code.body.expires_in).toBe(1);
    await sleep(1200);
    const res = await request(planes.app('write'))
      .post('/api/v2/auth/device/token')
      .type('form')
      .send({ grant_type: GRANT_TYPE, device_code: code.body.device_code, client_id: 'palisade-cli' })
      .expect(400);
    expect(res.body).toMatchObject({ error: 'expired_token', error_code: 'expired_token', retryable: false });
    await request(planes.app('write'))
      .post('/api/v2/auth/device/approve')
      .set('Authorization', `Bearer ${login.body.access_token}`)
      .send({ user_code: code.body.user_code })
      .expect(404);
  });
});
