import type { z } from 'zod';
import type { Scope } from './auth.js';
import type { ConfirmKind } from './confirm.js';
import type { OperationContext } from './context.js';
import type { EventType } from './events/catalog.js';

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
export interface Operation<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> {
  operationId: string;
  toolName: string;
  title: string;
  tag: string;
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
  events?: readonly EventType[];
  annotations: ToolAnnotations;
  handler: (ctx: OperationContext, input: z.output<I>) => Promise<z.input<O>>;
}

export function defineOperation<I extends z.ZodObject, O extends z.ZodType>(
  op: Operation<I, O>,
): Operation<I, O> {
  return op;
}

/** Annotations for a public read: read-only and idempotent (spec general rule 9). */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
