/**
 * listClients / list_clients, getClient / get_client and addClientNote / add_client_note: the
 * clients of a business, what it knows of them and the notes it keeps. A client is a
 * client of one business: everything shown comes from that business's own bookings and notes.
 */
import { formatMoney } from '@nogpets/pricing-tiers';
import {
  type BusinessRow,
  CLIENT_NOTE_KINDS,
  type ClientNoteRow,
  type ClientRow,
  type ClientSummaryRow,
  clientBookingIds,
  clientSummaries,
  findClients,
  findJobs,
  findUserById,
  insertClientNote,
  listClientAddresses,
  listClientNotes,
  listClientPets,
  type Queryable,
  searchClients,
} from '@nogpets/store';
import { z } from 'zod';
import {
  auditChange,
  defineOperation,
  keysetCursor,
  READ_ONLY,
  ServiceError,
  whenText,
} from '../core/index.js';
import { inBusiness, RUN_ACCESS_ERRORS, RunBusinessIdShape } from '../staff/index.js';
import { JobSchema, toJobs } from '../bookings/index.js';

/** How many of a client's bookings get_client shows (newest first); older ones through list_business_bookings. */
export const CLIENT_HISTORY = 20;
/** How many notes get_client and add_client_note show (newest first). */
export const CLIENT_NOTES_SHOWN = 100;

const ClientIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/, 'Letters, digits, _ and -, 1 to 128.')
  .meta({ description: 'From list_clients (`clientId`).', example: 'cli_bp_anele' });

const ClientIdShape = { clientId: ClientIdSchema };

const BookingRefSchema = z
  .object({
    bookingId: z.string(),
    start: z.iso.datetime(),
    when: z.string().meta({ description: 'Local date and times in words.' }),
    status: z.enum(['PENDING', 'ACCEPTED', 'CANCELLED', 'EXPIRED', 'DONE']),
  })
  .nullable();

const BalanceSchema = z
  .object({
    currency: z.string(),
    owedCents: z.int().meta({ description: 'Unpaid in all, in the currency’s minor units.' }),
    owed: z.string().meta({ description: 'The same in the business’s currency.', example: 'R450.00' }),
    cashDueCents: z.int().meta({ description: 'Cash due on the day (CASH_DUE) of live and done bookings.' }),
    unpaidCardCents: z.int().meta({ description: 'Card payments still awaited (CARD, PENDING).' }),
    pastDueCents: z.int().meta({ description: 'Of the unpaid, what belongs to bookings that have begun.' }),
    words: z.string().meta({ description: 'The balance in plain words, to show the person.' }),
  })
  .meta({ id: 'ClientBalance', description: 'What the client has not paid the business yet.' });

const NoteKindSchema = z.enum(CLIENT_NOTE_KINDS).meta({
  description:
    'What the note is about: TEMPERAMENT (behaviour, handling), HEALTH (allergies, conditions), ACCESS (gate codes, ' +
    'keys, parking), VET (the vet and their number), PREFERENCE (how the client likes things done), OTHER.',
});

const ClientNoteSchema = z.object({
  noteId: z.string(),
  kind: NoteKindSchema,
  text: z.string(),
  petId: z.string().nullable().meta({ description: 'The pet it is about; null for the client.' }),
  petName: z.string().nullable(),
  author: z.string().meta({ description: 'Who at the business wrote it.' }),
  createdAt: z.iso.datetime(),
});

const ClientListItemSchema = z.object({
  clientId: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  pets: z
    .array(z.string())
    .meta({ description: 'Names of the pets in the client’s bookings with the business.' }),
  lastBooking: BookingRefSchema.meta({ description: 'The latest booking that has begun; null if none.' }),
  nextBooking: BookingRefSchema.meta({ description: 'The next live booking still to come; null if none.' }),
  owedCents: z.int(),
  balance: z.string().meta({ description: 'What is unpaid, in words (cash due and card payments awaited).' }),
});

const ClientPetSchema = z.object({
  petId: z
    .string()
    .nullable()
    .meta({ description: 'A saved pet’s id (for add_client_note); null for a pet given by value.' }),
  name: z.string(),
  type: z.enum(['DOG', 'CAT']).nullable(),
  breed: z.string().nullable(),
  weightKg: z.number().nullable(),
  coat: z.enum(['SHORT', 'MEDIUM', 'LONG']).nullable(),
  notes: z.string().nullable().meta({ description: "The owner's notes on the pet (temperament, health)." }),
  lastSeen: z.iso.datetime().meta({ description: 'When the latest booking with this pet begins.' }),
});

