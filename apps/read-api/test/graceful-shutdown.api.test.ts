import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { createTestDatabase, createTestRedisPrefix, freePort, REPO_ROOT } from '@palisade/testing';

// One real plane process, started as `npm start` starts it (tsx, sources), stopped the way a
// supervisor or Kubernetes stops it: SIGTERM while a request is still arriving.
interface TPlaneProcess {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function spawnPlane(app: 'read-api' | 'write-api', env: Record<string, string>, port: number): TPlaneProcess {
  let output = '';
  const child = spawn(process.execPath, ['--conditions=palisade-source', '--import', 'tsx', path.join(REPO_ROOT, 'apps', app, 'src/main.ts')], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'test', HOST: '127.0.0.1', LOG_LEVEL: 'info', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, port, output: () => output, exited };
}

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function readyz(port: number): Promise<number | 'refused'> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2000) })).status;
  } catch {
    return 'refused';
  }
}

async function waitUntilReady(plane: TPlaneProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if ((await readyz(plane.port)) === 200) return;
    if (plane.child.exitCode !== null) throw new Error(`plane exited before it was ready:\n${plane.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`plane not ready in 60 s:\n${plane.output()}`);
}

describe('a plane process stopping', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let redis: Awaited<ReturnType<typeof createTestRedisPrefix>>;
  let env: Record<string, string>;
  const spawned: TPlaneProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    redis = await createTestRedisPrefix();
    env = {
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      SHUTDOWN_TIMEOUT_MS: '10000',
    };
  });
  afterAll(async () => {
    for (const plane of spawned) if (plane.child.exitCode === null && plane.child.signalCode === null) plane.child.kill('SIGKILL');
    await redis?.cleanup();
    await database?.drop();
  });

  it('on SIGTERM stops taking connections, finishes the request in flight, closes its connections and exits 0', async () => {
    const plane = spawnPlane('read-api', env, await freePort());
    spawned.push(plane);
    await waitUntilReady(plane);

    // A request whose body is still arriving: in flight until the last byte is sent.
    const socket = net.connect(plane.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let response = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (response += chunk));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.write('GET /api/v2/auth/jwks.json HTTP/1.1\r\nHost: plane\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{');
    await new Promise((resolve) => setTimeout(resolve, 300));

    plane.child.kill('SIGTERM');
    // Readiness flips first, then the listener closes: a balancer sees 503 or a refused connection.
    const seen = await within(
      (async () => {
        for (;;) {
          const status = await readyz(plane.port);
          if (status === 503 || status === 'refused') return status;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })(),
      5000,
      '/readyz turning 503 or the listener closing',
    );
    expect([503, 'refused']).toContain(seen);
    expect(plane.child.exitCode).toBeNull();

    socket.write('}');
    await within(closed, 10_000, 'the in-flight connection closing');
    expect(response).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4))).toMatchObject({ keys: expect.any(Array) });

    const exit = await within(plane.exited, 15_000, 'the process exiting');
    expect(exit).toEqual({ code: 0, signal: null });
    const lines = plane.output().split('\n').filter(Boolean).map((line) => { try { return JSON.parse(line); } catch { return { msg: line }; } });
    expect(lines.map((line) => line.msg)).toEqual(expect.arrayContaining(['shutting down', 'shut down cleanly']));
    expect(lines.some((line) => /redis did not answer/.test(line.msg ?? ''))).toBe(false);
  }, 90_000);

  it('exits 1, after logging why, when it cannot boot', async () => {
    // The write plane reads the database at boot (it makes the first signing key): here there is none.
    const nothing = await freePort();
    const plane = spawnPlane('write-api', { ...env, DATABASE_URL: `postgresql://palisade:x@127.0.0.1:${nothing}/none?connect_timeout=2` }, await freePort());
    spawned.push(plane);
    const exit = await within(plane.exited, 60_000, 'the process exiting');
    expect(exit).toEqual({ code: 1, signal: null });
    expect(plane.output()).toMatch(/"level":60.*write plane failed to start/);
  }, 90_000);

  it('exits 1 when its port is taken', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const plane = spawnPlane('read-api', env, port);
      spawned.push(plane);
      const exit = await within(plane.exited, 60_000, 'the process exiting');
      expect(exit).toEqual({ code: 1, signal: null });
      expect(plane.output()).toMatch(/read plane failed to start.*EADDRINUSE|EADDRINUSE.*read plane failed to start/);
    } finally {
      taken.close();
    }
  }, 90_000);
});
