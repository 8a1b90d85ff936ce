/**
 * docs/events.md, made from the catalog: the envelope, the shared shapes and, per type, its
 * description, version, subject, the JSON Schema of its `data` and an example. `pnpm docs:events`
 * writes it; a test fails when the file and this text differ.
 */
import { z } from 'zod';
import {
  BookingFactsSchema,
  EVENT_CATALOG,
  EVENT_TYPES,
  type EventType,
  MoneySchema,
  OrderFactsSchema,
} from './catalog.js';
import { type EventEnvelope, EventEnvelopeSchema } from './envelope.js';
import { EVENT_EXAMPLES } from './examples.js';

/** Where the file lives, from the repository's root. */
export const EVENTS_DOC_PATH = 'docs/events.md';

/** Shapes many types share: shown once, and `$ref`erenced from the types' schemas. */
const SHARED: [string, z.ZodType, string][] = [
  ['BookingFacts', BookingFactsSchema, 'The booking as it stands after the change.'],
  ['OrderFacts', OrderFactsSchema, 'The shop order as it stands after the change.'],
  ['Money', MoneySchema, 'An amount in minor units (cents) and its currency.'],
];

type Json = Record<string, unknown>;

/**
 * The JSON Schema of what a writer may put in (zod's input side): objects do not forbid other
 * properties, since a version may gain optional fields and readers ignore those they do not know.
 * Shared shapes become `$ref`s, and a date's `format` stands without zod's long pattern.
 */
function jsonSchema(schema: z.ZodType): Json {
  const out = z.toJSONSchema(schema, {
    io: 'input',
    override: ({ zodSchema, jsonSchema: js, path }) => {
      const json = js as Json;
      const shared = path.length > 0 ? SHARED.find(([, s]) => (s as unknown) === zodSchema) : undefined;
      if (shared) {
        for (const key of Object.keys(json)) delete json[key];
        json.$ref = `#/$defs/${shared[0]}`;
        return;
      }
      if (typeof json.format === 'string') delete json.pattern;
      if (json.type === 'integer' && json.minimum === Number.MIN_SAFE_INTEGER) delete json.minimum;
      if (json.type === 'integer' && json.maximum === Number.MAX_SAFE_INTEGER) delete json.maximum;
    },
  }) as Json;
  delete out.$schema;
  return out;
}

/** JSON indented by two, with short lists of plain values on one line. */
function pretty(value: unknown, indent = ''): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (!value.length) return '[]';
    const plain = value.every((v) => v === null || typeof v !== 'object');
    const line = `[${value.map((v) => JSON.stringify(v)).join(', ')}]`;
    if (plain && line.length <= 72) return line;
    return `[\n${value.map((v) => inner + pretty(v, inner)).join(',\n')}\n${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (!entries.length) return '{}';
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${pretty(v, inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

const block = (value: unknown) => `\`\`\`json\n${pretty(value)}\n\`\`\``;

/** The rows of a table of an object schema's properties, nested objects one level down. */
function fieldRows(schema: Json, prefix = ''): string[] {
  const props = (schema.properties ?? {}) as Record<string, Json>;
  return Object.entries(props).flatMap(([name, prop]) => {
    const type = prop.enum
      ? (prop.enum as string[]).map((v) => `\`"${v}"\``).join(', ')
      : Array.isArray(prop.type)
        ? prop.type.join(' or ')
        : String(prop.type ?? 'any');
    const shown = prop.format ? `${type} (${prop.format})` : type;
    const description = String(prop.description ?? '').replace(/\|/g, '\\|');
    const row = `| \`${prefix}${name}\` | ${shown} | ${description} |`;
    return prop.type === 'object' && prop.properties ? [row, ...fieldRows(prop, `${prefix}${name}.`)] : [row];
  });
}

const EXAMPLE_ENVELOPE: EventEnvelope = {
  id: 'evt_0k4p8t2x6b1f5j9n3r7v',
  type: 'booking.created',
  version: EVENT_CATALOG['booking.created'].version,
  occurredAt: '2026-12-07T09:41:12.518Z',
  businessId: 'biz_4d8f2k6m0p9r3t7v1x5z',
  personId: 'usr_1x5z9d3h7m2q6t0w4b8f',
  subject: { kind: 'booking', id: 'bkg_7m2q9x4v0c1h8t6r3k5n' },
  actor: { kind: 'person', userId: 'usr_1x5z9d3h7m2q6t0w4b8f', clientName: 'Pet Planner' },
  data: EVENT_EXAMPLES['booking.created'] as Record<string, unknown>,
};

