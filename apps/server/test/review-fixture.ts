// A business application ready for the operator's review, for the review and console tests: made
// over HTTP by its owner, step by step, then sent for review.
import { CLI_REVIEWER, systemClock } from '@nogpets/operations';
import { approveApplication, createApiKey, decideArea } from '@nogpets/operations/testing';
import type { TestServer } from './harness.js';

export interface ReviewFixture {
  applicationId: string;
  /** The owner's Bearer header value (business:write). */
  auth: string;
  serviceIds: string[];
  /** The radius area (with a centre) and the postal-code area (without one), both PENDING. */
  areaIds: { radius: string; postal: string };
  areaNames: { radius: string; postal: string };
  /** Every area the application proposed, in its order. */
  allAreaIds: string[];
  resourceIds: { van: string; walker: string };
}

export const HOURS = {
  mon: [{ start: '08:00', end: '17:00' }],
  tue: [{ start: '08:00', end: '17:00' }],
  wed: [{ start: '08:00', end: '17:00' }],
  thu: [{ start: '08:00', end: '17:00' }],
  fri: [{ start: '08:00', end: '17:00' }],
  sat: [{ start: '08:00', end: '13:00' }],
};
export const WALKER_WEEK = {
  mon: [{ start: '07:00', end: '11:00' }],
  wed: [{ start: '07:00', end: '11:00' }],
};

/**
 * A groomer and walker in Stellenbosch: two grooming services and a group walk, an 8 km radius and a
 * postal code, a van on the business hours and a walker with a week of its own, two staff invited
 * (`staff` emails), a PayFast merchant id. Sent for review unless `submit` is false.
 *
 * Every step goes through its HTTP operation, as an assistant would call it.
 */
export async function applicationForReview(
  server: TestServer,
  owner: string,
  options: {
    name: string;
    claimListingId?: string;
    staff?: string[];
    submit?: boolean;
    unpriced?: boolean;
    /** set_service_area's input instead of the 8 km radius and postal code 7690. */
    area?: Record<string, unknown>;
  },
): Promise<ReviewFixture> {
  const { key } = await createApiKey(server.db.sql, { email: owner, scopes: ['business:write'] });
  const auth = `Bearer ${key}`;
  const started = await server.post(
    '/v1/business/applications',
    {
      businessName: options.name,
      contactName: 'Thandi Mokoena',
      town: 'Stellenbosch',
      phone: '+27 82 555 0101',
      email: owner,
      categories: ['grooming', 'walking'],
      mode: 'MOBILE',
      ...(options.claimListingId ? { claimListingId: options.claimListingId } : {}),
    },
    { authorization: auth },
  );
  if (started.status !== 201) throw new Error(`start failed: ${JSON.stringify(started.body)}`);
  const applicationId: string = started.body.applicationId;
  const as = { authorization: auth };
  const base = `/v1/business/applications/${applicationId}`;
  const step = async (path: string, body: unknown) => {
    const res = await server.post(`${base}/${path}`, body, as);
    if (res.status !== 200) throw new Error(`${path} failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  await step('services', {
    services: [
      {
        category: 'grooming',
        kind: 'PRIMARY',
        name: 'Full groom',
        blurb: 'Bath, cut and nails.',
        petTypes: ['DOG'],
        priceCents: 45000,
        durationMin: 90,
      },
      {
        category: 'grooming',
        kind: 'EXTRA',
        name: 'Teeth brushing',
        petTypes: ['DOG', 'CAT'],
        priceCents: 6000,
        durationMin: 10,
      },
      {
        category: 'walking',
        kind: 'PRIMARY',
        name: 'Group walk (60 min)',
        blurb: 'Up to four dogs.',
        petTypes: ['DOG'],
        priceCents: 14000,
        durationMin: 60,
        groupSize: 4,
      },
    ],
  });
  await step(
    'area',
    options.area ?? {
      radiusKm: 8,
      center: { lat: -33.9346, lng: 18.8668 },
      centerName: 'Stellenbosch',
      postalCodes: ['7690'],
    },
  );
  await step('hours', { week: HOURS });
  await step('resources', {
    resources: [
      { kind: 'VAN', name: 'Van (Thandi)' },
      { kind: 'WALKER', name: 'Sipho', week: WALKER_WEEK, slotStepMin: 60 },
    ],
  });
  const sql = server.db.sql;
  const stored = async () =>
    (
      await sql`select services, area, resources from business_applications where id = ${applicationId}`
    )[0] as {
      services: { id: string; name: string }[];
      area: { id: string; name: string; kind: string }[];
      resources: { id: string; kind: string }[];
    };
  const { resources } = await stored();
  const van = resources.find((r) => r.kind === 'VAN')!.id;
  const walker = resources.find((r) => r.kind === 'WALKER')!.id;
  const [crew, manager] = options.staff ?? [];
  const people = [
    ...(crew ? [{ email: crew, role: 'crew', jobTitle: 'Walker', resourceIds: [walker] }] : []),
    ...(manager ? [{ email: manager, role: 'manager', jobTitle: 'Head groomer', resourceIds: [van] }] : []),
  ];
  if (people.length) await step('staff', { people });
  await step('gateway', { merchantId: '10000100' });
  if (options.submit !== false) await step('submit', { confirm: true });
  // A submitted application that is no longer complete cannot be made through the steps (submit
  // refuses it): the price is taken away afterwards, as a later change of the rules might.
  if (options.unpriced)
    await sql`update business_applications set services = jsonb_set(services, '{0,priceCents}', 'null') where id = ${applicationId}`;
  const after = await stored();
  // With an `area` of other kinds, a kind it lacks is ''.
  const area = (kind: string) => after.area.find((a) => a.kind === kind) ?? { id: '', name: '' };
  return {
    applicationId,
    auth,
    serviceIds: after.services.map((s) => s.id),
    areaIds: { radius: area('RADIUS').id, postal: area('POSTAL_CODE').id },
    areaNames: { radius: area('RADIUS').name, postal: area('POSTAL_CODE').name },
    allAreaIds: after.area.map((a) => a.id),
    resourceIds: { van, walker },
  };
}

/**
 * A partner as the operator leaves it: the application (with `area` as set_service_area's input)
 * made over HTTP and sent, approved, and each of its areas approved unless `approveAreas` is false.
 * Answers the business's id, its PRIMARY grooming service and its van.
 */
export async function approvedPartner(
  server: TestServer,
  owner: string,
  options: { name: string; area: Record<string, unknown>; approveAreas?: boolean },
): Promise<{ businessId: string; serviceId: string; vanId: string; areaIds: string[] }> {
  const app = await applicationForReview(server, owner, { name: options.name, area: options.area });
  const deps = { sql: server.db.sql, clock: systemClock, payments: { publicUrl: () => server.url } };
  const { businessId } = await approveApplication(deps, app.applicationId, CLI_REVIEWER);
  if (options.approveAreas !== false)
    for (const id of app.allAreaIds) await decideArea(deps, id, 'APPROVED', CLI_REVIEWER);
  return {
    businessId,
    serviceId: app.serviceIds[0]!,
    vanId: app.resourceIds.van,
    areaIds: app.allAreaIds,
  };
}
