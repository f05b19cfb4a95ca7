// A local HTTP server standing in for third-party systems (webhook receivers, SCM, chat and
// ticketing APIs): it records every request and answers what the test tells it to.
import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export type TRecordedRequest = {
  method: string;
  /** Path with query string, as received. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  at: Date;
};

export type TRecordedResponse = {
  status: number;
  headers?: Record<string, string>;
  /** A Buffer or string is sent as is; anything else as JSON. */
  body?: unknown;
};

export type TRecordingServerOptions = {
  respond?: (req: TRecordedRequest) => TRecordedResponse | Promise<TRecordedResponse>;
};

export type TRecordingServer = {
  url: string;
  requests: TRecordedRequest[];
  /** Resolves once at least `count` requests arrived; rejects after `timeoutMs`. */
  waitForRequests(count: number, timeoutMs?: number): Promise<TRecordedRequest[]>;
  close(): Promise<void>;
};

const DEFAULT_RESPONSE: TRecordedResponse = { status: 200, body: { ok: true } };

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function encode(body: unknown): { payload: Buffer; json: boolean } {
  if (body === undefined) return { payload: Buffer.alloc(0), json: false };
  if (Buffer.isBuffer(body)) return { payload: body, json: false };
  if (typeof body === 'string') return { payload: Buffer.from(body), json: false };
  return { payload: Buffer.from(JSON.stringify(body)), json: true };
}

export async function startRecordingServer(options: TRecordingServerOptions = {}): Promise<TRecordingServer> {
  const requests: TRecordedRequest[] = [];
  const waiters = new Set<() => void>();

  const server = createServer(async (req, res) => {
    try {
      const recorded: TRecordedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: await readBody(req),
        at: new Date(),
      };
      requests.push(recorded);
      for (const wake of waiters) wake();
      const reply = options.respond ? await options.respond(recorded) : DEFAULT_RESPONSE;
      const { payload, json } = encode(reply.body);
      const headers: Record<string, string> = { ...(json ? { 'content-type': 'application/json' } : {}), ...reply.headers };
      res.writeHead(reply.status, { ...headers, 'content-length': String(payload.length) });
      res.end(payload);
    } catch (err) {
      // A throwing respond() is a test bug; answer 500 so the caller sees it rather than hangs.
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`recording server: ${err instanceof Error ? err.message : String(err)}`);
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    waitForRequests(count, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (requests.length < count) return;
          cleanup();
          resolve(requests.slice());
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`recording server: ${requests.length} of ${count} requests after ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close() {
      return new Promise((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
