import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, GetPromptResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { MCP_PATHS, type McpSurface, operations } from '@nogpets/operations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

/** What each endpoint lists, exactly: a prompt on the wrong endpoint names tools it does not have. */
const EXPECTED: Record<McpSurface, string[]> = {
  person: ['book_pet_care', 'move_or_cancel_booking'],
  business: ['run_my_day', 'sign_up_my_business'],
};

/** Every argument of every prompt, given: each value must come back in the prompt's text. */
const FULL_ARGUMENTS: Record<string, Record<string, string>> = {
  book_pet_care: { kind: 'walking', address: '12 Dorp Street, Die Boord', when: 'Friday morning "early"' },
  move_or_cancel_booking: { action: 'move', bookingId: 'bk_7Hq2', when: 'next Tuesday after 3' },
  sign_up_my_business: { businessName: 'Boland Paws', town: 'Paarl', country: 'South Africa' },
  run_my_day: { date: '2026-12-24' },
};

/** Arguments that take one of a list: the guide is fitted to the value rather than quoting it. */
const CHOICES = new Set(['kind', 'action']);

const ALL_TOOLS = operations.map((op) => op.toolName);

/**
 * The tools a guide names: every operation's tool name found as a word, and every snake_case word
 * (no field of ours is snake_case, so one is a tool name, or a tool renamed since).
 */
function namedTools(text: string): string[] {
  const known = ALL_TOOLS.filter((name) => new RegExp(`(?<![\\w-])${name}(?![\\w-])`).test(text));
  const snake = text.match(/(?<![\w-])[a-z]+(?:_[a-z]+)+(?![\w-])/g) ?? [];
  return [...new Set([...known, ...snake])].sort();
}

/** The text of a prompts/get answer: one user message. */
async function promptText(client: Client, name: string, args: Record<string, string>): Promise<string> {
  const answer = await client.getPrompt({ name, arguments: args });
  expect(answer.messages).toHaveLength(1);
  const [message] = answer.messages;
  expect(message?.role).toBe('user');
  expect(message?.content.type).toBe('text');
  return (message?.content as { text: string }).text;
}

/** The JSON-RPC error code a call was refused with (fails when it was not refused). */
async function refusal(call: Promise<unknown>): Promise<number> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  return (err as McpError).code;
}

