import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import {
  type AuthContext,
  insufficientScope,
  MCP_PATHS,
  type McpSurface,
  type Operation,
  type OperationContext,
  runOperation,
  ServiceError,
  statedClientName,
  toServiceError,
} from '@nogpets/operations';
import { bearerAuth, isJsonText, jsonBody, originCheck, type Runtime, sendError } from '@nogpets/runtime';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import {
  endSession,
  type McpClientSession,
  mcpSessionOf,
  urlElicitationOf,
  withAgreement,
} from './elicitation.js';
import { registerPrompts } from './prompts.js';
import { toolOf } from './tools.js';

export const MCP_SERVER_VERSION = '1.8.0';

const SHARED_INSTRUCTIONS =
  'When a tool answers with a `message`, pass it on to the person word for word. Errors come back as ' +
  '{error: {code, message, details}}.';

/** What each endpoint's `initialize` tells the assistant: who it is for and where to start. */
const INSTRUCTIONS: Record<McpSurface, string> = {
  person:
    'NogPets books mobile grooming, dog walks and pet sitting in Stellenbosch, South Africa, and lists pet ' +
    "businesses nearby. Start with check_coverage for the person's address, list_services for what is offered " +
    'and prices (integer cents of rand: 38000 = R380). A pet business signs up and runs its work at the ' +
    `business endpoint (${MCP_PATHS.business}). ` +
    SHARED_INSTRUCTIONS,
  business:
    'NogPets for pet businesses anywhere: sign up (start_business_signup, then the steps each answer names in ' +
    '`next`) and, once approved, run the business: day plan, bookings, clients, prices, hours, staff and money, ' +
    "in the business's own currency (integer minor units) and time zone. " +
    SHARED_INSTRUCTIONS,
};

function errorResult(err: ServiceError): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(err.toBody()) }] };
}

type JsonRpcId = string | number;

/**
 * A fresh low-level MCP server whose tools are the operations; one per HTTP request (stateless).
 * `rawArguments` holds each tools/call's `arguments` as the HTTP body was parsed, by JSON-RPC id:
 * they are what the operation validates, because the SDK's own copy has lost keys such as
 * `__proto__` that /v1 refuses.
 */
export function createMcpServer(
  runtime: Runtime,
  surface: McpSurface,
  registry: readonly Operation[],
  tools: Tool[],
  context: () => Promise<OperationContext>,
  rawArguments?: ReadonlyMap<JsonRpcId, unknown>,
  validator: AjvJsonSchemaValidator = new AjvJsonSchemaValidator(),
): Server {
  const byName = new Map(registry.filter((op) => op.mcp === surface).map((op) => [op.toolName, op]));
  const server = new Server(
    { name: 'nogpets', title: 'NogPets', version: MCP_SERVER_VERSION },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: INSTRUCTIONS[surface],
      jsonSchemaValidator: validator,
    },
  );
  registerPrompts(server, surface);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const op = byName.get(request.params.name);
    const counter = runtime.metrics.operationCalls;
    if (!op) return errorResult(noSuchTool(runtime, surface, registry, request.params.name));
    let ctx: OperationContext | undefined;
    try {
      // A retried change carries its key in the call's _meta (or the HTTP Idempotency-Key header).
      const meta = request.params._meta as { idempotencyKey?: unknown } | undefined;
      ctx = await context();
      if (typeof meta?.idempotencyKey === 'string') ctx.idempotencyKey = meta.idempotencyKey;
      const args = rawArguments?.has(extra.requestId)
        ? rawArguments.get(extra.requestId)
        : request.params.arguments;
      const result = (await runOperation(op, ctx, args ?? {})) as Record<string, unknown>;
      counter.inc({ operation: op.operationId, transport: 'mcp', outcome: 'ok' });
      return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
    } catch (err) {
      const error = toServiceError(err);
      counter.inc({ operation: op.operationId, transport: 'mcp', outcome: error.code });
      if (error.status >= 500) runtime.logger.error({ err }, 'tool call failed');
      // Page mode: the person confirms on our page (the URL elicitation required error, -32042).
      // A client that cannot show pages gets the 409 itself, its link in `details.confirmation`.
      const elicitation = ctx?.agreement?.mode === 'page' ? urlElicitationOf(error) : null;
      if (elicitation) throw elicitation;
      return errorResult(error);
    }
  });
  return server;
}

