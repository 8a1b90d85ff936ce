import { defineConfig } from 'vitest/config';

// The MCP conformance suite against a real server (`pnpm conformance`, run by
// tooling/mcp-conformance/run.sh, which installs the suite and its Node 22). Not in `pnpm test`:
// the suite is not a dependency of the workspace.
export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['**/*.test.ts'],
    globalSetup: ['@nogpets/test-utils/global-setup'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