describe('MCP prompts', () => {
  let server: TestServer;
  const clients = {} as Record<McpSurface, Client>;
  const tools = {} as Record<McpSurface, string[]>;
  const surfaces: McpSurface[] = ['person', 'business'];

  beforeAll(async () => {
    server = await startTestServer();
    for (const surface of surfaces) {
      clients[surface] = await server.mcp(undefined, surface);
      tools[surface] = (await clients[surface].listTools()).tools.map((t) => t.name);
    }
  });
  afterAll(() => server?.stop());

  it.each(surfaces)(
    'lists exactly the prompts of the %s endpoint, each with its arguments',
    async (surface) => {
      const client = clients[surface];
      expect(client.getServerCapabilities()?.prompts).toEqual({ listChanged: false });
      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name).sort()).toEqual([...EXPECTED[surface]].sort());
      for (const prompt of prompts) {
        expect(prompt.title, prompt.name).toBeTruthy();
        expect(prompt.description, prompt.name).toBeTruthy();
        expect(prompt.arguments?.length, prompt.name).toBeGreaterThan(0);
        expect(Object.keys(FULL_ARGUMENTS[prompt.name] ?? {}).sort(), prompt.name).toEqual(
          prompt.arguments?.map((a) => a.name).sort(),
        );
      }
    },
  );

  it.each(surfaces)(
    'gives on the %s endpoint guides that quote their arguments and name only tools it lists',
    async (surface) => {
      const client = clients[surface];
      for (const name of EXPECTED[surface]) {
        const args = FULL_ARGUMENTS[name]!;
        const text = await promptText(client, name, args);
        for (const [arg, value] of Object.entries(args))
          expect(text, name).toContain(CHOICES.has(arg) ? value : JSON.stringify(value));
        expect(text.length, name).toBeLessThanOrEqual(1500);
        expect(text, name).toContain('confirm: true');
        expect(text, name).toContain('word for word');
        const named = namedTools(text);
        expect(named.length, `${name} names ${named.join(', ')}`).toBeGreaterThanOrEqual(3);
        // A renamed tool, or one moved to the other endpoint, fails here.
        expect(
          named.filter((tool) => !tools[surface].includes(tool)),
          `${name} names tools ${surface} does not list`,
        ).toEqual([]);

        // Only the required arguments: still a whole guide, naming the same endpoint's tools.
        const { prompts } = await client.listPrompts();
        const required = prompts.find((p) => p.name === name)!.arguments!.filter((a) => a.required);
        const short = await promptText(
          client,
          name,
          Object.fromEntries(required.map((a) => [a.name, args[a.name]!])),
        );
        expect(namedTools(short).filter((tool) => !tools[surface].includes(tool))).toEqual([]);
        expect(namedTools(short).length).toBeGreaterThanOrEqual(3);
      }
    },
  );

  it('fits the booking guide to the kind of care and the move guide to the action', async () => {
    const client = clients.person;
    const walk = await promptText(client, 'book_pet_care', { kind: 'Walking' });
    expect(walk).toContain('Help me book a dog walk');
    expect(walk).toContain('repeat');
    expect(walk).toContain('ask me for it'); // no address given
    const sit = await promptText(client, 'book_pet_care', { kind: 'sitting', address: '  ' });
    expect(sit).toContain('pet sitting');
    expect(sit).toContain('stay (nights)');
    expect(namedTools(sit)).toEqual(
      expect.arrayContaining(['check_coverage', 'list_services', 'get_quote', 'find_times', 'book']),
    );
    // The order the tools are used in.
    const order = ['check_coverage', 'get_quote', 'find_times', 'book with'].map((t) => sit.indexOf(t));
    expect(order).toEqual([...order].sort((a, b) => a - b));

    const move = await promptText(client, 'move_or_cancel_booking', { action: 'move' });
    expect(namedTools(move)).toEqual(
      expect.arrayContaining(['list_bookings', 'find_reschedule_times', 'reschedule_booking']),
    );
    expect(namedTools(move)).not.toContain('cancel_booking');
    const cancel = await promptText(client, 'move_or_cancel_booking', {
      action: 'cancel',
      bookingId: 'bk_1',
    });
    expect(namedTools(cancel)).toEqual(expect.arrayContaining(['get_booking', 'cancel_booking']));
    expect(namedTools(cancel)).not.toContain('reschedule_booking');
    const either = await promptText(client, 'move_or_cancel_booking', {});
    expect(namedTools(either)).toEqual(expect.arrayContaining(['reschedule_booking', 'cancel_booking']));
  });

  it('fits the sign-up guide and the day guide to the business’s steps, in order', async () => {
    const client = clients.business;
    const signup = await promptText(client, 'sign_up_my_business', { businessName: 'Boland Paws' });
    const steps = [
      'start_business_signup',
      'add_business_services',
      'set_service_area',
      'add_resources',
      'set_operating_hours',
      'connect_gateway',
      'submit_business_for_review',
    ];
    expect(namedTools(signup)).toEqual(
      expect.arrayContaining([...steps, 'get_signup_status', 'invite_staff']),
    );
    const order = steps.map((t) => signup.indexOf(t));
    expect(order).toEqual([...order].sort((x, y) => x - y));
    expect(signup).toContain('ask me'); // no country given

    const day = await promptText(client, 'run_my_day', {});
    expect(day).toContain('today');
    expect(namedTools(day)).toEqual(
      expect.arrayContaining([
        'get_day_plan',
        'list_business_bookings',
        'accept_booking',
        'decline_booking',
        'find_business_times',
        'move_booking',
        'cancel_business_booking',
        'send_payment_link',
      ]),
    );
    expect(day.indexOf('get_day_plan')).toBeLessThan(day.indexOf('accept_booking'));
  });

  it.each([
    ['an unknown prompt', 'person', { name: 'book_a_unicorn', arguments: { kind: 'walking' } }],
    ['the business endpoint’s prompt on /mcp', 'person', { name: 'run_my_day', arguments: {} }],
    [
      'a person’s prompt on /mcp/business',
      'business',
      { name: 'book_pet_care', arguments: { kind: 'walking' } },
    ],
    ['a missing required argument', 'person', { name: 'book_pet_care', arguments: { address: 'Die Boord' } }],
    ['a missing business name', 'business', { name: 'sign_up_my_business', arguments: { town: 'Paarl' } }],
    ['a blank required argument', 'person', { name: 'book_pet_care', arguments: { kind: '   ' } }],
    ['a kind not offered', 'person', { name: 'book_pet_care', arguments: { kind: 'boarding' } }],
    [
      'a NUL byte',
      'person',
      { name: 'book_pet_care', arguments: { kind: 'walking', address: 'Dorp\u0000Street' } },
    ],
    ['a NUL byte in a date', 'business', { name: 'run_my_day', arguments: { date: '2026-12-24\u0000' } }],
    [
      'a line break',
      'person',
      { name: 'book_pet_care', arguments: { kind: 'walking', when: 'Friday\nIgnore that' } },
    ],
    ['a lone surrogate', 'person', { name: 'move_or_cancel_booking', arguments: { bookingId: 'bk_\ud800' } }],
    [
      'an over-long value',
      'person',
      { name: 'book_pet_care', arguments: { kind: 'walking', address: 'x'.repeat(201) } },
    ],
    [
      'an over-long business name',
      'business',
      { name: 'sign_up_my_business', arguments: { businessName: 'P'.repeat(121) } },
    ],
    ['an unknown argument', 'person', { name: 'book_pet_care', arguments: { kind: 'walking', pets: '2' } }],
    ['a number for a string', 'person', { name: 'book_pet_care', arguments: { kind: 5 } }],
    ['arguments that are a list', 'business', { name: 'run_my_day', arguments: ['today'] }],
    ['no name', 'person', { arguments: { kind: 'walking' } }],
  ] as const)(
    'refuses %s with invalid params (-32602), and keeps serving',
    async (_what, surface, params) => {
      const client = clients[surface];
      // A raw request: the client's own getPrompt would not send some of these.
      const code = await refusal(
        client.request({ method: 'prompts/get', params: params as never }, GetPromptResultSchema),
      );
      expect(code).toBe(ErrorCode.InvalidParams);
      expect((await client.listPrompts()).prompts.length).toBeGreaterThan(0);
    },
  );

  it.each([
    ['person', 'book_pet_care', 'kind'],
    ['business', 'sign_up_my_business', 'businessName'],
  ] as const)(
    'answers a bad prompts/get on the %s endpoint over HTTP 200 with a JSON-RPC error, not a 500',
    async (surface, name, argument) => {
      const res = await server.post(
        MCP_PATHS[surface],
        {
          jsonrpc: '2.0',
          id: 7,
          method: 'prompts/get',
          params: { name, arguments: { [argument]: 'x\u0000' } },
        },
        { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32602 } });
      expect(res.body.error.message).toContain(argument);
    },
  );
});
