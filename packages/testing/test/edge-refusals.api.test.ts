import net from 'node:net';
import { startTestStack, type TStack, type TTestStack } from '../src';

/** Sends raw bytes (what no well-behaved client library would send) and reads until close. */
function raw(baseUrl: string, payload: string): Promise<{ status: number; headers: Record<string, string>; body: Record<string, unknown> }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(payload));
    let out = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, ...rest] = out.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      try {
        resolve({ status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(rest.join('\r\n\r\n')) });
      } catch {
        reject(new Error(`not a JSON answer:\n${out.slice(0, 500)}`));
      }
    });
  });
}

const get = (path: string, headers: string[] = []) => [`GET ${path} HTTP/1.1`, 'Host: palisade', ...headers, 'Connection: close', '', ''].join('\r\n');

function expectRefusal(res: Awaited<ReturnType<typeof raw>>, status: number, errorCode: string): void {
  expect({ status: res.status, error_code: res.body.error_code }).toEqual({ status, error_code: errorCode });
  expect(res.body).toEqual({
    error_code: errorCode,
    category: expect.stringMatching(/^(network|auth|config|timeout)$/),
    message: expect.any(String),
    hint: expect.any(String),
    correlation_id: res.headers['x-correlation-id'],
    retryable: expect.any(Boolean),
  });
}

// Requests the HTTP layer itself refuses, at the edge and at a plane reached directly: the spec's
// error body every time, never nginx's HTML page or Node's bare status line.
describe('requests refused before any route sees them', () => {
  let stack: TStack;
  let env: TTestStack | undefined;

  beforeAll(async () => {
    env = await startTestStack({ planes: ['read'] });
    ({ stack } = env);
  }, 120_000);
  afterAll(async () => {
    await env?.stop();
  });

  it('answers a header over the edge’s 8 KiB with a structured 431 from the edge', async () => {
    expectRefusal(await raw(stack.baseUrl, get('/api/v2/auth/jwks.json', [`Cookie: a=${'x'.repeat(10_000)}`])), 431, 'request_header_too_large');
  });

  it('answers headers over the edge’s 32 KiB in all with a structured 431 from the edge, and over 48 KiB at a plane from the plane', async () => {
    const filler = (count: number) => Array.from({ length: count }, (_, i) => `X-Filler-${i}: ${'y'.repeat(7000)}`);
    const viaEdge = await raw(stack.baseUrl, get('/api/v2/auth/jwks.json', filler(5)));
    expectRefusal(viaEdge, 431, 'request_header_too_large');
    expect(viaEdge.headers['x-palisade-plane']).toBeUndefined();
    const direct = await raw(stack.planeUrls.read!, get('/api/v2/auth/jwks.json', filler(8)));
    expectRefusal(direct, 431, 'request_header_too_large');
    expect(direct.headers['x-palisade-plane']).toBe('read');
    // Below the plane's limit, what the edge lets through is served.
    expect((await fetch(`${stack.planeUrls.read}/api/v2/auth/jwks.json`, { headers: Object.fromEntries(filler(4).map((h) => h.split(': '))) })).status).toBe(200);
  });

  it('answers a request line over 8 KiB with a structured 414 from the edge', async () => {
    expectRefusal(await raw(stack.baseUrl, get(`/api/v2/findings?cursor=${'c'.repeat(10_000)}`)), 414, 'uri_too_long');
  });

  it('answers malformed HTTP with a structured 400, at the edge and at the plane', async () => {
    const malformed = 'GET /api/v2/auth/jwks.json HTTP/1.1\r\nHost: palisade\r\nNot a header line\r\n\r\n';
    expectRefusal(await raw(stack.baseUrl, malformed), 400, 'bad_request');
    expectRefusal(await raw(stack.planeUrls.read!, malformed), 400, 'bad_request');
  });

  it('answers a malformed percent-escape in the path with a structured 400, from the edge or the plane', async () => {
    // Not even percent-encoding: nginx refuses it itself.
    expectRefusal(await raw(stack.baseUrl, get('/api/v2/scans/%E0%A4%A')), 400, 'bad_request');
    // Percent-encoding of bytes that are not UTF-8: the edge passes it, the plane's router refuses it.
    const res = await raw(stack.baseUrl, get('/api/v2/scans/%E0%A4'));
    expectRefusal(res, 400, 'bad_request');
    expect(res.headers['x-palisade-plane']).toBe('read');
  });

  it('never answers with nginx’s own HTML error page', async () => {
    for (const payload of ['GARBAGE\r\n\r\n', 'GET /api/v2/../../etc/passwd HTTP/1.1\r\nHost: p\r\nConnection: close\r\n\r\n', 'GET /%zz HTTP/1.1\r\nHost: p\r\nConnection: close\r\n\r\n']) {
      const res = await raw(stack.baseUrl, payload);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body).toMatchObject({ error_code: expect.any(String), correlation_id: res.headers['x-correlation-id'] });
    }
  });
});
