// The whole service as separate processes behind a real nginx, for tests that must see what a
// client sees: the planes started from source on free ports, the edge generated for those ports.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PLANES, type TPlane } from '@palisade/contracts';
import { freePort, REPO_ROOT, startEdgeNginx, tsNodeArgs, waitForOk, type TEdgeNginx } from './edge-nginx';
import { ManagedProcess } from './managed-process';

/** The app folder of each plane. */
export const PLANE_APPS: Readonly<Record<TPlane, string>> = {
  read: 'read-api',
  write: 'write-api',
  callback: 'callback-api',
  sse: 'sse',
  admin: 'admin-api',
};

export interface TStartStackOptions {
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  /** Planes to run (default all five). A plane left out answers 502 through the edge. */
  planes?: TPlane[];
  /** Extra environment for every plane (overrides the defaults below). */
  env?: Record<string, string>;
  /** How long each plane may take to answer /readyz (default 60 s: cold tsx compiles). */
  readyTimeoutMs?: number;
  /**
   * Processes per plane (default 1). The edge sends to the first; the others are reachable
   * directly through `replicaUrls`, for tests of state that must hold across processes.
   */
  replicas?: Partial<Record<TPlane, number>>;
  /**
   * 'source' (default): each plane's TypeScript through tsx, as tests run it. 'compiled': each
   * plane's `dist/main.js` as the Dockerfile runs it (after `npm run build`), for benchmarks:
   * tsx's per-closure name helpers and export getters cost a measurable share of a hot path.
   */
  runtime?: 'source' | 'compiled';
}

export interface TStack {
  /** The edge: `http://127.0.0.1:<port>`. */
  baseUrl: string;
  /** Each started plane directly, bypassing the edge. */
  planeUrls: Partial<Record<TPlane, string>>;
  /** Every process of each plane (the first is the one in `planeUrls`). */
  replicaUrls: Partial<Record<TPlane, string[]>>;
  /** Everything the plane wrote to stdout (pino JSON lines) and stderr; 'edge' is nginx's logs. */
  logs(plane: TPlane | 'edge'): string;
  stop(): Promise<void>;
}

/**
 * Starts the chosen planes and the edge. On any failure everything already started is stopped
 * before the error is thrown, so a failing beforeAll leaves no process behind.
 */
export async function startStack(options: TStartStackOptions): Promise<TStack> {
  const planes = options.planes ?? [...PLANES];
  const ports = Object.fromEntries(await Promise.all(PLANES.map(async (plane) => [plane, await freePort()]))) as Record<TPlane, number>;
  const edgePort = await freePort();
  const baseUrl = `http://127.0.0.1:${edgePort}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl,
    REDIS_PREFIX: options.redisPrefix,
    PUBLIC_BASE_URL: baseUrl,
    OPENAPI_ENABLED: 'false',
    // One key for all planes, as in a deployment: a token issued by one verifies on another.
    KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ...options.env,
  };
  delete env.DATABASE_READ_URL;

  const children = new Map<TPlane, ManagedProcess>();
  const replicas: Array<{ plane: TPlane; port: number; child: ManagedProcess }> = [];
  let edge: TEdgeNginx | undefined;
  const stop = async () => {
    // Planes first (they drain through the edge), then the edge.
    await Promise.all([...children.values(), ...replicas.map((replica) => replica.child)].map((child) => child.stop()));
    await edge?.stop();
  };
  const planeLogs = (plane: TPlane) => {
    const child = children.get(plane);
    return child ? `${child.stdout}${child.stderr}` : '';
  };

  try {
    const spawnPlane = (plane: TPlane, port: number, name: string) =>
      new ManagedProcess({
        name,
        command: process.execPath,
        args: planeArgs(plane, options.runtime ?? 'source'),
        cwd: REPO_ROOT,
        env: { ...env, PORT: String(port) },
      });
    for (const plane of planes) {
      children.set(plane, spawnPlane(plane, ports[plane], `${plane} plane`));
      for (let n = 2; n <= (options.replicas?.[plane] ?? 1); n++) {
        const port = await freePort();
        replicas.push({ plane, port, child: spawnPlane(plane, port, `${plane} plane #${n}`) });
      }
    }
    const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
    await Promise.all([
      ...planes.map((plane) => waitForOk(`http://127.0.0.1:${ports[plane]}/readyz`, children.get(plane)!, readyTimeoutMs, () => planeLogs(plane))),
      ...replicas.map(({ port, child }) => waitForOk(`http://127.0.0.1:${port}/readyz`, child, readyTimeoutMs, () => `${child.stdout}${child.stderr}`)),
    ]);
    edge = await startEdgeNginx({ upstreams: ports, port: edgePort });
  } catch (error) {
    await stop();
    throw error;
  }

  const edgeLogs = edge.logs;
  return {
    baseUrl,
    planeUrls: Object.fromEntries(planes.map((plane) => [plane, `http://127.0.0.1:${ports[plane]}`])),
    replicaUrls: Object.fromEntries(
      planes.map((plane) => [plane, [ports[plane], ...replicas.filter((r) => r.plane === plane).map((r) => r.port)].map((port) => `http://127.0.0.1:${port}`)]),
    ),
    logs: (plane) => (plane === 'edge' ? edgeLogs() : planeLogs(plane)),
    stop,
  };
}

function planeArgs(plane: TPlane, runtime: 'source' | 'compiled'): string[] {
  const app = path.join(REPO_ROOT, 'apps', PLANE_APPS[plane]);
  if (runtime === 'source') return tsNodeArgs(path.join(app, 'src/main.ts'));
  const main = path.join(app, 'dist/main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first`);
  return [main];
}
