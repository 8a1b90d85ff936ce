import { randomBytes } from 'node:crypto';
import {
  deleteSession,
  findSessionUser,
  findUserByEmail,
  insertSession,
  type Queryable,
  settingOrCreate,
  type UserRow,
} from '@nogpets/store';
import { type Deps, hashSecret, isEmailAddress } from '../core/index.js';

/** How long a browser stays signed in. */
export const SESSION_DAYS = 14;

type SessionDeps = Pick<Deps, 'sql' | 'clock'>;

/** A browser's new session: the secret for its cookie (only the hash is stored) and how long it lasts. */
export interface WebSession {
  token: string;
  maxAgeSeconds: number;
}

/**
 * Checks a password against a stored hash (argon2, in the service). Given no hash it still takes
 * as long, and answers false: an unknown email and a wrong password look the same from outside.
 */
export type PasswordCheck = (passwordHash: string | null, password: string) => Promise<boolean>;

/** Opens a session on `sql`: a pool, or the transaction that decided who signs in. */
export async function openWebSession(sql: Queryable, userId: string, now: Date): Promise<WebSession> {
  const token = randomBytes(32).toString('base64url');
  await insertSession(sql, userId, hashSecret(token), new Date(now.getTime() + SESSION_DAYS * 86_400_000));
  return { token, maxAgeSeconds: SESSION_DAYS * 86_400 };
}

/**
 * Signs a person in on a browser whose sign-in was proven elsewhere (a followed sign-in link).
 * @example const { token, maxAgeSeconds } = await startWebSession(deps, user.id)
 */
export function startWebSession(deps: SessionDeps, userId: string): Promise<WebSession> {
  return openWebSession(deps.sql, userId, deps.clock.now());
}

/** The person a browser's session token signs in, while the session lasts; null otherwise. */
export function findWebSessionUser(deps: SessionDeps, token: string): Promise<UserRow | null> {
  return findSessionUser(deps.sql, hashSecret(token), deps.clock.now());
}

/** Signs a browser out: its session stops working at once. */
export function endWebSession(deps: Pick<Deps, 'sql'>, token: string): Promise<void> {
  return deleteSession(deps.sql, hashSecret(token));
}

/**
 * Signs in with email and password: a new session, or null when they do not match (whether the
 * email is unknown, has no password, or the password is wrong: the same answer in the same time).
 */
export async function signInWithPassword(
  deps: SessionDeps,
  credentials: { email: string; password: string },
  checkPassword: PasswordCheck,
): Promise<WebSession | null> {
  // Not an address at all (NUL, say) is an unknown email: no query, the same answer.
  const user = isEmailAddress(credentials.email) ? await findUserByEmail(deps.sql, credentials.email) : null;
  const matches = await checkPassword(user?.passwordHash ?? null, credentials.password);
  if (!matches || !user) return null;
  return startWebSession(deps, user.id);
}

/** The key form tokens are made with: made the first time, then the same for every instance. */
export function formTokenKey(deps: Pick<Deps, 'sql'>): Promise<string> {
  return settingOrCreate(deps.sql, 'form_token_key', () => randomBytes(32).toString('hex'));
}
