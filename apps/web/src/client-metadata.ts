import { lookup } from 'node:dns/promises';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { OAuthClientMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { findUnstorableText } from '@nogpets/operations';
import ipaddr from 'ipaddr.js';

/** Limits for fetching a client's metadata document (docs/decisions.md, "Client ID Metadata Documents"). */
export const DOCUMENT_MAX_BYTES = 10_000;
export const DOCUMENT_TIMEOUT_MS = 5_000;
export const DOCUMENT_MIN_CACHE_SECONDS = 300;
export const DOCUMENT_MAX_CACHE_SECONDS = 86_400;
export const DOCUMENT_DEFAULT_CACHE_SECONDS = 3_600;

export class ClientDocumentError extends Error {}

export interface ClientDocumentOptions {
  /**
   * Accept `http://` documents on loopback hosts. Only a service that itself runs on loopback
   * (development, tests) does: the public service fetches https from public addresses only.
   */
  allowLoopback: boolean;
}

/** A client_id that names a metadata document rather than a registration. */
export function isClientIdUrl(clientId: string): boolean {
  return clientId.startsWith('https://') || clientId.startsWith('http://');
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Schemes that are the browser's or another protocol's, never a native app's own: a redirect there
 * runs script, reads files or leaves the web. (Dot-less app schemes such as cursor: are in real use
 * by MCP clients, so app schemes are refused by this list rather than by RFC 8252's '.' advice.)
 */
const NOT_APP_SCHEMES = new Set([
  'javascript',
  'data',
  'file',
  'vbscript',
  'about',
  'blob',
  'filesystem',
  'ftp',
  'ws',
  'wss',
  'mailto',
  'tel',
  'sms',
  'view-source',
  'intent',
  'chrome',
  'chrome-extension',
  'moz-extension',
]);

/**
 * Why a client may not use this redirect URI, or null when it may: https; http only on loopback
 * (RFC 8252 §7.3); a native app's own scheme (RFC 8252 §7.1); never a fragment (RFC 6749 §3.1.2).
 * file:, javascript:, data: and the like are refused.
 */
export function checkRedirectUri(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `redirect URI ${uri} is not an absolute URI.`;
  }
  // URL drops an empty fragment ('…/cb#'), so look at the text itself.
  if (uri.includes('#')) return `redirect URI ${uri} must not have a fragment.`;
  if (url.protocol === 'http:' && !LOOPBACK_NAMES.has(url.hostname)) {
    return `redirect URI ${uri} must use https (http only on a loopback host such as 127.0.0.1).`;
  }
  if (url.protocol === 'https:' || url.protocol === 'http:') return null;
  if (!NOT_APP_SCHEMES.has(url.protocol.slice(0, -1).toLowerCase())) return null;
  return `redirect URI ${uri} must use https, http on loopback, or an app's own scheme such as com.example.app:/callback.`;
}

/** Checks the URL form the draft requires: https, a path, no fragment, no credentials, canonical. */
function checkClientIdUrl(clientId: string, options: ClientDocumentOptions): URL {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    throw new ClientDocumentError('client_id is not a valid URL.');
  }
  const loopback = LOOPBACK_NAMES.has(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback && options.allowLoopback)) {
    throw new ClientDocumentError('A client_id URL must use https.');
  }
  if (url.pathname === '/' || url.hash || url.username || url.password) {
    throw new ClientDocumentError('A client_id URL needs a path, and no fragment or credentials.');
  }
  if (url.href !== clientId) throw new ClientDocumentError('A client_id URL must be in its normalised form.');
  return url;
}

/** Refuses hosts that resolve to loopback, private, link-local or other non-public addresses. */
async function checkPublicHost(url: URL, options: ClientDocumentOptions): Promise<void> {
  if (options.allowLoopback && LOOPBACK_NAMES.has(url.hostname)) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(host)
      ? [host]
      : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    throw new ClientDocumentError(`The host ${url.hostname} could not be resolved.`);
  }
  for (const address of addresses) {
    let parsed = ipaddr.parse(address);
    if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
      parsed = (parsed as ipaddr.IPv6).toIPv4Address();
    if (parsed.range() !== 'unicast')
      throw new ClientDocumentError(`The host ${url.hostname} is not on a public address.`);
  }
}

