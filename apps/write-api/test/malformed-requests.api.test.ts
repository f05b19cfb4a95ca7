import request from 'supertest';
import { createUser, expectRefusal, startTestPlanes, type TTestPlanes } from '@palisade/testing';
import { buildWriteApi } from '../src/app';

describe('session cookies and OAuth form bodies a client shapes itself', () => {
  let planes: TTestPlanes;
  beforeAll(async () => {
    planes = await startTestPlanes({ write: buildWriteApi });
  });
  afterAll(() => planes?.close());

  const app = () => planes.app('write');
  // cookie-parser would JSON-decode these into an object, a number, an array and null.
  const decodable = ['j:{}', 'j:123', 'j:[1,2]', 'j:null', 'j:true', 'j:%7B%7D'];

  it.each(decodable)('refuses a refresh cookie "%s" as an invalid session (401), never a crash', async (value) => {
    const res = await request(app()).post('/api/v2/auth/refresh').set('Cookie', `palisade_refresh=${value}`);
    expectRefusal(res, 401, 'invalid_refresh_token');
  });

  it.each(decodable)('treats a logout with the refresh cookie "%s" as a logout of nothing (204)', async (value) => {
    await request(app()).post('/api/v2/auth/logout').set('Cookie', `palisade_refresh=${value}`).expect(204);
  });

  it('still reads a real refresh cookie beside malformed ones', async () => {
    const user = await createUser(planes.db);
    const login = await request(app()).post('/api/v2/auth/login').send({ email: user.email, password: user.password }).expect(200);
    const cookie = (login.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('palisade_refresh='))!.split(';')[0];
    await request(app()).post('/api/v2/auth/refresh').set('Cookie', `junk=%E0%A4%A; other=j:{}; ${cookie}`).expect(200);
  });

  it.each(['/api/v2/auth/device/code', '/api/v2/auth/device/token'])('refuses more than 1000 form fields on %s with a 413 an OAuth client reads', async (path) => {
    const fields = Array.from({ length: 1001 }, (_, i) => `f${i}=1`).join('&');
    const res = await request(app()).post(path).type('form').send(`client_id=palisade-cli&${fields}`);
    expectRefusal(res, 413, 'payload_too_large');
    expect(res.body).toMatchObject({ error: 'invalid_request', error_description: res.body.message });
  });

  it('refuses a form body in a charset it does not read with a 415 an OAuth client reads', async () => {
    const res = await request(app()).post('/api/v2/auth/device/code').set('Content-Type', 'application/x-www-form-urlencoded; charset=koi8-x').send('client_id=palisade-cli');
    expectRefusal(res, 415, 'unsupported_media_type');
    expect(res.body).toMatchObject({ error: 'invalid_request' });
  });
});
