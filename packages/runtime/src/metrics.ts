import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

export interface Metrics {
  registry: Registry;
  middleware: (req: Request, res: Response, next: NextFunction) => void;
  operationCalls: Counter<'operation' | 'transport' | 'outcome'>;
}

/** Prometheus metrics on a registry of our own (several apps may share one process in tests). */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const operationCalls = new Counter({
    name: 'nogpets_operation_calls_total',
    help: 'Operation calls by operation, transport (http or mcp) and outcome (ok or an error code)',
    labelNames: ['operation', 'transport', 'outcome'] as const,
    registers: [registry],
  });
  return {
    registry,
    operationCalls,
    middleware(req, res, next) {
      const end = duration.startTimer();
      res.on('finish', () => {
        // The matched route pattern, never the raw URL: keeps label cardinality bounded.
        const route = req.route?.path
          ? `${req.baseUrl}${req.route.path}`
          : res.statusCode === 404
            ? 'unmatched'
            : req.baseUrl || 'other';
        end({ method: req.method, route, status: String(res.statusCode) });
      });
      next();
    },
  };
}
