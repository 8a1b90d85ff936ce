import {
  appendAudit,
  type CredentialRow,
  listCredentials,
  revokeCredential,
  type UserRow,
} from '@nogpets/store';
import { createApiKey, type Deps, type NewApiKey } from '../core/index.js';

type KeyDeps = Pick<Deps, 'sql' | 'clock'>;

/** A person's API keys that still work, newest first: what the account page lists. */
export async function listApiKeys(deps: Pick<Deps, 'sql'>, userId: string): Promise<CredentialRow[]> {
  const keys = await listCredentials(deps.sql, userId, 'API_KEY');
  return keys.filter((k) => !k.revokedAt);
}

/**
 * A person makes an API key for themselves (the account page): the key, shown once. The key and
 * its audit record commit together; unknown or no scopes are refused (BAD_REQUEST), nothing made.
 */
export async function createAccountApiKey(
  deps: KeyDeps,
  user: Pick<UserRow, 'id' | 'email'>,
  request: { scopes: string[]; name: string },
): Promise<NewApiKey> {
  const now = deps.clock.now();
  return deps.sql.begin(async (tx) => {
    const created = await createApiKey(tx, { email: user.email, scopes: request.scopes, name: request.name });
    await appendAudit(
      tx,
      {
        userId: user.id,
        clientId: null,
        clientName: null,
        action: 'apikey.create',
        target: created.id,
        details: { scopes: request.scopes },
      },
      now,
    );
    return created;
  }) as Promise<NewApiKey>;
}

/**
 * Revokes one of a person's API keys, audited in the same transaction. False, and nothing
 * recorded, when the key is not theirs or was already revoked.
 */
export async function revokeApiKey(deps: KeyDeps, userId: string, keyId: string): Promise<boolean> {
  const now = deps.clock.now();
  return deps.sql.begin(async (tx) => {
    if (!(await revokeCredential(tx, userId, keyId, now))) return false;
    await appendAudit(
      tx,
      { userId, clientId: null, clientName: null, action: 'apikey.revoke', target: keyId },
      now,
    );
    return true;
  }) as Promise<boolean>;
}
