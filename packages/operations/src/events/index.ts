/** The public entry of events/: the catalog of domain event types and shapes, their envelope, and recording them. */
export {
  type ActorKind,
  type BookingFacts,
  BookingFactsSchema,
  EVENT_CATALOG,
  EVENT_TYPES,
  type EventData,
  type EventDefinition,
  type EventType,
  MoneySchema,
  OrderFactsSchema,
} from './catalog.js';
export { envelopeOf, type EventEnvelope, EventEnvelopeSchema } from './envelope.js';
/** One example of each event's data (docs/events.md shows them; tests read them). */
export { EVENT_EXAMPLES } from './examples.js';
export {
  bookingFacts,
  type EventSource,
  type NewEvent,
  operatorSource,
  orderFacts,
  recordEvent,
  recordEvents,
  sourceOf,
  systemSource,
} from './record.js';
