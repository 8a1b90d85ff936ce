import { ErrorBodySchema, type Operation } from '@nogpets/operations';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { z } from 'zod';

export const API_VERSION = '1.4.0';

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
};

const TAG_DESCRIPTIONS: Record<string, string> = {
  Services: 'The public catalogue and coverage of NogPets in Stellenbosch.',
  Booking: 'Quotes, open times and bookings.',
  Account: 'The signed-in person: profile, pets and addresses.',
  Shop: 'The pet shop.',
  Directory: 'Pet businesses around the home territory.',
  Business: 'Pet-business sign-up.',
  Run: 'Running an approved business.',
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
  const rest = pathParams.length
    ? z.object(Object.fromEntries(Object.entries(shape).filter(([k]) => !pathParams.includes(k)))).strict()
    : op.input;
  const responses: Record<string, unknown> = {
    [String(op.successStatus)]: {
      description: 'Success',
      content: { 'application/json': { schema: op.output } },
    },
  };
  const errors = new Map<number, string>([
    [400, STANDARD_ERRORS[400]!],
    [500, STANDARD_ERRORS[500]!],
  ]);
  if (op.auth !== 'public') {
    errors.set(401, STANDARD_ERRORS[401]!);
    errors.set(403, STANDARD_ERRORS[403]!);
  }
  // Every operation that takes a body refuses one too large or not sent as JSON.
  if (op.method !== 'GET') {
    errors.set(413, STANDARD_ERRORS[413]!);
    errors.set(415, STANDARD_ERRORS[415]!);
  }
  for (const e of op.errors) errors.set(e.status, e.description || STANDARD_ERRORS[e.status] || 'Error');
  for (const [status, description] of [...errors].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description,
      content: { 'application/json': { schema: ErrorBodySchema } },
      ...(status === 429
        ? {
            headers: {
              'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
              'RateLimit-Limit': { description: 'Requests allowed per window.', schema: { type: 'integer' } },
              'RateLimit-Remaining': {
                description: 'Requests left in this window.',
                schema: { type: 'integer' },
              },
              'RateLimit-Reset': {
                description: 'Seconds until the window resets.',
                schema: { type: 'integer' },
              },
            },
          }
        : {}),
    };
  }
  return {
    operationId: op.operationId,
    summary: op.title,
    description: `${op.description}\n\nMCP tool: \`${op.toolName}\`.`,
    tags: [op.tag],
    'x-mcp-tool': op.toolName,
    ...(op.auth === 'public' ? { security: [] } : { security: [{ bearer: [op.auth.scope] }] }),
    requestParams: {
      ...(pathSchema ? { path: pathSchema } : {}),
      ...(op.inputIn === 'query' && Object.keys(rest.shape).length ? { query: rest } : {}),
    },
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
        'developers. Every operation is also an MCP tool at `/mcp`. Money is integer cents; times are ISO 8601 instants. ' +
        'Errors are `{error: {code, message, details}}`.',
    },
    servers: [{ url: serverUrl }],
    tags,
    paths,
    components: {
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
