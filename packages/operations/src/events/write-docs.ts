/** Writes docs/events.md from the catalog: `pnpm docs:events` at the repository's root. */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EVENTS_DOC_PATH, eventsMarkdown } from './docs.js';

const path = fileURLToPath(new URL(`../../../../${EVENTS_DOC_PATH}`, import.meta.url));
writeFileSync(path, eventsMarkdown());
console.log(`Wrote ${path}`);
