import { type AuthContext, authenticate, ServiceError } from '@nogpets/operations';
import type { Runtime } from './runtime.js';

/**
 * Who the request's Bearer credential speaks for: null without one, 401 for a bad one. An OAuth
 * token is accepted only by the resource it was issued for (the endpoint at `path` — `/v1`, `/mcp`
 * or `/mcp/business` — or the whole service); personal API keys carry no audience and work on all.
 */
export async function bearerAuth(
  runtime: Runtime,
  header: string | undefined,
  path: '/v1' | '/mcp' | '/mcp/business',
): Promise<AuthContext | null> {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m?.[1])
    throw new ServiceError('UNAUTHORIZED', 'Use "Authorization: Bearer <token or key>".', {
      error: 'invalid_request',
    });
  const base = runtime.publicUrl();
  return authenticate(runtime.deps.sql, m[1], runtime.deps.clock.now(), [base, `${base}${path}`]);
}
