import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  type GetPromptResult,
  ListPromptsRequestSchema,
  McpError,
  type Prompt,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpSurface } from '@nogpets/operations';
import { z } from 'zod';

/** An argument of a prompt: what a client's form asks for, and what it may hold. */
interface PromptArgumentDefinition {
  name: string;
  description: string;
  required?: boolean;
  /** Longest value, in characters (code points). */
  maxLength: number;
  /** The only values taken, matched without regard to case. */
  oneOf?: readonly string[];
}

type PromptArguments = Readonly<Record<string, string | undefined>>;

/** One prompt: listed on its surface's endpoint, its text made from the arguments it was given. */
export interface PromptDefinition {
  name: string;
  title: string;
  description: string;
  surface: McpSurface;
  arguments: readonly PromptArgumentDefinition[];
  /** The guide, a user message; argument values arrive checked (one line, bounded) and are quoted here. */
  text: (args: PromptArguments) => string;
}

/**
 * A value as the guide shows it: in JSON quotes, so the person's text reads as their words, with its
 * own quotes escaped, never as part of the guide's sentences.
 */
const quoted = (value: string) => JSON.stringify(value);

const CONFIRM_RULE =
  'A change that needs my yes first answers CONFIRM_REQUIRED with a summary: show it to me; send the call again with confirm: true only after I agree. ' +
  'If instead it answers with a link for me to confirm on (URL elicitation), open it for me and, once I have confirmed there, send the same call again.';
const MESSAGE_RULE = 'When a tool answers with a `message`, pass it on to me word for word.';

const KIND_WORDS: Record<string, { what: string; hint: string }> = {
  grooming: {
    what: 'grooming',
    hint: 'For grooming, the van comes to the address: each pet’s type, weight and coat set the price.',
  },
  walking: {
    what: 'a dog walk',
    hint: 'For a walk, ask whether it should repeat weekly (repeat on book).',
  },
  sitting: {
    what: 'pet sitting',
    hint: 'For sitting over several days, give find_times and book a stay (nights) or visits instead of one time.',
  },
};

const bookPetCare: PromptDefinition = {
  name: 'book_pet_care',
  title: 'Book a groom, walk or sit',
  description:
    'Books mobile grooming, a dog walk or pet sitting in Stellenbosch: coverage, price, open times, then the booking, with what to confirm with the person.',
  surface: 'person',
  arguments: [
    {
      name: 'kind',
      description: 'grooming, walking or sitting',
      required: true,
      maxLength: 20,
      oneOf: ['grooming', 'walking', 'sitting'],
    },
    { name: 'address', description: 'Where the pets are, as the person says it', maxLength: 200 },
    {
      name: 'when',
      description: 'When they would like it, in their words (e.g. Friday morning)',
      maxLength: 100,
    },
  ],
  text: ({ kind, address, when }) => {
    const words = KIND_WORDS[kind ?? 'grooming'] ?? KIND_WORDS.grooming!;
    return [
      `Help me book ${words.what} with NogPets${address ? ` at ${quoted(address)}` : ''}${when ? `, ${quoted(when)}` : ''}.`,
      'Use the NogPets tools in this order and ask me at each step:',
      `1. check_coverage with my address${address ? '' : ' (ask me for it)'}: tell me which services reach me.`,
      `2. list_services (category ${kind}) for what is offered; prices are cents of rand (38000 = R380).`,
      '3. list_pets and list_addresses: a booking needs my saved pets and a saved address; if one is missing, ask me and save it with add_pet or add_address once I agree.',
      '4. get_quote for my pets and the services I choose; show me its summary.',
      `5. find_times${when ? ' with from/to around when I said' : ''}; show each time once per day and let me choose. If nothing is open, offer the alternatives it gives.`,
      '6. book with the chosen slot’s start and resourceId unchanged, and an Idempotency-Key. Ask me: card or cash. CARD answers a payUrl: give it to me to open and pay myself (the time is held 48 hours). CASH: show me the summary first.',
      words.hint,
      CONFIRM_RULE,
      MESSAGE_RULE,
    ].join('\n');
  },
};

