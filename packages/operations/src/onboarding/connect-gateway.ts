// connectGateway: a South African business's PayFast merchant id, so card payments reach it. Only
// the id: never the merchant key or the passphrase (the strict input refuses those fields).
import { updateApplicationParts } from '@nogpets/store';
import { z } from 'zod';
import { auditChange, defineOperation, ServiceError } from '../core/index.js';
import { payFastServes } from '../money/index.js';
import { applicationAnswer, inOwnDraft } from './application.js';
import { ApplicationIdSchema, ApplicationSchema, STEP_ERRORS } from './application-model.js';

/** PayFast merchant ids are numeric: 8 to 10 digits (the sandbox's is 10000100). */
const MERCHANT_ID = /^\d{8,10}$/;

export const connectGateway = defineOperation({
  operationId: 'connectGateway',
  toolName: 'connect_gateway',
  title: 'Connect PayFast',
  tag: 'Business',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/applications/:applicationId/gateway',
  inputIn: 'body',
  auth: { scope: 'business:write' },
  description:
    'South Africa only, and optional: connects the business’s PayFast account by its merchant id (8 to 10 digits, ' +
    'on the PayFast dashboard), so card payments for its bookings go to it. Ask only for the merchant id: never ask ' +
    'for or send the merchant key or the passphrase (refused). Sending it again replaces it. Outside South Africa ' +
    'the business says how it would like to be paid with start_business_signup (`payoutPreference`) instead. ' +
    'Answers the application with its `checklist` and `next`.',
  input: z
    .object({
      applicationId: ApplicationIdSchema,
      merchantId: z
        .string()
        .trim()
        .regex(MERCHANT_ID, 'expected a PayFast merchant id: 8 to 10 digits')
        .meta({ description: 'The PayFast merchant id, 8 to 10 digits.', example: '10000100' }),
    })
    .strict(),
  output: ApplicationSchema,
  successStatus: 200,
  errors: [
    {
      status: 400,
      description:
        'Invalid input: a merchant id not of 8 to 10 digits, or any other field (a merchant key or passphrase is never taken).',
    },
    { status: 401, description: 'No or an invalid credential.' },
    { status: 403, description: 'The credential lacks business:write.' },
    {
      status: 404,
      description: 'No such application of the person (another person’s is not shown to exist).',
    },
    {
      status: 409,
      description:
        '`NOT_AVAILABLE_IN_COUNTRY`: the application is not in South Africa (PayFast pays South African businesses ' +
        'only); `NOT_ACTIVE`: it was sent for review.',
    },
    ...STEP_ERRORS.filter((e) => e.status === 429),
  ],
  events: [],
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(ctx, input) {
    const now = ctx.deps.clock.now();
    return inOwnDraft(ctx, input.applicationId, async ({ q, row }) => {
      if (!payFastServes(row.country)) {
        throw new ServiceError(
          'NOT_AVAILABLE_IN_COUNTRY',
          row.country
            ? `PayFast is for businesses in South Africa; this one is in ${row.country}. Say how the business would like to be paid with start_business_signup (payoutPreference) instead.`
            : 'PayFast is for businesses in South Africa, and this application has no country yet: set it with start_business_signup first.',
          { applicationId: row.id, country: row.country },
        );
      }
      const gateway = { kind: 'PAYFAST', merchantId: input.merchantId };
      const updated = await updateApplicationParts(q, row.id, { gateway }, now);
      await auditChange(ctx, q, 'application.gateway', row.id, { merchantId: input.merchantId });
      return applicationAnswer(ctx, q, updated);
    });
  },
});
