/**
 * A booking as the people of its business see it (a job): when in the business's zone, the client,
 * pets with what the crew needs, services, address with access notes, and money. Shared by the day
 * plan and the list of the business's bookings.
 */
import { formatMoney } from '@nogpets/pricing-tiers';
import {
  findMoveFlags,
  findPetFacts,
  type JobRow,
  type MoveFlag,
  type PetFactsRow,
  type Queryable,
  serviceNames,
} from '@nogpets/store';
import { z } from 'zod';
import { paymentWords, statusWords } from './booking-model.js';
import { localTime, ServiceError, whenText } from '../core/index.js';

/** What a booking's details say of its pets: saved pets by id; a pet by value carries its facts. */
interface DetailPet {
  petId?: string;
  name?: string;
  serviceIds?: string[];
  type?: 'DOG' | 'CAT';
  breed?: string | null;
  weightKg?: number;
  coat?: 'SHORT' | 'MEDIUM' | 'LONG';
  notes?: string | null;
}

const MINUTE = 60_000;

export const JobPetSchema = z.object({
  petId: z.string().nullable(),
  name: z.string(),
  type: z.enum(['DOG', 'CAT']).nullable(),
  breed: z.string().nullable(),
  weightKg: z.number().nullable(),
  coat: z.enum(['SHORT', 'MEDIUM', 'LONG']).nullable(),
  notes: z.string().nullable().meta({ description: "The owner's notes on the pet (temperament, health)." }),
  services: z.array(z.string()).meta({ description: 'Service names for this pet.' }),
});