const moveOrCancelBooking: PromptDefinition = {
  name: 'move_or_cancel_booking',
  title: 'Move or cancel a booking',
  description:
    'Moves one of the person’s bookings to another time, or cancels it, with what to confirm with them first.',
  surface: 'person',
  arguments: [
    { name: 'action', description: 'move or cancel', maxLength: 10, oneOf: ['move', 'cancel'] },
    { name: 'bookingId', description: 'The booking’s id, when known', maxLength: 128 },
    {
      name: 'when',
      description: 'To move it: when they would like it instead, in their words',
      maxLength: 100,
    },
  ],
  text: ({ action, bookingId, when }) => {
    const move = action !== 'cancel';
    const cancel = action !== 'move';
    const verb = move && cancel ? 'move or cancel' : move ? 'move' : 'cancel';
    return [
      `Help me ${verb} a NogPets booking${bookingId ? ` (booking id ${quoted(bookingId)})` : ''}${move && when ? `; I would like it ${quoted(when)} instead` : ''}.`,
      `1. ${bookingId ? 'get_booking with that bookingId' : 'list_bookings to find the booking I mean'}: show me what, when, where and the total, and check with me that it is the one.`,
      ...(move
        ? [
            ...(cancel ? ['To move it:'] : []),
            `2. find_reschedule_times for its bookingId; show me the open times and let me choose.`,
            '3. reschedule_booking with the chosen slot’s start and resourceId unchanged. It waits (PENDING) until the business accepts the new time; price and payment stay. Moving closes 12 hours before the start (TOO_LATE: I must phone the operator).',
          ]
        : []),
      ...(cancel
        ? [
            ...(move ? ['To cancel it:'] : []),
            `2. cancel_booking. For a weekly repeat, ask whether the later weeks go too (series: true). A paid booking is refunded by the operator in 5 to 7 working days.`,
          ]
        : []),
      CONFIRM_RULE,
      MESSAGE_RULE,
    ].join('\n');
  },
};

const signUpMyBusiness: PromptDefinition = {
  name: 'sign_up_my_business',
  title: 'Sign up my business',
  description:
    'Takes a pet business through its application to run on NogPets, step by step, up to sending it for review.',
  surface: 'business',
  arguments: [
    { name: 'businessName', description: 'The business’s name', required: true, maxLength: 120 },
    { name: 'town', description: 'The town it works in', maxLength: 80 },
    { name: 'country', description: 'Its country', maxLength: 60 },
  ],
  text: ({ businessName, town, country }) =>
    [
      `Help me sign up my pet business ${quoted(businessName ?? '')}${town ? ` in ${quoted(town)}` : ''}${country ? `, ${quoted(country)}` : ''} to run on NogPets. Ask me one step at a time and read back what you send.`,
      '1. get_signup_status: carry on with an application I already have. Every answer’s checklist and next say what is missing: follow them.',
      `2. start_business_signup with the name, town and country (ISO code${country ? '' : '; ask me'}), what we offer (categories) and how (mode). If possibleListings names my business, ask me before sending claimListingId. Give me the statusUrl.`,
      '3. add_business_services: services and prices (useTemplate copies NogPets’ menu); read the prices back to me in words.',
      '4. set_service_area: where we work; tell me of any overlaps.',
      '5. add_resources: a named VAN for grooming, WALKER for walks, SITTER for sitting.',
      '6. set_operating_hours: our days and hours.',
      '7. If I want: invite_staff (nobody is contacted before approval); in South Africa connect_gateway with the PayFast merchant id only (never its key or passphrase); elsewhere payoutPreference, never bank details.',
      '8. When get_signup_status says readyToSubmit: submit_business_for_review. Once sent it cannot be changed.',
      CONFIRM_RULE,
      MESSAGE_RULE,
    ].join('\n'),
};

const runMyDay: PromptDefinition = {
  name: 'run_my_day',
  title: 'Run my day',
  description:
    'Goes through one day of the business: the day plan, bookings waiting to be accepted, moves, cancellations and unpaid card bookings.',
  surface: 'business',
  arguments: [
    { name: 'date', description: 'The day, e.g. 2026-12-24 or tomorrow (default today)', maxLength: 40 },
  ],
  text: ({ date }) =>
    [
      `Help me run my pet business’s day${date ? ` ${quoted(date)}` : ' today'} on NogPets.`,
      `1. get_day_plan${date ? ' with that day as date (YYYY-MM-DD in the business’s time zone)' : ''}: read it to me resource by resource: times, client, pets and what to watch for, address and how to get in, money to collect.`,
      '2. list_business_bookings with status PENDING: new bookings and moved times waiting for me. For each, accept_booking, or decline_booking with a reason the client reads.',
      '3. A job flagged needsMove, or one I want to move: find_business_times, then move_booking with the chosen start and resourceId. To call one off: cancel_business_booking with a reason (a paid one is refunded by the operator).',
      '4. An unpaid card booking: send_payment_link, then give the client its message or payUrl yourself (NogPets does not send it). list_unpaid_clients says who owes what.',
      '5. A phone or walk-in client: find_business_times, then book_for_client.',
      CONFIRM_RULE,
      MESSAGE_RULE,
      'Crew see only their own jobs on get_day_plan; the other tools are for owners and managers.',
    ].join('\n'),
};

/** Every prompt, each on the endpoint of its surface. */
export const PROMPTS: readonly PromptDefinition[] = [
  bookPetCare,
  moveOrCancelBooking,
  signUpMyBusiness,
  runMyDay,
];

