export { fixedClock, type TestClock } from './clock.js';
export {
  availableServers,
  createTestDatabase,
  defaultServer,
  type ServerKind,
  type TestDatabase,
  type TestDatabaseOptions,
} from './database.js';
export { launchBrowser } from './browser.js';
