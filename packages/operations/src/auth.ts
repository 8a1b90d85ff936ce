import { createHash, randomBytes } from 'node:crypto';
import { findCredentialFull, findOrCreateUser, insertCredential, type Sql, touchCredential } from '@nogpets/store';
import type { Scope } from './define.js';
import { ServiceError } from './errors.js';

/** The spec's scopes, and what each lets an assistant do (for consent pages and key forms). */
export const SCOPES: Record<Scope, string> = {
  profile: 'See your name, email and phone',
  pets: 'See and add your pets',
  addresses: 'See and add your addresses',
  'bookings:read': 'See your bookings and find times to move them',
  'bookings:write': 'Book, move, cancel and pay for bookings (you approve all money)',
  'orders:write': 'Buy from the shop (you approve all money)',
  'business:write': 'Sign up a pet business for you',
  'business:manage': 'Run your approved pet business',
};

export const SCOPE_NAMES = Object.keys(SCOPES) as Scope[];

export interface AuthContext {
  userId: string;
  credentialId: string;
  kind: 'API_KEY' | 'ACCESS';
  scopes: Scope[];
  /** The connected assistant, for OAuth tokens. */
  clientId: string | null;
  clientName: string | null;
}

/** SHA-256 of a secret: what is stored; the secret itself is shown once and never kept. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** A new secret with a readable prefix (`npk_` personal key, `nat_` access, `nrt_` refresh): 256 bits. */
export function newSecret(prefix: 'npk' | 'nat' | 'nrt' | 'npl'): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/** Who a Bearer credential speaks for, or 401: unknown, revoked or expired. */
export async function authenticate(sql: Sql, token: string, now: Date, acceptedResources?: string[]): Promise<AuthContext> {
  const invalid = () => new ServiceError('UNAUTHORIZED', 'The credential is not valid (unknown, expired or revoked).', { error: 'invalid_token' });
  if (!/^(npk|nat)_[A-Za-z0-9_-]{20,100}$/.test(token)) throw invalid();
  const c = await findCredentialFull(sql, hashSecret(token));
  if (!c || c.kind === 'REFRESH' || c.revokedAt || (c.expiresAt && c.expiresAt <= now)) throw invalid();
  // Audience: a token issued for another resource is not accepted here (RFC 8707).
  if (c.resource && acceptedResources && !acceptedResources.includes(c.resource.replace(/\/$/, ''))) throw invalid();
  await touchCredential(sql, c.id, now);
  return {
    userId: c.userId,
    credentialId: c.id,
    kind: c.kind,
    scopes: c.scopes.filter((s): s is Scope => s in SCOPES),
    clientId: c.clientId,
    clientName: c.clientName,
  };
}

/** A personal API key with the scopes chosen; the person is created if absent. The key is returned once. */
export async function createApiKey(
  sql: Sql,
  input: { email: string; scopes: string[]; name?: string },
): Promise<{ key: string; id: string; userId: string; scopes: Scope[] }> {
  const unknown = input.scopes.filter((s) => !(s in SCOPES));
  if (unknown.length || input.scopes.length === 0) {
    throw new ServiceError('BAD_REQUEST', `Unknown scopes: ${unknown.join(', ') || '(none given)'}. Known: ${SCOPE_NAMES.join(', ')}.`, { unknown });
  }
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(input.email) || input.email.length > 254) {
    throw new ServiceError('BAD_REQUEST', `"${input.email}" is not an email address.`, { field: 'email' });
  }
  const user = await findOrCreateUser(sql, input.email);
  const key = newSecret('npk');
  const scopes = [...new Set(input.scopes)] as Scope[];
  const id = await insertCredential(sql, { userId: user.id, kind: 'API_KEY', tokenHash: hashSecret(key), scopes, name: input.name ?? 'API key' });
  return { key, id, userId: user.id, scopes };
}
