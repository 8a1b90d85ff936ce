import { defineConfig } from 'tsup';

// ESM (index.js, index.d.ts) and CommonJS (index.cjs, index.d.cts) builds of one entry.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  // country-to-currency is ESM only: bundled, so require() of the CommonJS build needs no require(esm).
  noExternal: ['country-to-currency'],
});
