// An assistant as the journeys play one: it knows the service only by `tools/list`
// (names, descriptions, input schemas) and by what the tools answer. Before each call it finds the
// tool by name and checks the arguments against the tool's inputSchema with the MCP SDK's own JSON
// Schema validator (Ajv, as a generic MCP client validates); it reads answers only from the tool
// result. Every refusal it meets (an isError result, or HTTP 401/403 at the MCP door) is kept, so a
// journey can check that each one says what to do next.
//
// A watcher (the test's, reading the database) may look at money before and after each call: a call
// after which money moved must have sent `confirm: true` or been answered with a `payUrl`.
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { McpSurface } from '@nogpets/operations';
import type { TestServer } from './harness.js';

type Json = any;

/** A refusal the assistant saw: the tool, what it sent, and the `{error: {code, message, details}}` body. */
export interface Refusal {
  tool: string;
  args: Record<string, unknown>;
  /** `tool`: an isError tool result; `http`: the MCP endpoint answered an HTTP error status. */
  via: 'tool' | 'http';
  status?: number;
  error: { code: string; message: string; details: Json };
}

/** Money that moved during one tool call, and whether the call had the person's say-so. */
export interface MoneyMove {
  tool: string;
  confirmed: boolean;
  payUrl: string | null;
  /** The call was answered with a refusal (a refusal must leave money as it was). */
  refused: boolean;
  /** tools/list marks the tool read-only (a read must never move money). */
  readOnly: boolean;
  before: string;
  after: string;
}

/**
 * Why money moved without the person's say-so in each move that did, or empty: a move needs
 * `confirm: true` sent or a `payUrl` answered, and never comes from a refused call or a read-only
 * tool (a `payUrl` in a read's answer, such as get_booking's, is no say-so).
 */
export function unaskedMoneyMoves(moves: readonly MoneyMove[]): string[] {
  return moves.flatMap((m) => {
    const why = m.refused
      ? 'a refused call'
      : m.readOnly
        ? 'a read-only tool'
        : !m.confirmed && !m.payUrl
          ? 'neither confirm: true nor a payUrl'
          : null;
    return why ? [`${m.tool}: money moved after ${why}`] : [];
  });
}

/** The answer of one call: the tool result's JSON, and whether it is a refusal. */
export type Answer = { ok: true; body: Json } | { ok: false; error: Refusal['error'] };

/** The first `payUrl` anywhere in an answer (book, buy, book_for_client's `booking`, invoices). */
export function payUrlIn(value: unknown): string | null {
  if (!value || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (const v of value) {
      const found = payUrlIn(v);
      if (found) return found;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value)) {
    if (k === 'payUrl' && typeof v === 'string' && v) return v;
    const found = payUrlIn(v);
    if (found) return found;
  }
  return null;
}

export class Assistant {
  readonly refusals: Refusal[] = [];
  readonly moneyMoves: MoneyMove[] = [];
  /** Every tool name the assistant called. */
  readonly used = new Set<string>();
  private readonly validator = new AjvJsonSchemaValidator();
  private readonly checks = new Map<string, (input: unknown) => { valid: boolean; errorMessage?: string }>();

  private constructor(
    private readonly client: Client,
    readonly tools: Tool[],
    private readonly money?: () => Promise<string>,
  ) {}

  /**
   * Connects to one MCP endpoint (`surface`: /mcp for a pet owner's assistant, the default, or
   * /mcp/business for a business's), with a Bearer credential when given, and reads `tools/list`
   * once: it can call only what that endpoint lists. `money` is the test's watcher: a fingerprint of
   * what money the database holds.
   */
  static async connect(
    server: TestServer,
    options: { token?: string; money?: () => Promise<string>; surface?: McpSurface } = {},
  ): Promise<Assistant> {
    const surface = options.surface ?? 'person';
    const client = options.token
      ? await server.mcpAs(options.token, surface)
      : await server.mcp(undefined, surface);
    const { tools } = await client.listTools();
    return new Assistant(client, tools, options.money);
  }

