import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Building the document from every operation, and the TypeScript program of the type test, take seconds.
    testTimeout: 120_000,
  },
});