const ClientAddressSchema = z.object({
  addressId: z.string().nullable(),
  label: z.string().nullable(),
  address: z.string(),
  accessNotes: z.string().nullable().meta({ description: 'How to get in (gate codes, keys, parking).' }),
  lastUsed: z.iso.datetime(),
});

export const ClientSchema = z
  .object({
    businessId: z.string(),
    clientId: z.string(),
    name: z.string(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    hasAccount: z
      .boolean()
      .meta({ description: 'Whether the client books on NogPets with an account of their own.' }),
    clientSince: z.iso.datetime(),
    pets: z.array(ClientPetSchema),
    addresses: z
      .array(ClientAddressSchema)
      .meta({ description: 'Addresses used in bookings, the latest first.' }),
    lastBooking: BookingRefSchema,
    nextBooking: BookingRefSchema,
    history: z
      .array(JobSchema)
      .meta({ description: `The newest ${CLIENT_HISTORY} bookings, any status, newest first.` }),
    historyTotal: z.int().meta({ description: 'How many bookings the client has with the business in all.' }),
    balance: BalanceSchema,
    notes: z.array(ClientNoteSchema).meta({
      description: `Notes on the client and their pets, newest first (the newest ${CLIENT_NOTES_SHOWN}).`,
    }),
  })
  .meta({
    id: 'BusinessClient',
    description:
      'A client of the business: pets, addresses, history, balance and notes, all from this business’s own bookings.',
  });

function clientNotFound(clientId: string, business: BusinessRow): ServiceError {
  // The same words for a client of another business and one that does not exist.
  return new ServiceError('NOT_FOUND', `No client ${clientId} at ${business.name}.`, { clientId });
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function bookingRef(r: ClientSummaryRow['last'], timezone: string) {
  return r
    ? {
        bookingId: r.id,
        start: r.start.toISOString(),
        when: whenText(r.start, r.end, timezone),
        status: r.status,
      }
    : null;
}

function balanceOf(s: ClientSummaryRow | undefined, currency: string): z.infer<typeof BalanceSchema> {
  const cash = s?.cashDueCents ?? 0;
  const card = s?.unpaidCardCents ?? 0;
  const past = s?.pastUnpaidCents ?? 0;
  const owed = cash + card;
  const money = (cents: number) => formatMoney(cents, currency);
  let words = 'Nothing unpaid.';
  if (owed) {
    const parts: string[] = [];
    if (cash) parts.push(`${money(cash)} cash due (${plural(s!.cashDueCount, 'booking')})`);
    if (card) parts.push(`${money(card)} by card, awaited (${plural(s!.unpaidCardCount, 'booking')})`);
    words =
      `${money(owed)} unpaid: ${parts.join(' and ')}; ` +
      (past ? `${money(past)} of it for bookings that have begun.` : 'all of it for bookings still to come.');
  }
  return {
    currency,
    owedCents: owed,
    owed: money(owed),
    cashDueCents: cash,
    unpaidCardCents: card,
    pastDueCents: past,
    words,
  };
}

/** A page's position: the (lower(name), id) of its last client. */
const cursor = keysetCursor('c', { name: 'text', id: 'id' });

/** The client of this id at the business, or the one 404. */
async function clientOf(q: Queryable, business: BusinessRow, clientId: string): Promise<ClientRow> {
  const [client] = await findClients(q, business.id, [clientId]);
  if (!client) throw clientNotFound(clientId, business);
  return client;
}

/** The client's notes as shown, newest first, with the pet's name. */
async function notesOf(
  q: Queryable,
  businessId: string,
  clientId: string,
  petNames: Map<string, string>,
): Promise<z.infer<typeof ClientNoteSchema>[]> {
  const rows = await listClientNotes(q, businessId, [clientId]);
  return rows.slice(0, CLIENT_NOTES_SHOWN).map((n) => noteOf(n, petNames));
}

function noteOf(n: ClientNoteRow, petNames: Map<string, string>): z.infer<typeof ClientNoteSchema> {
  return {
    noteId: n.id,
    kind: n.kind,
    text: n.text,
    petId: n.petId,
    petName: n.petId ? (petNames.get(n.petId) ?? null) : null,
    author: n.authorName,
    createdAt: n.createdAt.toISOString(),
  };
}

export const listClients = defineOperation({
  operationId: 'listClients',
  toolName: 'list_clients',
  title: "List the business's clients",
  tag: 'Run',
  mcp: 'business',
  method: 'GET',
  path: '/v1/business/clients',
  inputIn: 'query',
  auth: { scope: 'business:manage' },
  description:
    "The clients of the person's business, by name: each with phone, email, the names of their pets, the last and " +
    'next booking and what is unpaid in words. `q` finds clients by part of a name, email, phone number (any ' +
    'spacing; 082… and +27 82… alike) or pet name. `limit` 1 to 50 (default 20); when `next` is not null, send it ' +
    'back as `cursor` (with the same `q`) for the next page. Use a `clientId` with get_client for the whole ' +
    'client, with add_client_note to keep a note, or with list_business_bookings. Owners and managers only.',
  input: z
    .object({
      ...RunBusinessIdShape,
      q: z
        .string()
        .min(1)
        .max(100)
        .optional()
        .meta({ description: 'Part of a name, email, phone number or pet name.', example: 'Bongo' }),
      limit: z.int().min(1).max(50).default(20),
      cursor: z.string().min(1).max(800).optional().meta({ description: 'The `next` of the previous page.' }),
    })
    .strict(),
  output: z
    .object({
      businessId: z.string(),
      clients: z.array(ClientListItemSchema),
      next: z
        .string()
        .nullable()
        .meta({ description: 'Send as `cursor` for the next page; null on the last.' }),
    })
    .meta({ id: 'BusinessClientList', description: "A page of the business's clients, by name." }),
  successStatus: 200,
  errors: RUN_ACCESS_ERRORS,
  annotations: READ_ONLY,
  async handler(ctx, input) {
    const after = cursor.after(input.cursor);
    return inBusiness(ctx, input.businessId, 'read', async ({ q, access: { business } }) => {
      const rows = await searchClients(q, business.id, { q: input.q, after, limit: input.limit + 1 });
      const page = rows.slice(0, input.limit);
      const summaries = await clientSummaries(
        q,
        business.id,
        page.map((c) => c.id),
        ctx.deps.clock.now(),
      );
      const last = page.at(-1);
      return {
        businessId: business.id,
        clients: page.map((c) => {
          const s = summaries.get(c.id);
          const balance = balanceOf(s, business.currency);
          return {
            clientId: c.id,
            name: c.name,
            phone: c.phone,
            email: c.email,
            pets: s?.petNames ?? [],
            lastBooking: bookingRef(s?.last ?? null, business.timezone),
            nextBooking: bookingRef(s?.next ?? null, business.timezone),
            owedCents: balance.owedCents,
            balance: balance.words,
          };
        }),
        next: rows.length > input.limit && last ? cursor.of({ name: last.sortName, id: last.id }) : null,
      };
    });
  },
});

export const getClient = defineOperation({
  operationId: 'getClient',
  toolName: 'get_client',
  title: 'Get a client',
  tag: 'Run',
  mcp: 'business',
  method: 'GET',
  path: '/v1/business/clients/:clientId',
  inputIn: 'query',
  auth: { scope: 'business:manage' },
  description:
    'One client of the business: contact, pets (type, breed, weight, coat, the owner’s notes), the addresses used ' +
    `with access notes, the last and next booking, the newest ${CLIENT_HISTORY} bookings (newest first, with ` +
    'services, address and money), what is unpaid, and the business’s notes on the client and their pets (newest ' +
    'first, with who wrote them). Only what came with this business’s own bookings is shown. Owners and managers only.',
  input: z.object({ ...RunBusinessIdShape, ...ClientIdShape }).strict(),
  output: ClientSchema,
  successStatus: 200,
  errors: [
    ...RUN_ACCESS_ERRORS.filter((e) => e.status !== 404),
    {
      status: 404,
      description: 'No business of that id that the person is on the staff of, or no such client of it.',
    },
  ].sort((a, b) => a.status - b.status),
  annotations: READ_ONLY,
  async handler(ctx, input) {
    return inBusiness(ctx, input.businessId, 'read', async ({ q, access: { business } }) => {
      const client = await clientOf(q, business, input.clientId);
      const now = ctx.deps.clock.now();
      const [summaries, pets, addresses, ids] = await Promise.all([
        clientSummaries(q, business.id, [client.id], now),
        listClientPets(q, business.id, client.id),
        listClientAddresses(q, business.id, client.id),
        clientBookingIds(q, business.id, client.id, CLIENT_HISTORY),
      ]);
      const petNames = new Map(pets.flatMap((p) => (p.petId ? [[p.petId, p.name] as const] : [])));
      const summary = summaries.get(client.id);
      return {
        businessId: business.id,
        clientId: client.id,
        name: client.name,
        phone: client.phone,
        email: client.email,
        hasAccount: client.userId !== null,
        clientSince: client.createdAt.toISOString(),
        pets: pets.map((p) => ({ ...p, lastSeen: p.lastSeen.toISOString() })),
        addresses: addresses.map((a) => ({ ...a, lastUsed: a.lastUsed.toISOString() })),
        lastBooking: bookingRef(summary?.last ?? null, business.timezone),
        nextBooking: bookingRef(summary?.next ?? null, business.timezone),
        history: await historyOf(q, business, ids.bookings),
        historyTotal: ids.total,
        balance: balanceOf(summary, business.currency),
        notes: await notesOf(q, business.id, client.id, petNames),
      };
    });
  },
});

/** The client's newest bookings as jobs (the Run booking shape), newest first. */
async function historyOf(q: Queryable, business: BusinessRow, newest: { id: string }[]) {
  const rows = await findJobs(
    q,
    business.id,
    newest.map((b) => b.id),
  );
  return toJobs(q, business.id, business, rows.reverse());
}

export const addClientNote = defineOperation({
  operationId: 'addClientNote',
  toolName: 'add_client_note',
  title: 'Add a note on a client or pet',
  tag: 'Run',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/clients/:clientId/notes',
  inputIn: 'body',
  auth: { scope: 'business:manage' },
  description:
    'Keeps a note on a client of the business, or on one of their pets (`petId` from get_client): temperament, ' +
    'health, access codes, the vet, preferences. `text` 1 to 1000 characters; `kind` says what it is about ' +
    '(default OTHER). Only the business’s people see it (not the client). Answers the note and the client’s notes, ' +
    'newest first. It changes no booking or money, so it is kept at once: read the note back to the person first. ' +
    'Owners and managers only.',
  input: z
    .object({
      ...RunBusinessIdShape,
      ...ClientIdShape,
      text: z.string().trim().min(1).max(1000).meta({ example: 'Gate code changed to 5813.' }),
      petId: z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,128}$/, 'Letters, digits, _ and -, 1 to 128.')
        .optional()
        .meta({
          description: 'A saved pet of the client (get_client’s `pets[].petId`); leave out for the client.',
        }),
      kind: NoteKindSchema.default('OTHER'),
    })
    .strict(),
  output: z
    .object({
      businessId: z.string(),
      clientId: z.string(),
      note: ClientNoteSchema,
      notes: z
        .array(ClientNoteSchema)
        .meta({ description: `The client’s notes, newest first (the newest ${CLIENT_NOTES_SHOWN}).` }),
    })
    .meta({ id: 'ClientNoteAdded', description: 'The note kept, and the client’s notes with it.' }),
  successStatus: 201,
  errors: [
    ...RUN_ACCESS_ERRORS.filter((e) => e.status !== 404),
    {
      status: 404,
      description:
        'No business of that id that the person is on the staff of, no such client of it, or no such pet of the client.',
    },
  ].sort((a, b) => a.status - b.status),
  events: [],
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(ctx, input) {
    return inBusiness(ctx, input.businessId, 'change', async ({ q, access: { business } }) => {
      const client = await clientOf(q, business, input.clientId);
      const pets = await listClientPets(q, business.id, client.id);
      const petNames = new Map(pets.flatMap((p) => (p.petId ? [[p.petId, p.name] as const] : [])));
      if (input.petId && !petNames.has(input.petId))
        throw new ServiceError(
          'NOT_FOUND',
          `No pet ${input.petId} of ${client.name} at ${business.name}. get_client lists their pets; leave out petId for a note on the client.`,
          { petId: input.petId, clientId: client.id },
        );
      const author = await findUserById(q, ctx.auth!.userId);
      const row = await insertClientNote(
        q,
        {
          businessId: business.id,
          clientId: client.id,
          petId: input.petId ?? null,
          kind: input.kind,
          text: input.text,
          authorUserId: ctx.auth!.userId,
          authorName: author?.name || author?.email.split('@')[0] || 'staff',
        },
        ctx.deps.clock.now(),
      );
      await auditChange(ctx, q, 'client.note.add', row.id, {
        businessId: business.id,
        clientId: client.id,
        petId: row.petId,
        kind: row.kind,
      });
      return {
        businessId: business.id,
        clientId: client.id,
        note: noteOf(row, petNames),
        notes: await notesOf(q, business.id, client.id, petNames),
      };
    });
  },
});