  /** The tool of that name as tools/list described it; throws when there is none. */
  tool(name: string): Tool {
    const tool = this.tools.find((t) => t.name === name);
    if (!tool) throw new Error(`tools/list has no tool ${name}`);
    return tool;
  }

  /** Why `args` do not fit the tool's inputSchema, or null when they do. */
  invalid(name: string, args: Record<string, unknown>): string | null {
    let check = this.checks.get(name);
    if (!check) {
      check = this.validator.getValidator(this.tool(name).inputSchema as never);
      this.checks.set(name, check);
    }
    const result = check(args);
    return result.valid ? null : (result.errorMessage ?? 'invalid');
  }

  /**
   * Calls a tool as an assistant does: the tool must be listed and the arguments must fit its
   * inputSchema (a test that breaks this fails here, before anything is sent). Tools that change
   * something get an idempotency key, as their descriptions ask.
   */
  async call(name: string, args: Record<string, unknown> = {}): Promise<Answer> {
    const tool = this.tool(name);
    const wrong = this.invalid(name, args);
    if (wrong) throw new Error(`${name}: the arguments do not fit its inputSchema: ${wrong}`);
    this.used.add(name);
    const before = this.money ? await this.money() : '';
    let answer: Answer;
    try {
      const result = (await this.client.callTool({
        name,
        arguments: args,
        ...(tool.annotations?.readOnlyHint ? {} : { _meta: { idempotencyKey: randomUUID() } }),
      })) as { isError?: boolean; structuredContent?: unknown; content?: { type: string; text?: string }[] };
      const text = result.content?.find((c) => c.type === 'text')?.text;
      const body = result.structuredContent ?? (text === undefined ? undefined : JSON.parse(text));
      if (result.isError) {
        const error = (body as { error: Refusal['error'] }).error;
        this.refusals.push({ tool: name, args, via: 'tool', error });
        answer = { ok: false, error };
      } else answer = { ok: true, body };
    } catch (err) {
      // A scoped tool the credential does not reach is refused at the HTTP level (401/403), with
      // the error body and the challenge that tell an MCP client what to ask the person for.
      const { code, message } = err as { code?: unknown; message: string };
      const json = /\{.*\}$/s.exec(message)?.[0];
      if (typeof code !== 'number' || !json) throw err;
      const error = (JSON.parse(json) as { error: Refusal['error'] }).error;
      this.refusals.push({ tool: name, args, via: 'http', status: code, error });
      answer = { ok: false, error };
    }
    if (this.money) {
      const after = await this.money();
      if (after !== before)
        this.moneyMoves.push({
          tool: name,
          confirmed: args.confirm === true,
          payUrl: answer.ok ? payUrlIn(answer.body) : null,
          refused: !answer.ok,
          readOnly: tool.annotations?.readOnlyHint === true,
          before,
          after,
        });
    }
    return answer;
  }

  /** A call that must succeed: its answer. */
  async ask(name: string, args: Record<string, unknown> = {}): Promise<Json> {
    const answer = await this.call(name, args);
    if (!answer.ok) throw new Error(`${name} refused: ${JSON.stringify(answer.error)}`);
    return answer.body;
  }

  /** A call that must be refused: the error. */
  async refused(name: string, args: Record<string, unknown> = {}): Promise<Refusal['error']> {
    const answer = await this.call(name, args);
    if (answer.ok) throw new Error(`${name} was expected to refuse, answered ${JSON.stringify(answer.body)}`);
    return answer.error;
  }
}

/** Verbs that open an instruction to the assistant or to the person. */
const VERBS =
  'phone|call|send|show|ask|try|choose|pick|use|give|offer|check|open|contact|confirm|book|add|set|tell|' +
  'wait|change|remove|retry|pass|sign|find|pay|move|cancel|start|submit|fix|say|enter|widen|look';
const INSTRUCTION = new RegExp(
  `(?:^|[.;:!?(\u2013\u2014]\\s*|,\\s*(?:so|and)\\s+|\\b(?:please|then|instead)\\s+)(?:${VERBS})\\b`,
  'i',
);
const MODAL =
  /\b(?:the person|they|you|the assistant)\s+(?:must|should|can|may|needs? to)\s+(?!not\b)[a-z]+/i;

