/** Which events an endpoint may choose and receives (docs/decisions.md, "Webhooks"). */
import type { DomainEventRow, WebhookEndpointRow } from '@nogpets/store';
import { EVENT_TYPES } from '../events/index.js';

/** Every type at once, now and to come. */
export const ALL_EVENTS = '*';

/** A business's endpoints may choose any type: they receive the events of their business. */
export const BUSINESS_EVENT_TYPES: readonly string[] = EVENT_TYPES;

/** A person's endpoints receive the events of their own bookings and orders. */
export const PERSON_EVENT_TYPES: readonly string[] = EVENT_TYPES.filter(
  (t) => t.startsWith('booking.') || t.startsWith('order.'),
);

/** Whether an endpoint receives an event: its owner's, of a type it chose. */
export function endpointWants(endpoint: WebhookEndpointRow, event: DomainEventRow): boolean {
  if (endpoint.businessId !== null) {
    if (event.businessId !== endpoint.businessId) return false;
  } else if (event.personId !== endpoint.personId || !PERSON_EVENT_TYPES.includes(event.type)) {
    return false;
  }
  return endpoint.eventTypes.includes(ALL_EVENTS) || endpoint.eventTypes.includes(event.type);
}
