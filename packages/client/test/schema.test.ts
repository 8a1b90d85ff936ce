import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generate, openApiFile, readsFile, schemaFile } from '../scripts/schema.js';

/** The first line where two texts differ, to say where a stale file went wrong. */
function firstDifference(committed: string, fresh: string): string {
  const a = committed.split('\n');
  const b = fresh.split('\n');
  const i = a.findIndex((line, n) => line !== b[n]);
  const at = i === -1 ? a.length : i;
  return `line ${at + 1}: committed ${JSON.stringify(a[at])}, fresh ${JSON.stringify(b[at])}`;
}

describe('generated files', () => {
  it('openapi.json, src/schema.ts and src/reads.ts are what the operation definitions make now', async () => {
    const fresh = await generate();
    for (const [file, text] of [
      [openApiFile, fresh.openApi],
      [schemaFile, fresh.schema],
      [readsFile, fresh.reads],
    ] as const) {
      const committed = await readFile(file, 'utf8');
      expect(
        committed === text,
        `${file} is stale (${firstDifference(committed, text)}): run pnpm --filter @nogpets/client generate and commit`,
      ).toBe(true);
    }
  });

  it('the types carry the booking operations of the document', async () => {
    const { openApi, schema } = await generate();
    const doc = JSON.parse(openApi);
    for (const [path, method] of <const>[
      ['/v1/quote', 'post'],
      ['/v1/availability', 'post'],
      ['/v1/bookings', 'post'],
      ['/v1/bookings/{bookingId}', 'get'],
    ]) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
      expect(schema).toContain(`'${path}': {`);
      expect(schema).toContain(`  ${doc.paths[path][method].operationId}: {`);
    }
  });
});
