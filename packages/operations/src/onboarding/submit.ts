// submitBusinessForReview: the person saw the summary of their application and agreed; it goes to
// the operator (SUBMITTED). Without confirm: true, 409 CONFIRM_REQUIRED with the summary to show.
import { stillNeeded } from '@nogpets/onboarding-checklist';
import { type ApplicationRow, submitApplication } from '@nogpets/store';
import { z } from 'zod';
import { auditChange, confirmStep, defineOperation, ServiceError } from '../core/index.js';
import { recordEvent, sourceOf } from '../events/index.js';
import { applicationAnswer, inOwnDraft } from './application.js';
import { applicationFacts } from './application-facts.js';
import { type Application, ApplicationIdSchema, ApplicationSchema } from './application-model.js';
import { payFastServes } from '../money/index.js';
import { weekWords } from '../schedule/index.js';

const KIND_WORDS = { VAN: 'van or salon table', WALKER: 'walker', SITTER: 'sitter' } as const;

/** What the person is asked to agree to, in words and as data. */
export function summaryOf(row: ApplicationRow, answer: Application) {
  const place = [row.details.town, row.country].filter((x) => typeof x === 'string' && x).join(', ');
  const services = answer.services.map((s) => ({
    name: s.name,
    category: s.category,
    kind: s.kind,
    price: s.price ?? 'price to be set',
    durationMin: s.durationMin,
  }));
  const areas = answer.areas.filter((a) => a.status !== 'REJECTED').map((a) => a.name);
  const resources = answer.resources.map(
    (r) => `${r.name} (${KIND_WORDS[r.kind]}: ${r.week ? weekWords(r.week) : 'business hours'})`,
  );
  const staff = answer.staff.map(
    (i) =>
      `${[i.email, i.phone].filter(Boolean).join(', ')} as ${i.role}${i.jobTitle ? ` (${i.jobTitle})` : ''}`,
  );
  const preference = row.details.payoutPreference as { method?: string } | undefined;
  const payment = answer.gateway
    ? `card payments through PayFast, merchant ${answer.gateway.merchantId}`
    : payFastServes(row.country)
      ? 'PayFast not connected yet (optional)'
      : preference?.method
        ? `paid by ${preference.method}`
        : 'no payout preference yet (optional)';
  const lines = [
    `${answer.name}${place ? `, ${place}` : ''}: prices in ${answer.currency ?? 'a currency not yet set'}, hours in ${answer.timezone ?? 'a time zone not yet set'}.`,
    `Services: ${
      services.length
        ? services
            .map(
              (s) =>
                `${s.name} ${s.price} (${s.durationMin} min, ${s.kind === 'PRIMARY' ? 'main' : 'extra'}, ${s.category})`,
            )
            .join('; ')
        : 'none'
    }.`,
    `Areas, for the operator to approve: ${areas.length ? areas.join('; ') : 'none'}.`,
    `Who works: ${resources.length ? resources.join('; ') : 'nobody yet'}.`,
    `Business hours: ${weekWords(answer.businessHours)}.`,
    `Staff invited (from approval on): ${staff.length ? staff.join('; ') : 'nobody'}.`,
    `Payment: ${payment}.`,
  ];
  return {
    place,
    details: lines.slice(0, -1),
    summary: lines.join('\n'),
    application: {
      name: answer.name,
      country: answer.country,
      currency: answer.currency,
      timezone: answer.timezone,
      services,
      areas,
      resources,
      businessHours: weekWords(answer.businessHours),
      staff,
      payment,
    },
  };
}

export const submitBusinessForReview = defineOperation({
  operationId: 'submitBusinessForReview',
  confirmKind: 'application',
  toolName: 'submit_business_for_review',
  title: 'Send the application for review',
  tag: 'Business',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/applications/:applicationId/submit',
  inputIn: 'body',
  auth: { scope: 'business:write' },
  description:
    'Sends the application to the operator for review, once `readyToSubmit` is true. First call it without ' +
    '`confirm`: the answer is 409 CONFIRM_REQUIRED with `details.summary` (name, country, currency and zone, services ' +
    'with prices in words, areas, who works and when, staff, payment). Show it to the person; only after they agree ' +
    'call again with `confirm: true`. Not ready: 409 NOT_READY with what is missing. Once sent it can no longer be ' +
    'changed; `statusUrl` shows the decision. Answers the application, SUBMITTED.',
  input: z
    .object({
      applicationId: ApplicationIdSchema,
      confirm: z.boolean().optional().meta({
        description:
          'true only after the person agreed to the summary; left out or false: 409 CONFIRM_REQUIRED.',
      }),
    })
    .strict()
    .meta({ example: { applicationId: 'app_2mphcqg0nb2518jt8bsf', confirm: true } }),
  output: ApplicationSchema,
  successStatus: 200,
  errors: [
    { status: 400, description: 'Invalid input.' },
    { status: 401, description: 'No or an invalid credential.' },
    { status: 403, description: 'The credential lacks business:write.' },
    {
      status: 404,
      description: 'No such application of the person (another person’s is not shown to exist).',
    },
    {
      status: 409,
      description:
        '`CONFIRM_REQUIRED` (show `details.summary`, then send `confirm: true`), `NOT_READY` (`details.missing` ' +
        'lists what is still needed, with the tool for each) or `NOT_ACTIVE` (already sent).',
    },
    { status: 429, description: 'Too many requests.' },
  ],
  events: ['application.submitted'],
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(ctx, input) {
    const now = ctx.deps.clock.now();
    return inOwnDraft(ctx, input.applicationId, async ({ q, row }) => {
      const answer = await applicationAnswer(ctx, q, row);
      if (!answer.readyToSubmit) {
        const missing = stillNeeded(answer.checklist).map((i) => ({
          item: i.id,
          title: i.title,
          missing: i.missing,
          fixWith: i.fixWith,
        }));
        throw new ServiceError(
          'NOT_READY',
          `The application is not ready to send: ${missing
            .map((m) => `${m.title.toLowerCase()} (${m.missing.join('; ')})`)
            .join('; ')}.`,
          { applicationId: row.id, missing, next: answer.next },
        );
      }
      const { details: detailLines, application, place } = summaryOf(row, answer);
      confirmStep(
        ctx,
        input.confirm,
        {
          kind: 'application',
          what: `Send for the NogPets operator's review the application of ${answer.name}`,
          place: place || row.country || 'a country not yet set',
          money: `payment: ${application.payment}`,
          when: null,
          pets: null,
          amount: null,
          // The application line by line; its payment is the money part, said first.
          after: `\n${detailLines.join('\n')}`,
        },
        {
          message:
            'Sending the application needs the person to agree: show them the summary and, once they agree, send confirm: true.',
          details: { applicationId: row.id, application },
        },
      );
      const submitted = await submitApplication(q, row.id, now);
      await auditChange(ctx, q, 'application.submit', row.id, { name: row.name });
      await recordEvent(q, sourceOf(ctx, 'person'), {
        type: 'application.submitted',
        businessId: null,
        personId: row.userId,
        subjectId: row.id,
        data: applicationFacts(submitted!),
      });
      return applicationAnswer(ctx, q, submitted!);
    });
  },
});
