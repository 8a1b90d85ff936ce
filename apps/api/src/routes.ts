import {
  type Operation,
  type OperationContext,
  runOperation,
  ServiceError,
  statedClientName,
  toServiceError,
} from '@nogpets/operations';
import { bearerAuth, type Runtime } from '@nogpets/runtime';
import { createHash } from 'node:crypto';
import { type Request, Router } from 'express';
import { bodyInput, queryInput } from './input.js';

/** The operation context for an HTTP request. */
export async function httpContext(runtime: Runtime, req: Request): Promise<OperationContext> {
  return {
    deps: runtime.deps,
    requestId: String(req.id),
    clientName: statedClientName(req.get('x-client-name')),
    auth: await bearerAuth(runtime, req.get('authorization'), '/v1'),
    log: req.log,
    idempotencyKey: req.get('idempotency-key'),
    callerAddress: req.ip,
  };
}

// Handlers may hand out the same object while their data is fresh (the catalogue does); its JSON
// text and ETag are then made once, not on every request.
const serialized = new WeakMap<object, { text: string; etag: string }>();
const seenOnce = new WeakSet<object>();

/** The cached text and ETag of an answer handed out before; null the first time it is seen. */
function cachedJson(result: object): { text: string; etag: string } | null {
  let entry = serialized.get(result);
  if (!entry) {
    if (!seenOnce.has(result)) {
      seenOnce.add(result);
      return null;
    }
    const text = JSON.stringify(result);
    entry = { text, etag: `W/"${createHash('sha1').update(text).digest('base64url').slice(0, 27)}"` };
    serialized.set(result, entry);
  }
  return entry;
}

/** The success status of a call: `statusWhen`'s when the input names its field, else the operation's. */
function successStatusOf(op: Operation, raw: unknown): number {
  const when = op.statusWhen;
  const given =
    when && raw && typeof raw === 'object' ? (raw as Record<string, unknown>)[when.field] : undefined;
  return when && given !== undefined && given !== null ? when.status : op.successStatus;
}

/** One express route per operation, derived from its definition; nothing here knows any operation. */
export function operationsRouter(runtime: Runtime, operations: readonly Operation[]): Router {
  const router = Router();
  for (const op of operations) {
    const method = op.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    router[method](op.path, async (req, res, next) => {
      const counter = runtime.metrics.operationCalls;
      try {
        const raw =
          op.inputIn === 'query' ? { ...queryInput(op.input, req.query), ...req.params } : bodyInput(req);
        const result = await runOperation(op, await httpContext(runtime, req), raw);
        counter.inc({ operation: op.operationId, transport: 'http', outcome: 'ok' });
        const cached =
          op.method === 'GET' && typeof result === 'object' && result !== null ? cachedJson(result) : null;
        if (cached) {
          // Answers served from a cache carry an ETag so clients can revalidate; made once per answer.
          const { text, etag } = cached;
          res.setHeader('ETag', etag);
          if (req.fresh) {
            res.status(304).end();
            return;
          }
          res.status(op.successStatus).type('application/json').send(text);
        } else {
          res.status(successStatusOf(op, raw)).json(result);
        }
      } catch (err) {
        counter.inc({ operation: op.operationId, transport: 'http', outcome: toServiceError(err).code });
        next(err);
      }
    });
  }
  // A known path asked with another method: 405 with the methods it takes (OPTIONS: just those).
  const methodsOf = new Map<string, string[]>();
  for (const op of operations) methodsOf.set(op.path, [...(methodsOf.get(op.path) ?? []), op.method]);
  for (const [path, methods] of methodsOf) {
    const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
    router.all(path, (req, res, next) => {
      res.setHeader('Allow', allow);
      if (req.method === 'OPTIONS') {
        res.status(204).end();
        return;
      }
      next(
        new ServiceError('METHOD_NOT_ALLOWED', `${path} takes ${methods.join(' or ')}, not ${req.method}.`, {
          allow: allow.split(', '),
        }),
      );
    });
  }
  return router;
}
