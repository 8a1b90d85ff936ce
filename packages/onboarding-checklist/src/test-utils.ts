// Builders with defaults for the tests. Not exported from the package.
import type { ApplicationData, ApplicationResource, ApplicationService, Week } from './types.js';

export const WEEKDAYS_9_TO_5: Week = {
  mon: [{ start: '09:00', end: '17:00' }],
  tue: [{ start: '09:00', end: '17:00' }],
  wed: [{ start: '09:00', end: '17:00' }],
  thu: [{ start: '09:00', end: '17:00' }],
  fri: [{ start: '09:00', end: '17:00' }],
};

export function aService(overrides: Partial<ApplicationService> = {}): ApplicationService {
  return {
    id: 'svc-groom',
    category: 'grooming',
    kind: 'PRIMARY',
    name: 'Full groom',
    priceCents: 45_000,
    durationMin: 90,
    ...overrides,
  };
}

export function aResource(overrides: Partial<ApplicationResource> = {}): ApplicationResource {
  return { id: 'van-1', kind: 'VAN', name: 'Van 1', week: null, ...overrides };
}

/**
 * A mobile groomer in Stellenbosch with everything required: ZA, ZAR and Africa/Johannesburg (from
 * the country), one priced main service, a PENDING area, one van on the business hours.
 */
export function anApplication(overrides: Partial<ApplicationData> = {}): ApplicationData {
  return {
    businessName: 'Stellenbosch Mobile Grooming',
    contactName: 'Anele',
    phone: '+27 21 123 4567',
    email: 'anele@example.com',
    country: 'ZA',
    currency: null,
    timezone: null,
    town: 'Stellenbosch',
    categories: ['grooming'],
    mode: 'MOBILE',
    vans: 1,
    staff: 1,
    services: [aService()],
    area: [{ name: '10 km around Stellenbosch', status: 'PENDING' }],
    resources: [aResource()],
    businessHours: WEEKDAYS_9_TO_5,
    staffInvites: [],
    gateway: null,
    payoutPreference: null,
    claimListingId: null,
    possibleListingsCount: 0,
    ...overrides,
  };
}
