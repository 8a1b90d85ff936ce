import * as openapiFetch from 'openapi-fetch';
import type { Client, Middleware } from 'openapi-fetch';
import { READ_ONLY_REQUESTS } from './reads.js';
import type { components, paths } from './schema.js';

/**
 * openapi-fetch's `createClient`, its default export. Our CommonJS build (index.cjs) require()s
 * openapi-fetch's CommonJS build, which keeps it on `exports.default`; the bundler's Node-style
 * interop makes the whole `exports` object the default there, so a plain default import called that
 * object (`createNogPetsClient` threw under require()).
 */
const createClient: typeof openapiFetch.default =
  typeof openapiFetch.default === 'function'
    ? openapiFetch.default
    : (openapiFetch.default as unknown as { default: typeof openapiFetch.default }).default;

export type { components, operations, paths } from './schema.js';
export { READ_ONLY_REQUESTS } from './reads.js';

/** Every error of the API: `{error: {code, message, details}}`; `details` depends on `code`. */
export type ErrorBody = components['schemas']['Error'];
/** The stable error codes (`error.code`). */
export type ErrorCode = components['schemas']['ErrorCode'];
/** A client of the NogPets API: openapi-fetch's, typed with every path of the OpenAPI document. */
export type NogPetsClient = Client<paths>;

export interface NogPetsClientOptions {
  /** The server's address without `/v1`, e.g. `http://localhost:3000` (paths start with `/v1`). */
  baseUrl: string;
  /** A personal API key or an OAuth access token, sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** A fetch to use instead of `globalThis.fetch` (one that retries keeps each request's Idempotency-Key). */
  fetch?: (input: Request) => Promise<Response>;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /**
   * Give every change (a request other than GET that is not read-only) a fresh `Idempotency-Key`
   * (`crypto.randomUUID()`) unless it already carries one. Default true.
   */
  idempotencyKeys?: boolean;
}

/** Whether a request changes something: not GET or HEAD, and not one of the read-only operations sent as POST. */
export function isChange(method: string, schemaPath: string): boolean {
  const m = method.toUpperCase();
  return m !== 'GET' && m !== 'HEAD' && !READ_ONLY_REQUESTS.includes(`${m} ${schemaPath}`);
}

/** The middleware `createNogPetsClient` adds: the Bearer credential and the Idempotency-Key of changes. */
export function nogPetsMiddleware(
  options: Pick<NogPetsClientOptions, 'token' | 'idempotencyKeys'>,
): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      if (options.token && !request.headers.has('authorization')) {
        request.headers.set('Authorization', `Bearer ${options.token}`);
      }
      if (
        options.idempotencyKeys !== false &&
        isChange(request.method, schemaPath) &&
        !request.headers.has('idempotency-key')
      ) {
        request.headers.set('Idempotency-Key', globalThis.crypto.randomUUID());
      }
      return request;
    },
  };
}

/**
 * A typed client of the NogPets API. Each call answers `{ data, error, response }`: `data` is the
 * success body, `error` the `{error: {code, message, details}}` body of a refusal, both typed from
 * the OpenAPI document.
 *
 * ```ts
 * const api = createNogPetsClient({ baseUrl: 'http://localhost:3000', token: process.env.NOGPETS_KEY });
 * const { data, error } = await api.POST('/v1/quote', { body: { category: 'grooming', address: 'Die Boord', pets } });
 * ```
 */
export function createNogPetsClient(options: NogPetsClientOptions): NogPetsClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  client.use(nogPetsMiddleware(options));
  return client;
}
