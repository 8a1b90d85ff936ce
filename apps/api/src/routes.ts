import { type Operation, type OperationContext, runOperation, toServiceError } from '@nogpets/operations';
import type { Runtime } from '@nogpets/platform';
import { type Request, Router } from 'express';
import { bodyInput, queryInput } from './input.js';

const CLIENT_NAME = /^[\p{L}\p{N} ._()/-]{1,80}$/u;

/** The operation context for an HTTP request. */
export function httpContext(runtime: Runtime, req: Request): OperationContext {
  const header = req.get('x-client-name');
  return {
    deps: runtime.deps,
    requestId: String(req.id),
    clientName: header && CLIENT_NAME.test(header) ? header : null,
    log: req.log,
  };
}

/** One express route per operation, derived from its definition; nothing here knows any operation. */
export function operationsRouter(runtime: Runtime, operations: readonly Operation[]): Router {
  const router = Router();
  for (const op of operations) {
    const method = op.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    router[method](op.path, async (req, res, next) => {
      const counter = runtime.metrics.operationCalls;
      try {
        const raw = op.inputIn === 'query' ? { ...queryInput(op.input, req.query), ...req.params } : bodyInput(req);
        const result = await runOperation(op, httpContext(runtime, req), raw);
        counter.inc({ operation: op.operationId, transport: 'http', outcome: 'ok' });
        res.status(op.successStatus).json(result);
      } catch (err) {
        counter.inc({ operation: op.operationId, transport: 'http', outcome: toServiceError(err).code });
        next(err);
      }
    });
  }
  return router;
}
