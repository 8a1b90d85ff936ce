import { defineConfig } from 'vitest/config';

// The fixture's files (one named *.test.ts) are cruised, never run.
export default defineConfig({ test: { include: ['test/*.test.ts'], testTimeout: 180_000 } });
