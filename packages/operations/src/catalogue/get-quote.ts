import { z } from 'zod';
import { defineOperation, documentRules, READ_ONLY } from '../core/index.js';
import { BUSINESS_ERRORS, whereOneOf, whereRule } from '../places/index.js';
import { priceRequest, QuoteRequestShape, QuoteSchema, SAVED_REF_ERRORS } from './quote-request.js';

export const getQuote = defineOperation({
  operationId: 'getQuote',
  toolName: 'get_quote',
  title: 'Price a booking',
  tag: 'Booking',
  mcp: 'person',
  method: 'POST',
  path: '/v1/quote',
  inputIn: 'body',
  auth: 'public',
  description:
    "The exact price and duration for the person's pets: `category` (grooming, walking or sitting), each pet by value " +
    '(`name`, `type` DOG/CAT, `weightKg` estimate, `coat` SHORT/MEDIUM/LONG) with `serviceIds`: one PRIMARY service of ' +
    'the category plus any EXTRAs (ids from list_services). Optionally where (`address`, `lat`+`lng` or `postalCode`): ' +
    'a place we do not serve answers 409 NO_COVERAGE with `details.message` to pass on. Show the person `summary`; ' +
    'prices are cents of rand (card adds `cardFeeCents`). Then find_times for when. For a partner business pass its ' +
    "`businessId` (from the directory's `bookWith`) and its own service ids (list_services with that businessId). " +
    'No sign-in needed.',
  input: z
    .object(QuoteRequestShape)
    .strict()
    .superRefine(whereRule(false, true))
    .meta({
      override: documentRules(whereOneOf(false, true)),
      example: {
        category: 'grooming',
        address: '12 Dorp Street, Die Boord, Stellenbosch',
        pets: [{ name: 'Rex', type: 'DOG', weightKg: 12.5, coat: 'SHORT', serviceIds: ['groom-dog-bath'] }],
      },
    }),
  output: QuoteSchema,
  successStatus: 200,
  errors: [
    {
      status: 400,
      description:
        'Invalid input, or services that do not fit the pet (`details.reason`, `details.pet`, `details.serviceId`).',
    },
    ...SAVED_REF_ERRORS,
    {
      status: 409,
      description: `\`NO_COVERAGE\`: the place is not served (\`details.message\` to pass on, \`details.leadId\`); or ${BUSINESS_ERRORS.conflict}.`,
    },
    {
      status: 422,
      description:
        '`UNKNOWN_PLACE`: we could not tell where the place is; ask for the suburb or postal code.',
    },
    { status: 429, description: 'Too many requests.' },
  ],
  annotations: READ_ONLY,
  async handler(ctx, input) {
    const { quote, line } = await priceRequest(ctx, input, 'getQuote');
    // pricing-tiers keeps the category as text; it is the line's id.
    return { ...quote, category: line.id };
  },
});