export const JobClientSchema = z
  .object({
    clientId: z.string(),
    name: z.string(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
  })
  .nullable()
  .meta({
    description: "The business's client; null for a booking made before clients were kept (no account).",
  });

export const JobSchema = z.object({
  bookingId: z.string(),
  status: z.enum(['PENDING', 'ACCEPTED', 'CANCELLED', 'EXPIRED', 'DONE']),
  statusWords: z.string(),
  category: z.string(),
  resourceId: z.string(),
  start: z.iso.datetime(),
  end: z.iso.datetime(),
  startLocal: z.string().meta({ description: 'HH:MM in the business’s time zone.', example: '08:30' }),
  endLocal: z.string().meta({ example: '10:00' }),
  when: z.string().meta({ description: 'Local date and times in words.' }),
  client: JobClientSchema,
  pets: z.array(JobPetSchema),
  services: z.array(z.string()).meta({ description: 'Every service of the booking, by name.' }),
  address: z.string(),
  accessNotes: z
    .string()
    .nullable()
    .meta({ description: 'How to get in (gate codes, keys, parking): the address’s notes.' }),
  notes: z.string().meta({ description: 'What the client wrote on the booking.' }),
  totalCents: z.int(),
  total: z.string(),
  paymentMethod: z.enum(['CARD', 'CASH']),
  paymentStatus: z.enum(['PENDING', 'PAID', 'CASH_DUE', 'REFUND_REQUESTED', 'REFUNDED', 'VOID']),
  paymentWords: z.string(),
  cashToCollect: z.string().nullable().meta({
    description: 'Cash the crew collects on the day (CASH_DUE), in the business’s currency; else null.',
  }),
  unpaidCard: z
    .object({
      amount: z.string(),
      linkOpenUntil: z.iso
        .datetime()
        .nullable()
        .meta({ description: 'When the pay link sent to the client stops working; null when none is open.' }),
    })
    .nullable()
    .meta({ description: 'A card booking whose payment is still awaited (PENDING); else null.' }),
  needsMove: z.boolean().meta({
    description:
      'true when new working hours or time off left this booking outside working time (set_working_hours, ' +
      'add_time_off): the business should move it (move_booking) or cancel it; it stays booked until then.',
  }),
  moveReason: z
    .string()
    .nullable()
    .meta({ description: 'Why it needs moving, in words (with needsMove); else null.' }),
});

export type Job = z.infer<typeof JobSchema>;

/** The jobs of these rows, pets read once for all, in the business's currency and zone. */
export async function toJobs(
  q: Queryable,
  businessId: string,
  business: { currency: string; timezone: string },
  rows: JobRow[],
): Promise<Job[]> {
  const petIds = new Set<string>();
  for (const r of rows) for (const p of petsOf(r)) if (p.petId) petIds.add(p.petId);
  const [facts, names, flags] = await Promise.all([
    findPetFacts(q, [...petIds]),
    serviceNames(q, businessId),
    findMoveFlags(
      q,
      rows.filter((r) => r.status === 'PENDING' || r.status === 'ACCEPTED').map((r) => r.id),
    ),
  ]);
  // A flag holds while the booking is where it was flagged: a moved booking no longer needs moving.
  const toMove = new Map<string, MoveFlag[]>();
  for (const f of flags) toMove.set(f.bookingId, [...(toMove.get(f.bookingId) ?? []), f]);
  const moveReasonOf = (r: JobRow) => {
    const own = (toMove.get(r.id) ?? []).filter(
      (f) => f.resourceId === r.resourceId && f.start.getTime() === r.start.getTime(),
    );
    return own.length ? own.map((f) => f.reason).join(' ') : null;
  };
  const byId = new Map<string, PetFactsRow>(facts.map((p) => [p.id, p]));
  const tz = business.timezone;
  const money = (cents: number) => formatMoney(cents, business.currency);
  return rows.map((r) => {
    const details = r.details as { address?: string; accessNotes?: string | null };
    const pets = petsOf(r).map((p) => {
      const saved = p.petId ? byId.get(p.petId) : undefined;
      return {
        petId: p.petId || null,
        name: saved?.name ?? p.name ?? '',
        type: saved?.type ?? p.type ?? null,
        breed: saved?.breed ?? p.breed ?? null,
        weightKg: saved?.weightKg ?? p.weightKg ?? null,
        coat: saved?.coat ?? p.coat ?? null,
        notes: saved?.notes ?? p.notes ?? null,
        services: (p.serviceIds ?? []).map((id) => names.get(id) ?? id),
      };
    });
    const a = r.address;
    const unpaid = r.paymentMethod === 'CARD' && r.paymentStatus === 'PENDING';
    const moveReason = moveReasonOf(r);
    return {
      bookingId: r.id,
      status: r.status,
      statusWords: statusWords(r),
      category: r.lineId,
      resourceId: r.resourceId,
      start: r.start.toISOString(),
      end: r.end.toISOString(),
      startLocal: localTime(r.start, tz),
      endLocal: localTime(r.end, tz),
      when: whenText(r.start, r.end, tz),
      client: r.clientId
        ? { clientId: r.clientId, name: r.clientName ?? '', phone: r.clientPhone, email: r.clientEmail }
        : null,
      pets,
      services: [...new Set(pets.flatMap((p) => p.services))],
      address: a
        ? [a.line1, a.suburb, a.postalCode, a.city].filter(Boolean).join(', ')
        : (details.address ?? ''),
      accessNotes: a ? (a.notes ?? null) : (details.accessNotes ?? null),
      notes: r.notes,
      totalCents: r.totalCents,
      total: money(r.totalCents),
      paymentMethod: r.paymentMethod,
      paymentStatus: r.paymentStatus,
      paymentWords: paymentWords(r),
      cashToCollect: r.paymentStatus === 'CASH_DUE' ? money(r.totalCents) : null,
      unpaidCard: unpaid
        ? {
            amount: money(r.totalCents),
            linkOpenUntil: r.openLinkUntil ? new Date(r.openLinkUntil).toISOString() : null,
          }
        : null,
      needsMove: moveReason !== null,
      moveReason,
    };
  });
}

function petsOf(r: JobRow): DetailPet[] {
  const pets = (r.details as { pets?: unknown }).pets;
  return Array.isArray(pets) ? (pets as DetailPet[]) : [];
}

/** Minutes between two instants. */
export const minutesBetween = (a: Date, b: Date) => Math.round((b.getTime() - a.getTime()) / MINUTE);

/** A resource the person may not see: crew are told their role; others were asked for no such resource. */
export function resourceRefused(resourceId: string, role: string, businessName: string): ServiceError {
  if (role === 'crew')
    return new ServiceError(
      'FORBIDDEN',
      `As crew at ${businessName} you see only your own day: ${resourceId} is not yours. Leave out resourceId.`,
      { resourceId, role },
    );
  return new ServiceError('NOT_FOUND', `No resource ${resourceId} at ${businessName}.`, { resourceId });
}
