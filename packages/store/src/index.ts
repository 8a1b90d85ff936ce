export { type Database, ensureDatabase, type OpenDatabaseOptions, openDatabase } from './database.js';
export { DEMO_DIR, loadDemoData, readOperatorDemo } from './demo-data.js';
export {
  type EmbeddedOptions,
  type EmbeddedServer,
  runningEmbedded,
  startEmbeddedPostgres,
} from './embedded.js';
export { newId } from './ids.js';
export { closeLead, countLeads, insertLead, type LeadRow, listLeads, type NewLead } from './leads.js';
export { MIGRATIONS_DIR, type MigrationResult, migrate } from './migrate.js';
export { findBusiness, findBusinessContact, findBusinesses, findOperator, loadOffer } from './offer.js';
export {
  atomically,
  createSql,
  type Queryable,
  type Sql,
  type SqlOptions,
  type TransactionSql,
  transaction,
} from './sql.js';
export type * from './types.js';
export { readSchedule, type ScheduleRows } from './schedule.js';
export { demoBookings } from './demo-data.js';
export * from './users.js';
export * from './credentials.js';
export * from './pets.js';
export * from './addresses.js';
export * from './saved.js';
export * from './sessions.js';
export * from './oauth.js';
export * from './oidc.js';
export * from './audit.js';
export * from './bookings.js';
export * from './directory.js';
export * from './applications.js';
export * from './drafts.js';
export * from './series.js';
export * from './payments.js';
export * from './invoices.js';
export * from './idempotency.js';
export * from './settings.js';
export * from './mail.js';
export * from './payment-notices.js';
export * from './rate-limits.js';
export * from './review.js';
export * from './run.js';
export * from './clients.js';
export * from './booking-messages.js';
export * from './prices.js';
export * from './working-time.js';
export * from './payouts.js';
export * from './staff.js';
export * from './shop.js';
export * from './events.js';
export * from './event-readers.js';
export * from './notices.js';
export * from './calendar-feeds.js';
export * from './webhooks.js';
export * from './confirmations.js';
