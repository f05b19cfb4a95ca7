import type { Express } from 'express';
import type { Logger } from '../logging/logger';
import type { THttpMetrics } from './metrics';

export type TReadinessCheck = () => Promise<void>;

export interface TReadiness {
  /** Flipped off first on shutdown, so the balancer stops sending before we stop serving. */
  setAccepting(accepting: boolean): void;
}

/**
 * /healthz says the process is alive; /readyz that it can serve now (accepting, and every
 * dependency answers); /metrics is Prometheus text. All three are on the plane's own port:
 * the edge never routes to them.
 */
export function mountHealth(
  app: Express,
  options: { metrics: THttpMetrics; checks: Record<string, TReadinessCheck>; logger: Logger },
): TReadiness {
  let accepting = true;
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    if (!accepting) {
      res.status(503).json({ status: 'shutting_down' });
      return;
    }
    const results = await Promise.all(
      Object.entries(options.checks).map(async ([name, check]) => {
        try {
          await withTimeout(check(), 2000);
          return [name, 'ok'] as const;
        } catch (error) {
          options.logger.warn({ err: error, check: name }, 'readiness check failed');
          return [name, 'failing'] as const;
        }
      }),
    );
    const ready = results.every(([, state]) => state === 'ok');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks: Object.fromEntries(results) });
  });
  app.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', options.metrics.registry.contentType);
    res.send(await options.metrics.registry.metrics());
  });
  return { setAccepting: (value) => (accepting = value) };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error) => (clearTimeout(timer), reject(error)),
    );
  });
}
