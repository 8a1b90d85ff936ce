import { createHash, randomBytes } from 'node:crypto';
import {
  findCredentialFull,
  findOrCreateUser,
  insertCredential,
  type Queryable,
  type Sql,
  touchCredential,
} from '@nogpets/store';
import { ServiceError } from './errors.js';

/** The spec's scopes, and what each lets an assistant do (for consent pages and key forms). */
/** What a credential may be allowed to do (the spec's scopes). */
export type Scope =
  | 'profile'
  | 'pets'
  | 'addresses'
  | 'bookings:read'
  | 'bookings:write'
  | 'orders:write'
  | 'business:write'
  | 'business:manage';

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
  /** WEB_SESSION: the person themselves on the account page, signed in with a browser session. */
  kind: 'API_KEY' | 'ACCESS' | 'WEB_SESSION';
  scopes: Scope[];
  /** The connected assistant, for OAuth tokens. */
  clientId: string | null;
  clientName: string | null;
}

/**
 * The 403 for a credential without the scope an operation needs, the same on /v1 and MCP. Its
 * `scope` lists the scopes held plus those missing, so a client that authorizes again with it
 * keeps what it had (MCP step-up; docs/decisions.md).
 * @example throw insufficientScope(ctx.auth, ['pets'])
 */
export function insufficientScope(
  auth: Pick<AuthContext, 'scopes'>,
  missing: readonly Scope[],
): ServiceError {
  return new ServiceError(
    'FORBIDDEN',
    `The credential does not allow this: it needs scope ${missing.join(' ')}.`,
    {
      error: 'insufficient_scope',
      scope: [...new Set([...auth.scopes, ...missing])].join(' '),
    },
  );
}

/** A scope of the spec's table (own keys only: `__proto__` and `toString` are not scopes). */
export function isScope(s: string): s is Scope {
  return Object.hasOwn(SCOPES, s);
}

/**
 * An address mail can go to and nothing else: one mailbox, no display name, list or comment that a
 * mailer would read as other recipients (`a@x.example<b@evil.example>`, `a,b@x.example`).
 */
export function isEmailAddress(email: string): boolean {
  return (
    email.length <= 254 &&
    /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/.test(
      email,
    )
  );
}

/** SHA-256 of a secret: what is stored; the secret itself is shown once and never kept. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/**
 * A new secret with a readable prefix (`npk_` personal key, `nat_` access, `nrt_` refresh, `npl_` pay
 * link, `ncf_` calendar feed, `nms_` MCP session): 256 bits.
 */
export function newSecret(prefix: 'npk' | 'nat' | 'nrt' | 'npl' | 'ncf' | 'nms'): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/** Who a Bearer credential speaks for, or 401: unknown, revoked or expired. */
export async function authenticate(
  sql: Sql,
  token: string,
  now: Date,
  acceptedResources?: string[],
): Promise<AuthContext> {
  const invalid = () =>
    new ServiceError('UNAUTHORIZED', 'The credential is not valid (unknown, expired or revoked).', {
      error: 'invalid_token',
    });
  if (!/^(npk|nat)_[A-Za-z0-9_-]{20,100}$/.test(token)) throw invalid();
  const c = await findCredentialFull(sql, hashSecret(token));
  if (!c || c.kind === 'REFRESH' || c.revokedAt || (c.expiresAt && c.expiresAt <= now)) throw invalid();
  // Audience: a token issued for another resource is not accepted here (RFC 8707).
  if (c.resource && acceptedResources && !acceptedResources.includes(c.resource.replace(/\/$/, '')))
    throw invalid();
  await touchCredential(sql, c, now);
  return {
    userId: c.userId,
    credentialId: c.id,
    kind: c.kind,
    scopes: c.scopes.filter(isScope),
    clientId: c.clientId,
    clientName: c.clientName,
  };
}

/** A new API key: the key itself (shown once, only its hash is kept), its id, owner and scopes. */
export interface NewApiKey {
  key: string;
  id: string;
  userId: string;
  scopes: Scope[];
}

/** A personal API key with the scopes chosen; the person is created if absent. The key is returned once. */
export async function createApiKey(
  sql: Queryable,
  input: { email: string; scopes: string[]; name?: string },
): Promise<NewApiKey> {
  const unknown = input.scopes.filter((s) => !isScope(s));
  if (unknown.length || input.scopes.length === 0) {
    throw new ServiceError(
      'BAD_REQUEST',
      `Unknown scopes: ${unknown.join(', ') || '(none given)'}. Known: ${SCOPE_NAMES.join(', ')}.`,
      { unknown },
    );
  }
  if (!isEmailAddress(input.email)) {
    throw new ServiceError('BAD_REQUEST', `"${input.email}" is not an email address.`, { field: 'email' });
  }
  const user = await findOrCreateUser(sql, input.email);
  const key = newSecret('npk');
  const scopes = [...new Set(input.scopes)] as Scope[];
  const id = await insertCredential(sql, {
    userId: user.id,
    kind: 'API_KEY',
    tokenHash: hashSecret(key),
    scopes,
    name: input.name ?? 'API key',
  });
  return { key, id, userId: user.id, scopes };
}
