import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // A test database on DATABASE_URL's server, or on an embedded one when it is unset.
    globalSetup: ['@nogpets/test-utils/global-setup'],
    hookTimeout: 120_000,
  },
});
