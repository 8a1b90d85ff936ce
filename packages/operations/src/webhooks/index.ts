/** The public entry of webhooks/: endpoints of businesses and persons, the fan-out of events to deliveries, and sending them. */
export { addressProblem, checkWebhookUrl, DEFAULT_WEBHOOK_SETTINGS, MAX_WEBHOOK_URL } from './address.js';
export {
  afterFailure,
  deliveriesOf,
  fanOutWebhookEvents,
  MAX_WEBHOOK_ATTEMPTS,
  RETRY_DELAYS_MS,
  sendDueWebhooks,
  WEBHOOK_LEASE_MS,
  WEBHOOK_READER,
} from './deliveries.js';
export {
  createMyWebhookEndpoint,
  createWebhookEndpoint,
  deleteMyWebhookEndpoint,
  deleteWebhookEndpoint,
  listMyWebhookDeliveries,
  listMyWebhookEndpoints,
  listWebhookDeliveries,
  listWebhookEndpoints,
  MAX_WEBHOOK_ENDPOINTS,
  newWebhookSecret,
  redeliverMyWebhook,
  redeliverWebhook,
} from './endpoints.js';
export { postWebhook, signedHeaders, webhookPayload } from './send.js';
export { ALL_EVENTS, BUSINESS_EVENT_TYPES, endpointWants, PERSON_EVENT_TYPES } from './types.js';