async function mcpContext(
  runtime: Runtime,
  req: Request,
  credential: () => Promise<AuthContext | null>,
): Promise<OperationContext> {
  return {
    deps: runtime.deps,
    requestId: String(req.id),
    // Stateless: the initialize's clientInfo is not seen again, so a call names its assistant the
    // way an API call does.
    clientName: statedClientName(req.get('x-client-name')),
    auth: await credential(),
    log: req.log,
    idempotencyKey: req.get('idempotency-key'),
    callerAddress: req.ip,
  };
}

interface JsonRpcMessage {
  id?: unknown;
  method?: unknown;
  params?: { name?: unknown; arguments?: unknown };
}

/**
 * The `arguments` of each tools/call in the body, by JSON-RPC id, as express.json parsed them.
 * Two calls with one id are refused: which arguments belong to which call could not be told.
 */
function toolArgumentsById(messages: JsonRpcMessage[]): Map<JsonRpcId, unknown> {
  const byId = new Map<JsonRpcId, unknown>();
  for (const m of messages) {
    if (m?.method !== 'tools/call' || (typeof m.id !== 'string' && typeof m.id !== 'number')) continue;
    if (byId.has(m.id)) {
      throw new ServiceError(
        'BAD_REQUEST',
        `Two tool calls share the JSON-RPC id ${JSON.stringify(m.id)}; give each its own.`,
        { reason: 'duplicate_id', id: m.id },
      );
    }
    byId.set(m.id, m.params?.arguments);
  }
  return byId;
}

/**
 * The body as JSON-RPC: text that is not JSON is the protocol's parse error (-32700, HTTP 400), as
 * an MCP client expects, not the REST error shape. Other refusals (too large) keep the error shape.
 */
function jsonRpcBody(req: Request, res: Response, next: NextFunction): void {
  jsonBody(req, res, (err?: unknown) => {
    const failed = err as { type?: string; body?: string } | undefined;
    if (failed?.type === 'entity.parse.failed') {
      // JSON that is not an object or a batch (`null`, `12`) is an invalid request, not a parse error.
      res.status(400).json({
        jsonrpc: '2.0',
        error: isJsonText(failed.body)
          ? { code: -32600, message: 'Invalid Request: send a JSON-RPC object or a batch of them.' }
          : { code: -32700, message: 'Parse error: the body is not valid JSON.' },
        id: null,
      });
      return;
    }
    next(err);
  });
}

/**
 * A tool this endpoint does not list: NOT_FOUND, naming the endpoint that does list it, or /v1
 * where no endpoint does, so the assistant (or its developer) knows where to go.
 */
function noSuchTool(
  runtime: Runtime,
  surface: McpSurface,
  registry: readonly Operation[],
  name: string,
): ServiceError {
  const elsewhere = registry.find((op) => op.toolName === name);
  if (!elsewhere) return new ServiceError('NOT_FOUND', `No tool named ${name}.`, { tool: name });
  const base = runtime.publicUrl();
  if (elsewhere.mcp === 'none' || elsewhere.mcp === surface) {
    return new ServiceError(
      'NOT_FOUND',
      `${name} is not an MCP tool; it is ${elsewhere.method} ${elsewhere.path} of the HTTP API (${base}/docs).`,
      { tool: name, api: `${elsewhere.method} ${elsewhere.path}` },
    );
  }
  const endpoint = `${base}${MCP_PATHS[elsewhere.mcp]}`;
  return new ServiceError(
    'NOT_FOUND',
    `${name} is a tool of the MCP endpoint ${endpoint}, not of this one.`,
    {
      tool: name,
      endpoint,
    },
  );
}

/**
 * An MCP endpoint (`/mcp` for pet owners and the public, `/mcp/business` for businesses), listing
 * the operations placed on it: Streamable HTTP in stateless JSON mode, so any number of instances
 * can serve it.
 */
