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
export { type EventEnvelope, EventEnvelopeSchema, envelopeOf } from './envelope.js';
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
