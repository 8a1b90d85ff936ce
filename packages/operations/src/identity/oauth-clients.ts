import { randomUUID } from 'node:crypto';
import {
  findOAuthClient,
  insertOAuthClient,
  type OAuthClientRow,
  saveClientMetadataDocument,
} from '@nogpets/store';
import { cutText, type Deps } from '../core/index.js';

/** A client's metadata as OAuth clients send it (RFC 7591); what is read of it here. */
export type OAuthClientRegistration = Record<string, unknown> & {
  client_id?: string | undefined;
  client_name?: string | undefined;
  redirect_uris: readonly unknown[];
};

/** A known client's metadata, with its id. */
export type OAuthClientMetadata = OAuthClientRegistration & { client_id: string };

/** A client's metadata document as fetched, and how long it may be kept. */
export interface FetchedClientDocument {
  client: OAuthClientMetadata;
  cacheSeconds: number;
}

/** The metadata a client was stored with, under its own id and redirect URIs. */
function metadataOf(row: OAuthClientRow): OAuthClientMetadata {
  return { ...row.metadata, client_id: row.id, redirect_uris: row.redirectUris };
}

/** A client registered here (RFC 7591) or known by a cached metadata document; null when unknown. */
export async function findOAuthClientMetadata(
  deps: Pick<Deps, 'sql'>,
  clientId: string,
): Promise<OAuthClientMetadata | null> {
  const row = await findOAuthClient(deps.sql, clientId);
  return row ? metadataOf(row) : null;
}

/**
 * A client known by the URL of its metadata document: the cached copy while it is fresh, else the
 * document `fetchDocument` gets, cached for as long as it allows. Its errors pass through.
 */
export async function clientFromMetadataDocument(
  deps: Pick<Deps, 'sql' | 'clock'>,
  clientId: string,
  fetchDocument: (clientId: string) => Promise<FetchedClientDocument>,
): Promise<OAuthClientMetadata> {
  const row = await findOAuthClient(deps.sql, clientId);
  if (row?.kind === 'METADATA_DOCUMENT' && row.staleAt && row.staleAt > deps.clock.now())
    return metadataOf(row);
  const { client, cacheSeconds } = await fetchDocument(clientId);
  await saveClientMetadataDocument(deps.sql, {
    id: clientId,
    name: cutText(client.client_name ?? new URL(clientId).host, 120),
    redirectUris: client.redirect_uris.map(String),
    metadata: client,
    staleAt: new Date(deps.clock.now().getTime() + cacheSeconds * 1000),
  });
  return client;
}

/**
 * Registers a client (RFC 7591 dynamic registration) under the id it comes with, else a new one:
 * its metadata as stored, id included.
 */
export async function registerOAuthClient(
  deps: Pick<Deps, 'sql'>,
  client: OAuthClientRegistration,
): Promise<OAuthClientMetadata> {
  const info = { ...client, client_id: client.client_id ?? randomUUID() };
  await insertOAuthClient(deps.sql, {
    id: info.client_id,
    name: cutText(client.client_name ?? 'Unnamed assistant', 120),
    redirectUris: client.redirect_uris.map(String),
    metadata: info,
  });
  return info;
}
