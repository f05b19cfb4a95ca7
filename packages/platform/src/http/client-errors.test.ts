import { createServer, type Server } from 'node:http';
import net from 'node:net';
import express from 'express';
import { answerClientErrors } from './client-errors';

/** Sends raw bytes and reads until the server closes the connection. */
function raw(port: number, payload: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(payload));
    let out = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
}

function parse(response: string): { status: number; headers: Record<string, string>; body: Record<string, unknown> } {
  const [head, body] = response.split('\r\n\r\n');
  const [statusLine, ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) };
}

describe('requests the HTTP parser rejects', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer(express().get('/', (_req, res) => void res.send('ok')));
    answerClientErrors(server, 'read');
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('answers headers over the limit with a structured 431', async () => {
    const res = parse(await raw(port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
    expect(res.status).toBe(431);
    expect(res.headers['x-palisade-plane']).toBe('read');
    expect(res.body).toEqual({
      error_code: 'request_header_too_large',
      category: 'config',
      message: expect.any(String),
      hint: expect.any(String),
      correlation_id: res.headers['x-correlation-id'],
      retryable: false,
    });
  });

  it('answers a malformed header line with a structured 400', async () => {
    const res = parse(await raw(port, 'GET / HTTP/1.1\r\nHost: x\r\nNot a header\r\n\r\n'));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error_code: 'bad_request', category: 'config', correlation_id: expect.any(String), retryable: false });
  });

  it('still serves well-formed requests', async () => {
    expect(await raw(port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*ok$/);
  });
});
