import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface THttpMetrics {
  registry: Registry;
  requestDuration: Histogram<'method' | 'operation' | 'status'>;
  requestsTotal: Counter<'method' | 'operation' | 'status'>;
}

/** One registry per process; `operation` is the contract's operationId, so labels stay bounded. */
export function createHttpMetrics(plane: string): THttpMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ plane });
  collectDefaultMetrics({ register: registry });
  const requestDuration = new Histogram({
    name: 'palisade_http_request_duration_seconds',
    help: 'HTTP request duration by operation',
    labelNames: ['method', 'operation', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const requestsTotal = new Counter({
    name: 'palisade_http_requests_total',
    help: 'HTTP requests by operation and status',
    labelNames: ['method', 'operation', 'status'] as const,
    registers: [registry],
  });
  return { registry, requestDuration, requestsTotal };
}