/** The prompts `prompts/list` answers on a surface's endpoint. */
export function promptsFor(surface: McpSurface): readonly PromptDefinition[] {
  return PROMPTS.filter((p) => p.surface === surface);
}

function listed(prompt: PromptDefinition): Prompt {
  return {
    name: prompt.name,
    title: prompt.title,
    description: prompt.description,
    arguments: prompt.arguments.map((a) => ({
      name: a.name,
      description: a.oneOf ? `${a.description} (one of: ${a.oneOf.join(', ')})` : a.description,
      required: a.required ?? false,
    })),
  };
}

function invalidParams(message: string, data?: Record<string, unknown>): McpError {
  return new McpError(ErrorCode.InvalidParams, message, data);
}

// A line of text: no control characters (line breaks, NUL, escapes) and no lone surrogate.
const ONE_LINE = /^[^\p{Cc}\p{Cs}]*$/u;

/**
 * The arguments of a prompts/get, checked against the prompt's: each a string of one line within its
 * length (blank counts as not given), a listed value where the argument has a list, none unknown,
 * the required ones present. Anything else is the caller's mistake: -32602 naming the argument.
 */
function checkedArguments(prompt: PromptDefinition, sent: unknown): Record<string, string | undefined> {
  if (sent !== undefined && (sent === null || typeof sent !== 'object' || Array.isArray(sent)))
    throw invalidParams('arguments must be an object of strings.');
  const given = (sent ?? {}) as Record<string, unknown>;
  const known = new Set(prompt.arguments.map((a) => a.name));
  const unknown = Object.keys(given).filter((name) => !known.has(name));
  if (unknown.length) {
    throw invalidParams(
      `Prompt ${prompt.name} takes no argument ${unknown.map((n) => JSON.stringify(n)).join(', ')}; it takes ${[...known].join(', ')}.`,
      { prompt: prompt.name, unknown },
    );
  }
  const out: Record<string, string | undefined> = {};
  for (const arg of prompt.arguments) {
    const raw = given[arg.name];
    if (raw !== undefined && typeof raw !== 'string')
      throw invalidParams(`Argument ${arg.name} must be a string.`, { argument: arg.name });
    if (typeof raw === 'string' && !ONE_LINE.test(raw)) {
      throw invalidParams(
        `Argument ${arg.name} must be one line of text: no line breaks, NUL or other control characters.`,
        { argument: arg.name },
      );
    }
    const value = raw?.trim() || undefined;
    if (value === undefined) {
      if (arg.required) throw invalidParams(`Argument ${arg.name} is required.`, { argument: arg.name });
      out[arg.name] = undefined;
      continue;
    }
    if ([...value].length > arg.maxLength) {
      throw invalidParams(`Argument ${arg.name} may be at most ${arg.maxLength} characters.`, {
        argument: arg.name,
        maxLength: arg.maxLength,
      });
    }
    if (arg.oneOf) {
      const choice = arg.oneOf.find((v) => v === value.toLowerCase());
      if (!choice) {
        throw invalidParams(`Argument ${arg.name} must be one of ${arg.oneOf.join(', ')}.`, {
          argument: arg.name,
          oneOf: arg.oneOf,
        });
      }
      out[arg.name] = choice;
    } else out[arg.name] = value;
  }
  return out;
}

/**
 * prompts/get as sent, before any check: the SDK's own schema would refuse an argument that is not
 * a string as an internal error (-32603); we answer every such mistake with -32602 ourselves.
 */
const GetPromptAsSentSchema = z.object({ method: z.literal('prompts/get'), params: z.unknown() });

/**
 * Registers `prompts/list` and `prompts/get` on a server for one surface's endpoint (and the
 * `prompts` capability they need); call it before the server connects.
 * @example registerPrompts(server, 'person');
 */
export function registerPrompts(server: Server, surface: McpSurface): void {
  const prompts = promptsFor(surface);
  const byName = new Map(prompts.map((p) => [p.name, p]));
  const list = prompts.map(listed);
  server.registerCapabilities({ prompts: { listChanged: false } });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: list }));
  server.setRequestHandler(GetPromptAsSentSchema, async (request): Promise<GetPromptResult> => {
    const params = (request.params ?? {}) as { name?: unknown; arguments?: unknown };
    if (typeof params.name !== 'string') throw invalidParams('params.name must name a prompt.');
    const prompt = byName.get(params.name);
    if (!prompt) {
      throw invalidParams(
        `No prompt named ${JSON.stringify(params.name.slice(0, 100))} here; prompts/list gives ${[...byName.keys()].join(', ')}.`,
        { prompt: params.name.slice(0, 100) },
      );
    }
    const args = checkedArguments(prompt, params.arguments);
    return {
      description: prompt.description,
      messages: [{ role: 'user', content: { type: 'text', text: prompt.text(args) } }],
    };
  });
}
