import {
  ErrorBodySchema,
  ErrorCodeSchema,
  IdempotencyKeyHeaderSchema,
  MCP_PATHS,
  type Operation,
} from '@nogpets/operations';
import {
  createDocument,
  type ZodOpenApiComponentsObject,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
} from 'zod-openapi';
import { z } from 'zod';

export const API_VERSION = '1.8.0';

const STANDARD_ERRORS: Record<number, string> = {
  400: 'Bad request: the input is not valid. `details.fields` names each offending field.',
  401: 'Missing or invalid credential.',
  403: 'The credential lacks the scope or the right.',
  404: 'Not found.',
  409: 'Conflict: see `error.code`.',
  413: 'The body is larger than 100 kB (`PAYLOAD_TOO_LARGE`).',
  415: 'The body is not sent as JSON (`UNSUPPORTED_MEDIA_TYPE`): use `Content-Type: application/json`.',
  422: 'Unprocessable: see `error.code`.',
  429: 'Rate limited (`RateLimited`). See the `RateLimit-*` and `Retry-After` headers.',
  500: 'Unexpected server error.',
  503: '`UNAVAILABLE`: the database is out of reach for a moment (or the service is starting). Retry after `Retry-After` seconds; nothing was changed.',
};

/** On a public operation: it needs no credential, but one that is sent is checked (every request's Bearer is). */
const PUBLIC_401 =
  'A credential was sent and is not valid: this operation needs none, so send a valid one or none.';

const IDEMPOTENCY_409 =
  '`REQUEST_IN_PROGRESS`: the first request with this Idempotency-Key is still being handled.';
const IDEMPOTENCY_422 = '`IDEMPOTENCY_KEY_REUSED`: the Idempotency-Key was used with another body.';

/**
 * Headers of the answers, declared once. The rate limiter (runtime) counts every /v1 request and
 * says so on every answer while its store is reachable (when it is not, requests are let through
 * without them); every 401 and 403 says what it wants in `WWW-Authenticate` (RFC 6750).
 */
const HEADERS = {
  RateLimitPolicy: {
    description:
      'The limit and its window, e.g. `300;w=60` (IETF RateLimit header fields draft). Like the other RateLimit-* headers, absent while the limiter itself is out of reach.',
    schema: { type: 'string', example: '300;w=60' },
  },
  RateLimitLimit: { description: 'Requests allowed per window.', schema: { type: 'integer', example: 300 } },
  RateLimitRemaining: {
    description: 'Requests left in this window.',
    schema: { type: 'integer', example: 299 },
  },
  RateLimitReset: {
    description: 'Seconds until the window resets.',
    schema: { type: 'integer', example: 60 },
  },
  RetryAfter: { description: 'Seconds to wait before retrying.', schema: { type: 'integer', example: 12 } },
  ETag: {
    description:
      'On an answer served from a cache (the catalogue): send it back as `If-None-Match` and an unchanged answer is 304 with no body.',
    schema: { type: 'string', example: 'W/"mB3u0Yc4zV1n0k0x6Yy3Qb0Wz1A"' },
  },
  WWWAuthenticate: {
    description:
      'The Bearer challenge (RFC 6750, RFC 9728): `realm`, the `error` when a credential was sent, the `scope` ' +
      'wanted and `resource_metadata`, where a client finds how to get a token.',
    schema: {
      type: 'string',
      example:
        'Bearer realm="nogpets", error="insufficient_scope", scope="profile pets", resource_metadata="https://nogpets.example/.well-known/oauth-protected-resource/v1"',
    },
  },
} satisfies NonNullable<ZodOpenApiComponentsObject['headers']>;

const ref = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

/** The headers of an answer with this status. */
function headersOf(status: number): Record<string, { $ref: string }> {
  return {
    'RateLimit-Policy': ref('RateLimitPolicy'),
    'RateLimit-Limit': ref('RateLimitLimit'),
    'RateLimit-Remaining': ref('RateLimitRemaining'),
    'RateLimit-Reset': ref('RateLimitReset'),
    ...(status === 429 || status === 503 ? { 'Retry-After': ref('RetryAfter') } : {}),
    ...(status === 401 || status === 403 ? { 'WWW-Authenticate': ref('WWWAuthenticate') } : {}),
  };
}

/** `description`, plus `also` unless it already names `code`. */
function mention(description: string | undefined, code: string, also: string): string {
  if (!description) return also;
  return description.includes(code) ? description : `${description} Also ${also}`;
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  Services: 'The public catalogue and coverage of NogPets in Stellenbosch.',
  Booking: 'Quotes, open times and bookings.',
  Account: 'The signed-in person: profile, pets and addresses.',
  Shop: 'The pet shop.',
  Directory: 'Pet businesses around the home territory.',
  Business: 'Pet-business sign-up.',
  Run: 'Running an approved business.',
  Webhooks:
    "A person's own webhook endpoints: their bookings' and orders' events, signed (Standard Webhooks).",
};

function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

