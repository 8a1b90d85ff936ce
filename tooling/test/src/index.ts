export { fixedClock, type TestClock } from './clock.js';
export {
  availableServers,
  createTestDatabase,
  defaultServer,
  type ServerKind,
  type TestDatabase,
  type TestDatabaseOptions,
} from '@nogpets/store/testing';
export { type Browser, launchBrowser, type Page } from './browser.js';
