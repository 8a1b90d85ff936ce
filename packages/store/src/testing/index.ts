// Test helpers over real PostgreSQL, for this package's tests and the test-utils tooling package.
export {
  availableServers,
  createTestDatabase,
  defaultServer,
  type ServerKind,
  type TestDatabase,
  type TestDatabaseOptions,
} from './database.js';
