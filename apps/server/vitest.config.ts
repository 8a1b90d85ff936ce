import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['@nogpets/test-utils/global-setup'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Servers, browsers and PostgreSQL on two cores: one file at a time keeps timings honest.
    fileParallelism: false,
  },
});