/**
 * Whether a text tells what to do next: an instruction (one of the verbs opening a sentence or
 * clause, or after "please", "then", "instead"), what the person must, should or can do, or a tool
 * of tools/list to call (by a name with an underscore). A verb only mentioned ("Cannot book: ...", "an invalid set of pets") is
 * not an instruction.
 */
export function saysWhatToDo(text: unknown, toolNames: readonly string[] = []): boolean {
  if (typeof text !== 'string' || !text.trim()) return false;
  return (
    INSTRUCTION.test(text) ||
    MODAL.test(text) ||
    // A tool named by its full name (a one-word name such as `book` reads as a mere word).
    toolNames.some((name) => name.includes('_') && new RegExp(`(?<![\\w-])${name}(?![\\w-])`).test(text))
  );
}

/**
 * What a refusal tells the assistant to do next, by the spec's error rules (Errors table: NO_COVERAGE
 * carries `leadId`, `message`, `next`; CONFIRM_REQUIRED the summary to show; TOO_LATE that the person
 * must phone the operator; SLOT_TAKEN to call find_times again; UNKNOWN_PLACE to ask the person), the
 * shop's refusals (details.problems / discountError / shippingError, each with what to change) and
 * the auth refusals (the scope to ask for). Every other code: `details.next`, or a message that says
 * what to do in words (see `saysWhatToDo`; `toolNames` are the tools it may name).
 * Returns the reasons it does not; empty when it does.
 */
export function missingNextStep(r: Refusal, toolNames: readonly string[] = []): string[] {
  const { code, message, details } = r.error;
  const problems: string[] = [];
  const need = (ok: unknown, what: string) => {
    if (!ok) problems.push(`${r.tool} ${code}: ${what} (${JSON.stringify(r.error)})`);
  };
  const text = (v: unknown) => typeof v === 'string' && v.trim().length > 0;
  need(text(message), 'a message');
  switch (code) {
    case 'CONFIRM_REQUIRED':
      need(text(details?.summary), 'details.summary to show the person');
      need(/confirm: ?true/.test(message), 'the message says to send confirm: true once they agree');
      break;
    case 'NO_COVERAGE':
      need(text(details?.message), 'details.message to pass on');
      need(text(details?.leadId), 'details.leadId');
      need(text(details?.next), 'details.next');
      break;
    case 'TOO_LATE':
      need(/phone the operator/i.test(message), 'the message says the person must phone the operator');
      break;
    case 'SLOT_TAKEN':
      need(
        /find_times|find_reschedule_times|find_business_times/.test(JSON.stringify(r.error)),
        'find times again',
      );
      break;
    case 'UNKNOWN_PLACE':
      need(/\bask\b/i.test(`${message} ${details?.next ?? ''}`), 'ask the person for the place');
      break;
    case 'NO_AVAILABILITY':
      need(text(details?.message) || text(message), 'a message');
      need(Array.isArray(details?.alternatives), 'alternatives');
      break;
    case 'DISCOUNT_NOT_VALID':
      need(text(details?.discountError?.message), 'details.discountError.message');
      break;
    case 'OUT_OF_STOCK':
      need(Array.isArray(details?.problems) && details.problems.length > 0, 'details.problems');
      break;
    case 'CANNOT_DELIVER':
      need(text(details?.shippingError?.message), 'details.shippingError.message');
      break;
    case 'UNAUTHORIZED':
    case 'FORBIDDEN':
      // MCP clients widen authorization from the scope named (RFC 6750 insufficient_scope).
      if (r.via === 'http') need(text(details?.scope), 'details.scope to ask the person for');
      else need(saysWhatToDo(message, toolNames), 'a message that says what to do');
      break;
    default:
      need(
        text(details?.next) || saysWhatToDo(message, toolNames),
        'details.next or a message that says what to do',
      );
  }
  return problems;
}
