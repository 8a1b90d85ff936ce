import { defineConfig } from 'tsup';

// ESM (index.js, index.d.ts) and CommonJS (index.cjs, index.d.cts) builds of one entry.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
});