export function mcpRouter(runtime: Runtime, registry: readonly Operation[], surface: McpSurface): Router {
  const operations = registry.filter((op) => op.mcp === surface);
  const path = MCP_PATHS[surface];
  const tools = operations.map(toolOf);
  // One validator for every request's server: making one (a new Ajv) cost more than the call itself.
  const validator = new AjvJsonSchemaValidator();
  const byName = new Map(operations.map((op) => [op.toolName, op]));
  const router = express.Router();
  router.use((_req, res, next) => {
    // CORS for browser-based MCP clients, including on errors.
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader(
      'Access-Control-Allow-Headers',
      'Authorization, Content-Type, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
    );
    res.setHeader(
      'Access-Control-Expose-Headers',
      'WWW-Authenticate, Mcp-Session-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After',
    );
    res.setHeader('Access-Control-Allow-Methods', 'POST, DELETE, OPTIONS');
    next();
  });
  // The transport spec's Origin rule (DNS rebinding; the Host is checked for every route): a
  // browser page on another site is refused, preflight included.
  router.use(
    originCheck({
      publicUrl: () => runtime.publicUrl(),
      allowedHosts: runtime.config.ALLOWED_HOSTS,
      allowedOrigins: runtime.config.ALLOWED_ORIGINS,
    }),
  );
  router.use((req, res, next) => {
    if (req.method === 'OPTIONS') res.status(204).end();
    else next();
  });
  router.post('/', runtime.rateLimiter.middleware, jsonRpcBody, async (req, res, next) => {
    res.locals.resourceMetadata = `${runtime.publicUrl()}/.well-known/oauth-protected-resource${path}`;
    // A call of a tool that needs a scope is answered at the HTTP level when the credential is
    // missing (401) or too narrow (403), so MCP clients start or widen authorization themselves.
    let rawArguments: Map<JsonRpcId, unknown>;
    let session: McpClientSession | null | undefined;
    // The credential is looked up once per request, here or on the first tool call, never twice.
    let lookup: Promise<AuthContext | null> | undefined;
    const credential = () => (lookup ??= bearerAuth(runtime, req.get('authorization'), path));
    try {
      const messages = (Array.isArray(req.body) ? req.body : [req.body]) as JsonRpcMessage[];
      rawArguments = toolArgumentsById(messages);
      const needed = messages
        .filter((m) => m?.method === 'tools/call')
        .map((m) => byName.get(String(m.params?.name)))
        .flatMap((op) => (op && op.auth !== 'public' ? [op.auth.scope] : []));
      if (needed.length) {
        const auth = await credential();
        if (!auth) {
          throw new ServiceError(
            'UNAUTHORIZED',
            `This tool needs the person's permission (scope ${needed.join(' ')}).`,
            { scope: needed.join(' ') }, // no credential sent: no error code (RFC 6750 §3.1)
          );
        }
        const missing = [...new Set(needed.filter((scope) => !auth.scopes.includes(scope)))];
        if (missing.length) throw insufficientScope(auth, missing);
      }
      // What the client declared at initialize, kept under its Mcp-Session-Id (elicitation.ts).
      session = await mcpSessionOf(runtime, req, res, messages, path);
      if (session === undefined) return;
    } catch (err) {
      next(err);
      return;
    }
    const server = createMcpServer(
      runtime,
      surface,
      registry,
      tools,
      async () => withAgreement(await mcpContext(runtime, req, credential), session),
      rawArguments,
      validator,
    );
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (err) {
      next(err);
    }
  });
  // A session opened for a client that can show pages ends on its DELETE (elicitation.ts).
  router.delete('/', runtime.rateLimiter.middleware, async (req, res, next) => {
    try {
      if (!(await endSession(runtime, req, res, path))) next();
    } catch (err) {
      next(err);
    }
  });
  // Stateless: no server-initiated stream to open; DELETE without a session has none to end.
  router.all('/', (req, res) => {
    res.setHeader('Allow', 'POST, OPTIONS');
    sendError(
      res,
      new ServiceError(
        'METHOD_NOT_ALLOWED',
        `${req.method} is not supported on ${path}; send JSON-RPC with POST.`,
        {
          allow: ['POST', 'OPTIONS'],
        },
      ),
    );
  });
  return router;
}