function operationObject(op: Operation): ZodOpenApiOperationObject {
  const pathParams = [...op.path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] as string);
  const shape = op.input.shape as Record<string, z.ZodType>;
  const pathSchema = pathParams.length
    ? z.object(Object.fromEntries(pathParams.map((p) => [p, shape[p] ?? z.string()])))
    : undefined;
  // Path parameters are described as such; the rest travel in the query or the body. (A refined
  // object cannot be .omit()ed, so the remaining shape is rebuilt only when there are path params.)
  const example = op.input.meta()?.example as Record<string, unknown> | undefined;
  const rest = pathParams.length
    ? z
        .object(Object.fromEntries(Object.entries(shape).filter(([k]) => !pathParams.includes(k))))
        .strict()
        .meta(
          example
            ? {
                example: Object.fromEntries(Object.entries(example).filter(([k]) => !pathParams.includes(k))),
              }
            : {},
        )
    : op.input;
  const responses: Record<string, unknown> = {
    [String(op.successStatus)]: {
      description: 'Success',
      headers: { ...headersOf(op.successStatus), ...(op.method === 'GET' ? { ETag: ref('ETag') } : {}) },
      content: { 'application/json': { schema: op.output } },
    },
    ...(op.statusWhen
      ? {
          [String(op.statusWhen.status)]: {
            description: op.statusWhen.description,
            headers: headersOf(op.statusWhen.status),
            content: { 'application/json': { schema: op.output } },
          },
        }
      : {}),
    // A GET served from a cache carries an ETag (apps/api routes); sent back, an unchanged answer is 304.
    ...(op.method === 'GET'
      ? {
          '304': {
            description: 'Not modified: the `ETag` sent as `If-None-Match` still matches.',
            headers: headersOf(304),
          },
        }
      : {}),
  };
  // Every request's Bearer credential is checked, on public operations too: a bad one is 401.
  const errors = new Map<number, string>([
    [400, STANDARD_ERRORS[400]!],
    [401, op.auth === 'public' ? PUBLIC_401 : STANDARD_ERRORS[401]!],
    [500, STANDARD_ERRORS[500]!],
    [503, STANDARD_ERRORS[503]!],
  ]);
  if (op.auth !== 'public') errors.set(403, STANDARD_ERRORS[403]!);
  // Every operation that takes a body refuses one too large or not sent as JSON.
  if (op.method !== 'GET') {
    errors.set(413, STANDARD_ERRORS[413]!);
    errors.set(415, STANDARD_ERRORS[415]!);
  }
  for (const e of op.errors) errors.set(e.status, e.description || STANDARD_ERRORS[e.status] || 'Error');
  // Every change takes an Idempotency-Key (runOperation, when a credential is sent), and with it
  // these two refusals.
  if (op.method !== 'GET') {
    errors.set(409, mention(errors.get(409), 'REQUEST_IN_PROGRESS', IDEMPOTENCY_409));
    errors.set(422, mention(errors.get(422), 'IDEMPOTENCY_KEY_REUSED', IDEMPOTENCY_422));
  }
  for (const [status, description] of [...errors].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description,
      headers: headersOf(status),
      content: { 'application/json': { schema: ErrorBodySchema } },
    };
  }
  return {
    operationId: op.operationId,
    summary: op.title,
    description:
      op.mcp === 'none'
        ? `${op.description}\n\nHTTP only: no MCP endpoint lists it.`
        : `${op.description}\n\nMCP tool: \`${op.toolName}\` at \`${MCP_PATHS[op.mcp]}\`.`,
    tags: [op.tag],
    ...(op.mcp === 'none' ? {} : { 'x-mcp-tool': op.toolName, 'x-mcp-endpoint': MCP_PATHS[op.mcp] }),
    ...(op.auth === 'public' ? { security: [] } : { security: [{ bearer: [op.auth.scope] }] }),
    requestParams: {
      ...(pathSchema ? { path: pathSchema } : {}),
      ...(op.inputIn === 'query' && Object.keys(rest.shape).length ? { query: rest } : {}),
    },
    ...(op.method !== 'GET' ? { parameters: [IdempotencyKeyHeaderSchema] } : {}),
    ...(op.inputIn === 'body' && Object.keys(rest.shape).length
      ? {
          requestBody: {
            required: Object.values(rest.shape as Record<string, z.ZodType>).some(
              (s) => !s.safeParse(undefined).success,
            ),
            content: { 'application/json': { schema: rest } },
          },
        }
      : {}),
    responses,
  } as ZodOpenApiOperationObject;
}

/** The OpenAPI 3.1 document, written from the operation definitions and nothing else. */
export function createOpenApiDocument(operations: readonly Operation[], serverUrl = '/') {
  const paths: ZodOpenApiPathsObject = {};
  for (const op of operations) {
    const p = openApiPath(op.path);
    paths[p] = { ...(paths[p] ?? {}), [op.method.toLowerCase()]: operationObject(op) };
  }
  const tags = [...new Set(operations.map((o) => o.tag))].map((name) => ({
    name,
    description: TAG_DESCRIPTIONS[name] ?? name,
  }));
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'NogPets API',
      version: API_VERSION,
      description:
        'Pet-care booking in Stellenbosch (grooming, walks, sitting) and pet-business sign-up, for AI assistants and ' +
        'developers. Most operations are also MCP tools: for pet owners at `/mcp`, for pet businesses at `/mcp/business` ' +
        '(`x-mcp-tool` and `x-mcp-endpoint` on each operation say which and where). Money is integer cents; times are ISO 8601 instants. ' +
        'Errors are `{error: {code, message, details}}`.',
      // The packages published from this repository are MIT; the service's interface is too.
      license: { name: 'MIT', identifier: 'MIT' },
      // The interactive reference (`/docs`, README), on the server's own address when it is known.
      contact: {
        name: 'NogPets',
        ...(URL.canParse(serverUrl) ? { url: new URL('/docs', serverUrl).href } : {}),
      },
    },
    servers: [{ url: serverUrl }],
    tags,
    paths,
    components: {
      // Every code in one list, for clients that name the type; Error's union says each code's details.
      schemas: { ErrorCode: ErrorCodeSchema },
      headers: HEADERS,
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'An OAuth 2.1 access token (authorization code with PKCE) or a personal API key.',
        },
      },
    },
  });
}
