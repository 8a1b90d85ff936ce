import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['./src/testing/global-setup.ts'],
    // The store and migration tests run against both servers: DATABASE_URL's and the embedded one.
    env: { NOGPETS_TEST_BOTH_DATABASES: '1' },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
