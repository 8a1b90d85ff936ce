import { insertAddress, listAddresses as listAddressRows } from '@nogpets/store';
import { z } from 'zod';
import { actorName, auditChange, defineOperation, READ_ONLY, ServiceError } from '../core/index.js';
import { POSTAL_CODE, resolveWhere } from '../places/index.js';

/** An address's notes (gate code, parking): add_address's limit, and the account page's. */
export const AddressNotesSchema = z.string().max(300);

export const AddressSchema = z
  .object({
    id: z.string().meta({ description: 'Used as `addressId`.' }),
    label: z.string(),
    line1: z.string(),
    suburb: z.string().nullable(),
    postalCode: z.string().nullable(),
    city: z.string().nullable(),
    country: z.string().nullable(),
    lat: z.number().nullable(),
    lng: z.number().nullable(),
    notes: z.string().nullable(),
  })
  .meta({
    id: 'Address',
    description: 'A saved address; its `id` is the `addressId` of get_quote, find_times and book.',
  });

export const listAddresses = defineOperation({
  operationId: 'listAddresses',
  toolName: 'list_addresses',
  title: 'List saved addresses',
  tag: 'Account',
  mcp: 'person',
  method: 'GET',
  path: '/v1/addresses',
  inputIn: 'query',
  auth: { scope: 'addresses' },
  description:
    "The person's saved addresses, each with `id`, `label` (Home, Work), street (`line1`), suburb, postal code, city " +
    'and notes (gate code, parking). Use it when the person is signed in and wants a price, open times or a booking at ' +
    "one of their places: pass an address's `id` as `addressId` in get_quote, find_times and book (book needs a saved " +
    'address). Show the addresses by label and street and ask which one; when none is saved, ask for the address and ' +
    'offer add_address.',
  input: z.object({}).strict(),
  output: z.object({ addresses: z.array(AddressSchema) }),
  successStatus: 200,
  errors: [{ status: 429, description: 'Too many requests.' }],
  annotations: READ_ONLY,
  async handler(ctx) {
    return { addresses: await listAddressRows(ctx.deps.sql, ctx.auth!.userId) };
  },
});

export const addAddress = defineOperation({
  operationId: 'addAddress',
  toolName: 'add_address',
  title: 'Save an address',
  tag: 'Account',
  mcp: 'person',
  method: 'POST',
  path: '/v1/addresses',
  inputIn: 'body',
  auth: { scope: 'addresses' },
  description:
    'Saves an address for the person: `label` (Home, Work) and `line1` (street), with the `suburb` and/or `postalCode` ' +
    '(or inside line1); abroad, the `city` and country in `line1` or `city`. Optional `lat`/`lng` and `notes` (gate code, ' +
    'parking). Answers the address with `covered` and per-line `lines`. 422 UNKNOWN_PLACE means we do not recognise the ' +
    'suburb or postal code: ask the person for it.',
  input: z
    .object({
      label: z.string().trim().min(1).max(40),
      line1: z.string().trim().min(1).max(200),
      suburb: z.string().trim().min(1).max(80).optional(),
      postalCode: z.string().regex(POSTAL_CODE).optional(),
      city: z.string().trim().min(1).max(80).optional(),
      lat: z.number().min(-90).max(90).optional(),
      lng: z.number().min(-180).max(180).optional(),
      notes: AddressNotesSchema.optional(),
    })
    .strict()
    .superRefine((v, c) => {
      if ((v.lat === undefined) !== (v.lng === undefined))
        c.addIssue({
          code: 'custom',
          path: [v.lat === undefined ? 'lat' : 'lng'],
          message: 'lat and lng go together.',
        });
    }),
  output: AddressSchema.extend({
    covered: z.boolean(),
    lines: z.array(z.object({ id: z.string(), label: z.string(), covered: z.boolean() })),
  }),
  successStatus: 201,
  errors: [
    {
      status: 422,
      description: '`UNKNOWN_PLACE`: the suburb or postal code is not recognised; ask the person.',
    },
    { status: 429, description: 'Too many requests.' },
  ],
  events: [],
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(ctx, input) {
    const auth = ctx.auth!;
    const offer = await ctx.deps.offers.operator();
    const text = [input.line1, input.suburb, input.postalCode, input.city].filter(Boolean).join(', ');
    const where =
      input.lat !== undefined && input.lng !== undefined
        ? { lat: input.lat, lng: input.lng }
        : { address: text };
    const { resolved, coverage, place } = await resolveWhere(ctx, offer, where);
    if (resolved.kind === 'unknown' || resolved.kind === 'country' || !place) {
      const message = `We don't recognise the suburb or postal code in "${text}". Ask the person for their suburb and postal code (or the city, abroad).`;
      throw new ServiceError('UNKNOWN_PLACE', message, {
        message,
        next: 'Ask for the suburb and postal code, then call add_address again.',
      });
    }
    return ctx.deps.sql.begin(async (tx) => {
      const address = await insertAddress(
        tx,
        auth.userId,
        {
          label: input.label,
          line1: input.line1,
          suburb: place.suburb ?? input.suburb ?? null,
          postalCode: place.postalCode ?? input.postalCode ?? null,
          city: place.town ?? input.city ?? null,
          country: place.country,
          lat: input.lat ?? place.lat,
          lng: input.lng ?? place.lng,
          notes: input.notes ?? null,
        },
        actorName(ctx),
      );
      await auditChange(ctx, tx, 'address.add', address.id, { label: address.label });
      return { ...address, covered: coverage.covered, lines: coverage.lines };
    });
  },
});
