// The processes behind the edge, their ports, and the environment they are started with.
import path from 'node:path';
import { REPO_ROOT } from './shell.mjs';

export const PLANE_PROCESSES = [
  { name: 'read', app: 'read-api', port: 4101 },
  { name: 'write', app: 'write-api', port: 4102 },
  { name: 'callback', app: 'callback-api', port: 4103 },
  { name: 'sse', app: 'sse', port: 4104 },
  { name: 'admin', app: 'admin-api', port: 4105 },
  { name: 'worker', app: 'worker', port: 4106 },
];

export const EDGE_PLANES = PLANE_PROCESSES.filter((p) => p.name !== 'worker');

export const entryOf = (proc) => path.join(REPO_ROOT, 'apps', proc.app, 'src', 'main.ts');

/** Environment shared by every plane and the worker (PORT is added per process). */
export function planeEnv({ databaseUrl, redisUrl, publicBaseUrl, secrets }) {
  return {
    ...process.env,
    NODE_ENV: process.env.NODE_ENV || 'development',
    HOST: process.env.HOST || '127.0.0.1',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: process.env.REDIS_PREFIX || 'palisade:',
    LOG_LEVEL: process.env.LOG_LEVEL || 'info',
    // On for local use (issue: the document is served under `npm start`); the container config keeps it off.
    OPENAPI_ENABLED: process.env.OPENAPI_ENABLED || 'true',
    // A single-user stack on this machine may scan the repositories on its disk (file:// URLs);
    // the container config keeps them off, where one tenant could read another's.
    FILE_REPOSITORIES_ENABLED: process.env.FILE_REPOSITORIES_ENABLED || 'true',
    PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL || publicBaseUrl,
    WORKER_QUEUES: process.env.WORKER_QUEUES || 'all',
    ...secrets,
  };
}
