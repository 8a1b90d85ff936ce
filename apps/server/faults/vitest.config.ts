import { defineConfig } from 'vitest/config';

// The fault tests (`pnpm faults`): real server processes, PostgreSQL stopped and killed. Not in
// `pnpm test`: they take minutes. Short forms run there (test/db-away.test.ts, test/restart.test.ts,
// test/worker-kill.test.ts).
export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['**/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
