import { startRecordingServer, type TRecordingServer } from './recording-server';

describe('recording server', () => {
  let server: TRecordingServer;
  afterEach(() => server?.close());

  it('records method, path, headers and the raw body, and answers 200 by default', async () => {
    server = await startRecordingServer();
    const res = await fetch(`${server.url}/hooks/abc?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': 'sha256=00' },
      body: '{"b":1,"a":2}',
    });
    expect(res.status).toBe(200);
    await expect(res.json()).resolves.toEqual({ ok: true });
    expect(server.requests).toHaveLength(1);
    const [req] = server.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/hooks/abc?x=1' });
    expect(req.headers['x-signature']).toBe('sha256=00');
    expect(req.body.toString()).toBe('{"b":1,"a":2}');
    expect(req.at).toBeInstanceOf(Date);
  });

  it('answers what respond() returns, so tests can fail a delivery', async () => {
    let calls = 0;
    server = await startRecordingServer({
      respond: () => (++calls === 1 ? { status: 503, headers: { 'retry-after': '1' }, body: 'down' } : { status: 204 }),
    });
    const first = await fetch(server.url, { method: 'POST', body: 'x' });
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('1');
    await expect(first.text()).resolves.toBe('down');
    const second = await fetch(server.url, { method: 'POST', body: 'x' });
    expect(second.status).toBe(204);
  });

  it('waits for requests that arrive later, and times out when they do not', async () => {
    server = await startRecordingServer();
    const waiting = server.waitForRequests(2, 2000);
    setTimeout(() => void fetch(server.url).then(() => fetch(server.url)), 20);
    await expect(waiting).resolves.toHaveLength(2);
    await expect(server.waitForRequests(3, 50)).rejects.toThrow(/2 of 3/);
  });

  it('answers 500 with the message when respond() throws', async () => {
    server = await startRecordingServer({
      respond: () => {
        throw new Error('boom');
      },
    });
    const res = await fetch(server.url);
    expect(res.status).toBe(500);
    await expect(res.text()).resolves.toMatch(/boom/);
  });
});
