import type * as OAuth from 'oauth4webapi' with { 'resolution-mode': 'import' };
import request from 'supertest';
import { createUser } from '@palisade/testing';
import { startSingleOrigin, type TSingleOrigin } from './support/single-origin';

// oauth4webapi is ESM-only; Jest compiles it to CommonJS (jest.preset.js), so it is required here.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const oauth: typeof OAuth = require('oauth4webapi');

// An unmodified, standards-following OAuth client (oauth4webapi) completes the device flow
// against the real endpoints: the proof that form bodies, status codes and RFC errors are right.
describe('the device flow with a standard OAuth client library', () => {
  let origin: TSingleOrigin;

  beforeAll(async () => {
    origin = await startSingleOrigin({ DEVICE_POLL_INTERVAL_SECONDS: '1' });
  });
  afterAll(() => origin?.close());

  it('gets a device code, sees authorization_pending, and receives tokens after the user approves', async () => {
    const user = await createUser(origin.planes.db, { password: 'oauth client password' });
    const as: OAuth.AuthorizationServer = {
      issuer: origin.baseUrl,
      device_authorization_endpoint: `${origin.baseUrl}/api/v2/auth/device/code`,
      token_endpoint: `${origin.baseUrl}/api/v2/auth/device/token`,
    };
    const client: OAuth.Client = { client_id: 'palisade-cli' };
    const clientAuth = oauth.None();
    const options = { [oauth.allowInsecureRequests]: true };

    const started = await oauth.processDeviceAuthorizationResponse(
      as,
      client,
      await oauth.deviceAuthorizationRequest(as, client, clientAuth, { scope: 'api offline_access' }, options),
    );
    expect(started.verification_uri).toBe(`${origin.baseUrl}/api/v2/auth/device`);
    expect(started.interval).toBe(1);

    const pollOnce = async () =>
      oauth.processDeviceCodeResponse(as, client, await oauth.deviceCodeGrantRequest(as, client, clientAuth, started.device_code, options));

    const pending = await pollOnce().catch((error: unknown) => error);
    expect(pending).toBeInstanceOf(oauth.ResponseBodyError);
    expect(pending).toMatchObject({ error: 'authorization_pending', status: 400 });

    const login = await request(origin.planes.app('write')).post('/api/v2/auth/login').send({ email: user.email, password: user.password }).expect(200);
    await request(origin.planes.app('write'))
      .post('/api/v2/auth/device/approve')
      .set('Authorization', `Bearer ${login.body.access_token}`)
      .send({ user_code: started.user_code })
      .expect(200);

    // As the library's user must: wait the interval, poll again, and grow the interval on slow_down.
    let interval = started.interval ?? 5;
    let tokens: OAuth.TokenEndpointResponse | undefined;
    for (let attempt = 0; attempt < 5 && !tokens; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, interval * 1000 + 100));
      try {
        tokens = await pollOnce();
      } catch (error) {
        if (!(error instanceof oauth.ResponseBodyError)) throw error;
        if (error.error === 'slow_down') interval += 5;
        else if (error.error !== 'authorization_pending') throw error;
      }
    }
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 900, access_token: expect.any(String), refresh_token: expect.any(String) });

    const me = await fetch(`${origin.baseUrl}/api/v2/me`, { headers: { Authorization: `Bearer ${tokens!.access_token}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { principal: { id: string } }).principal.id).toBe(user.id);

    // Redeemed once: the library sees invalid_grant on a replay.
    await expect(pollOnce()).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('surfaces an unknown client and a denial as the RFC errors the library understands', async () => {
    const as: OAuth.AuthorizationServer = {
      issuer: origin.baseUrl,
      device_authorization_endpoint: `${origin.baseUrl}/api/v2/auth/device/code`,
      token_endpoint: `${origin.baseUrl}/api/v2/auth/device/token`,
    };
    const options = { [oauth.allowInsecureRequests]: true };
    const nobody = { client_id: 'nobody' };
    const unknown = await oauth
      .processDeviceAuthorizationResponse(as, nobody, await oauth.deviceAuthorizationRequest(as, nobody, oauth.None(), {}, options))
      .catch((error: unknown) => error);
    expect(unknown).toMatchObject({ error: 'invalid_client', status: 401 });

    const client = { client_id: 'palisade-cli' };
    const started = await oauth.processDeviceAuthorizationResponse(as, client, await oauth.deviceAuthorizationRequest(as, client, oauth.None(), {}, options));
    const user = await createUser(origin.planes.db, { password: 'denying password' });
    const login = await request(origin.planes.app('write')).post('/api/v2/auth/login').send({ email: user.email, password: user.password }).expect(200);
    await request(origin.planes.app('write'))
      .post('/api/v2/auth/device/approve')
      .set('Authorization', `Bearer ${login.body.access_token}`)
      .send({ user_code: started.user_code, decision: 'deny' })
      .expect(200);
    const denied = await oauth
      .processDeviceCodeResponse(as, client, await oauth.deviceCodeGrantRequest(as, client, oauth.None(), started.device_code, options))
      .catch((error: unknown) => error);
    expect(denied).toMatchObject({ error: 'access_denied', status: 400 });
  });
});
