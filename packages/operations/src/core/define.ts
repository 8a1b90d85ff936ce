import type { z } from 'zod';
import type { Scope } from './auth.js';
import type { ConfirmKind } from './confirm.js';
import type { OperationContext } from './context.js';
import type { EventTypeName } from './ports.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ErrorResponse {
  status: number;
  description: string;
}

/**
 * One operation of the spec, defined once. HTTP routes, MCP tools and the OpenAPI document are all
 * derived from this object; nothing about an operation is written anywhere else.
 */
/** Which MCP endpoint lists an operation's tool (see `Operation.mcp`). */
export type McpListing = McpSurface | 'none';

/** The two MCP endpoints, by audience: pet owners and the public, and businesses. */
export type McpSurface = 'person' | 'business';

/** Where each MCP endpoint is served, below the public URL. */
export const MCP_PATHS = { person: '/mcp', business: '/mcp/business' } as const satisfies Record<
  McpSurface,
  string
>;

export interface Operation<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> {
  operationId: string;
  toolName: string;
  title: string;
  tag: string;
  /**
   * Which MCP endpoint lists it as a tool: `person` at /mcp (pet owners and the public), `business`
   * at /mcp/business (sign-up and running a business), `none` for /v1 only (a developer's tools:
   * webhook deliveries, feed rotation, settings kept on pages). Each endpoint has a size budget
   * (apps/mcp: mcp-surfaces test), so a new tool is placed on purpose.
   */
  mcp: McpListing;
  method: HttpMethod;
  /** Express-style path, e.g. `/v1/bookings/:bookingId`. */
  path: string;
  /** For HTTP: where each input field travels. Path parameters are taken from `path`. */
  inputIn: 'query' | 'body';
  auth: 'public' | { scope: Scope };
  /** Shown to developers (OpenAPI) and to assistants (MCP): when to use it, what to show the person. */
  description: string;
  input: I;
  output: O;
  successStatus: 200 | 201;
  /** Another success status when the input names `field` (an update answers 200 where a new one is 201). */
  statusWhen?: { field: string; status: 200 | 201; description: string };
  errors: ErrorResponse[];
  /**
   * An operation that asks for `confirm: true` first (409 CONFIRM_REQUIRED) says which kind of
   * confirm step it is: the kind says which parts its summary carries (confirm.ts).
   */
  confirmKind?: ConfirmKind;
  /**
   * The domain events a successful call may write (docs/events.md), in the transaction of its
   * change; a refused call writes none. Every change operation says, even when it is none (`[]`):
   * a test holds each call to its list.
   */
  events?: readonly EventTypeName[];
  annotations: ToolAnnotations;
  handler: (ctx: OperationContext, input: z.output<I>) => Promise<z.input<O>>;
}

export function defineOperation<I extends z.ZodObject, O extends z.ZodType>(
  op: Operation<I, O>,
): Operation<I, O> {
  return op;
}

/**
 * Who may run an internal operation (never through HTTP or MCP): NogPets' own (`system`,
 * `operator`), a visitor of our pages (`visitor`), a payment gateway's notification (`gateway`), or
 * the person themselves signed in on our pages (`person`: a WEB_SESSION credential; an API key or an
 * assistant's token never).
 */
export type PrincipalKind = 'system' | 'operator' | 'visitor' | 'gateway' | 'person';

/**
 * An operation NogPets runs itself: a scheduled job (`system`) or the operator's console and CLI
 * (`operator`). Run through the same `runOperation` (input checked, output and events checked under
 * CHECK_OUTPUTS), but it has no method, path or tool name, so no door serves it: it cannot be put
 * in the registry the API, MCP and OpenAPI document are derived from.
 */
export interface InternalOperation<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> {
  operationId: string;
  internal: true;
  title: string;
  description: string;
  /** The principal kinds that may run it; an API key or an assistant's token never may. */
  auth: { principal: readonly PrincipalKind[] };
  input: I;
  output: O;
  /** As for public operations: the domain events a successful call may write. */
  events?: readonly EventTypeName[];
  handler: (ctx: OperationContext, input: z.output<I>) => Promise<z.input<O>>;
}

export function defineInternalOperation<I extends z.ZodObject, O extends z.ZodType>(
  op: Omit<InternalOperation<I, O>, 'internal'>,
): InternalOperation<I, O> {
  return { ...op, internal: true };
}

/** Any operation runOperation runs: a public one (a door serves it) or an internal one. */
export type AnyOperation<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> =
  | Operation<I, O>
  | InternalOperation<I, O>;

export function isInternal(op: AnyOperation | Operation): op is InternalOperation {
  return (op as Partial<InternalOperation>).internal === true;
}

/** Annotations for a public read: read-only and idempotent (spec general rule 9). */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