/** The example envelope the page shows (a test parses it). */
export const ENVELOPE_EXAMPLE: EventEnvelope = EXAMPLE_ENVELOPE;

const anchor = (type: string) => type.replace(/[^a-z0-9_]/g, '');

function typeSection(type: EventType): string {
  const def = EVENT_CATALOG[type];
  return [
    `### \`${type}\``,
    '',
    def.description,
    '',
    `- Version: ${def.version}`,
    `- Subject: \`${def.subject}\` (\`subject.id\` is the ${def.subject}'s id)`,
    '',
    'The JSON Schema of `data`:',
    '',
    block(jsonSchema(def.data)),
    '',
    'An example of `data`:',
    '',
    block(def.data.parse(EVENT_EXAMPLES[type])),
  ].join('\n');
}

/** The whole of docs/events.md. */
export function eventsMarkdown(): string {
  const envelope = jsonSchema(EventEnvelopeSchema);
  const parts = [
    '# Domain events',
    '',
    '<!-- Generated from packages/operations/src/events (catalog.ts, envelope.ts, examples.ts) by',
    '`pnpm docs:events`. Do not edit by hand: a test fails when this file differs from what the',
    'script writes. -->',
    '',
    'An event records a change that a person or a business would be told about: a booking made,',
    'paid, moved or cancelled, a shop order shipped, an application approved. Mails, webhooks and',
    'calendar feeds are made from events, never from the operations that made the changes.',
    '',
    '## How events are written',
    '',
    '- **With the change, in its transaction.** An event is a row of the `domain_events` table,',
    '  written in the same database transaction as the change it tells about (a transactional',
    '  outbox). It exists exactly when the change committed: a call that is refused, fails or rolls',
    '  back writes none, so nothing is ever told about a change that did not happen.',
    '- **Never changed or removed.** The table is append-only: the database refuses updates and',
    '  deletes. Something that changes again is a new event.',
    "- **Checked when written.** `data` is checked against its type's shape below; data that does",
    '  not match is a bug, and the change fails with it.',
    '- **Who and which call.** Each row also keeps the operation, the request id and the id of the',
    '  one call that wrote it, for tracing; these are not part of the envelope.',
    '',
    '## How to read them',
    '',
    '- **At least once.** A reader may be handed the same event more than once (after a crash, on',
    '  a retry). De-duplicate by `id`.',
    "- **In order per database.** Within one database the table's running number, `seq`, orders",
    '  the events as they were written; there is no order across databases. `seq` is taken when a',
    '  row is written, not when its transaction commits, so a row with a lower `seq` can become',
    '  visible after one with a higher: a reader that keeps a bookmark by `seq` looks a little',
    '  behind it again, and de-duplicates by `id`.',
    '- **Versions.** Each type has a version: the version of the shape of its `data`. Within a',
    '  version fields are only ever added, and an added field is optional: ignore fields you do not',
    '  know. Any other change (a field removed, renamed, retyped or made required, a meaning',
    '  changed) makes a new version of the type. Check `version` and skip versions you do not know.',
    '- **New types** are added as the service grows: ignore types you do not know.',
    '- **Names** are dotted lower case: the subject, then what happened to it (`booking.moved`).',
    '',
    '## The envelope',
    '',
    "Every event comes in the same envelope, its type's facts in `data`:",
    '',
    '| Field | Type | |',
    '| --- | --- | --- |',
    ...fieldRows(envelope),
    '',
    'An example:',
    '',
    block(EventEnvelopeSchema.parse(EXAMPLE_ENVELOPE)),
    '',
    '## Shared shapes',
    '',
    "The schemas below are JSON Schema (2020-12). A `$ref` to `#/$defs/<Name>` in a type's schema",
    'is one of these shapes:',
    '',
    ...SHARED.flatMap(([name, schema, description]) => [
      `### ${name}`,
      '',
      description,
      '',
      block(jsonSchema(schema)),
      '',
    ]),
    '## Types',
    '',
    '| Type | Version | Subject | |',
    '| --- | --- | --- | --- |',
    ...EVENT_TYPES.map((type) => {
      const def = EVENT_CATALOG[type];
      return `| [\`${type}\`](#${anchor(type)}) | ${def.version} | ${def.subject} | ${def.description} |`;
    }),
    '',
    EVENT_TYPES.map(typeSection).join('\n\n'),
    '',
  ];
  return parts.join('\n');
}