/** How long the document may be kept: its Cache-Control max-age, within bounds. */
function cacheSeconds(header: string | null): number {
  const m = /(?:^|,)\s*max-age=(\d+)/i.exec(header ?? '');
  if (/no-store|no-cache/i.test(header ?? '')) return DOCUMENT_MIN_CACHE_SECONDS;
  const seconds = m ? Number(m[1]) : DOCUMENT_DEFAULT_CACHE_SECONDS;
  return Math.min(DOCUMENT_MAX_CACHE_SECONDS, Math.max(DOCUMENT_MIN_CACHE_SECONDS, seconds));
}

async function readLimited(res: Response): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > DOCUMENT_MAX_BYTES)
    throw new ClientDocumentError(`The metadata document is larger than ${DOCUMENT_MAX_BYTES} bytes.`);
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > DOCUMENT_MAX_BYTES) {
      await reader.cancel();
      throw new ClientDocumentError(`The metadata document is larger than ${DOCUMENT_MAX_BYTES} bytes.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Fetches and checks a Client ID Metadata Document: the client_id inside must be the URL itself,
 * the client is public (no secret; `none` at the token endpoint), and it names its redirect URIs.
 */
export async function fetchClientMetadataDocument(
  clientId: string,
  options: ClientDocumentOptions,
): Promise<{ client: OAuthClientInformationFull; cacheSeconds: number }> {
  const url = checkClientIdUrl(clientId, options);
  await checkPublicHost(url, options);
  let res: Response;
  try {
    res = await fetch(url, {
      redirect: 'error',
      signal: AbortSignal.timeout(DOCUMENT_TIMEOUT_MS),
      headers: { accept: 'application/json' },
    });
  } catch {
    throw new ClientDocumentError(`The metadata document at ${clientId} could not be fetched.`);
  }
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new ClientDocumentError(`The metadata document at ${clientId} answered ${res.status}.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(await readLimited(res));
  } catch (err) {
    if (err instanceof ClientDocumentError) throw err;
    throw new ClientDocumentError('The metadata document is not JSON.');
  }
  // Text we could not store (NUL, a lone surrogate) makes the document unusable, as bad JSON would.
  const unstorable = findUnstorableText(json);
  if (unstorable)
    throw new ClientDocumentError(`The metadata document's ${unstorable.field}: ${unstorable.message}`);
  const parsed = OAuthClientMetadataSchema.safeParse(json);
  if (!parsed.success)
    throw new ClientDocumentError(
      `The metadata document is not valid client metadata: ${parsed.error.issues[0]?.message ?? ''}`,
    );
  const doc = json as Record<string, unknown>;
  if (doc.client_id !== clientId)
    throw new ClientDocumentError('The metadata document names another client_id.');
  if ('client_secret' in doc || 'client_secret_expires_at' in doc)
    throw new ClientDocumentError('A metadata document must not carry a client secret.');
  const method = parsed.data.token_endpoint_auth_method ?? 'none';
  if (method !== 'none')
    throw new ClientDocumentError(
      `token_endpoint_auth_method ${method} is not supported for metadata documents; use none.`,
    );
  if (!parsed.data.redirect_uris.length)
    throw new ClientDocumentError('The metadata document names no redirect_uris.');
  for (const uri of parsed.data.redirect_uris) {
    const problem = checkRedirectUri(uri);
    if (problem) throw new ClientDocumentError(`The metadata document's ${problem}`);
  }
  return {
    client: {
      ...parsed.data,
      client_id: clientId,
      token_endpoint_auth_method: 'none',
    } as OAuthClientInformationFull,
    cacheSeconds: cacheSeconds(res.headers.get('cache-control')),
  };
}
