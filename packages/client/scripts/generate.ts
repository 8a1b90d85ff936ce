import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generate, openApiFile, packageDir, readsFile, schemaFile } from './schema.js';

// Writes openapi.json, src/schema.ts and src/reads.ts; commit both (test/schema.test.ts compares them with a fresh run).
const { openApi, schema, reads } = await generate();
await writeFile(openApiFile, openApi);
await writeFile(schemaFile, schema);
await writeFile(readsFile, reads);
for (const file of [openApiFile, schemaFile, readsFile])
  console.log(`wrote ${path.relative(packageDir, file)}`);
