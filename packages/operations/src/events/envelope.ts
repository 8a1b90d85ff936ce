/**
 * The envelope every reader (mails, webhooks, calendar feeds) gets an event in: the same for every
 * type, with the type's `data` inside. docs/events.md shows it; `envelopeOf` makes it from a row.
 */
import type { DomainEventRow } from '@nogpets/store';
import { z } from 'zod';
import { ActorKindSchema, EVENT_CATALOG } from './catalog.js';

const SUBJECT_KINDS = [...new Set(Object.values(EVENT_CATALOG).map((d) => d.subject))];

export const EventEnvelopeSchema = z.object({
  id: z
    .string()
    .meta({ description: 'Unique to the event: a reader that sees it twice ignores the second.' }),
  type: z.string().meta({ description: 'What happened, dotted lower case (`booking.created`).' }),
  version: z.int().min(1).meta({ description: 'The version of the shape of `data` for this type.' }),
  occurredAt: z.iso.datetime().meta({ description: 'When the change was made (UTC).' }),
  businessId: z
    .string()
    .nullable()
    .meta({ description: 'The business it concerns; null when there is none yet (an application).' }),
  personId: z.string().nullable().meta({
    description:
      'The person it concerns: the pet owner, the applicant, the invited person once they have an account; null when none.',
  }),
  subject: z
    .object({
      kind: z.string().meta({ description: `What \`id\` names: ${SUBJECT_KINDS.join(', ')}.` }),
      id: z.string().meta({ description: 'Its id (`bkg_…` for a booking).' }),
    })
    .meta({ description: 'What the event is about: all the events of one booking share its subject.' }),
  actor: z
    .object({
      kind: ActorKindSchema,
      userId: z.string().nullable().meta({ description: 'The account that acted; null for the system.' }),
      clientName: z
        .string()
        .nullable()
        .meta({ description: 'The assistant that made the call, as it named itself; null when none.' }),
    })
    .meta({ description: 'Who made the change.' }),
  data: z
    .record(z.string(), z.unknown())
    .meta({ description: "The type's own facts: its shape is the type's, at `version`." }),
});
export type EventEnvelope = z.infer<typeof EventEnvelopeSchema>;

/** The envelope of a stored event. */
export function envelopeOf(row: DomainEventRow): EventEnvelope {
  return {
    id: row.id,
    type: row.type,
    version: row.version,
    occurredAt: row.occurredAt.toISOString(),
    businessId: row.businessId,
    personId: row.personId,
    subject: { kind: row.subjectKind, id: row.subjectId },
    actor: { kind: row.actor.kind, userId: row.actor.userId, clientName: row.actor.clientName },
    data: row.data,
  };
}
