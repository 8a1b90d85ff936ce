export { type Database, ensureDatabase, type OpenDatabaseOptions, openDatabase } from './database.js';
export { DEMO_DIR, loadDemoData, readOperatorDemo } from './demo-data.js';
export { type EmbeddedOptions, type EmbeddedServer, startEmbeddedPostgres } from './embedded.js';
export { newId } from './ids.js';
export { countLeads, insertLead, type LeadRow, listLeads, type NewLead } from './leads.js';
export { MIGRATIONS_DIR, type MigrationResult, migrate } from './migrate.js';
export { findOperator, loadOffer } from './offer.js';
export { createSql, type Sql, type SqlOptions, type TransactionSql } from './sql.js';
export type * from './types.js';
