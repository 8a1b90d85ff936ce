import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EVENT_CATALOG, EVENT_TYPES } from './catalog.js';
import { ENVELOPE_EXAMPLE, EVENTS_DOC_PATH, eventsMarkdown } from './docs.js';
import { EventEnvelopeSchema } from './envelope.js';
import { EVENT_EXAMPLES } from './examples.js';

describe('docs/events.md', () => {
  it('is what the catalog makes', () => {
    const file = fileURLToPath(new URL(`../../../../${EVENTS_DOC_PATH}`, import.meta.url));
    const written = readFileSync(file, 'utf8');
    const made = eventsMarkdown();
    const lines = written.split('\n');
    const madeLines = made.split('\n');
    const first = lines.findIndex((line, i) => line !== madeLines[i]);
    const at = first === -1 ? Math.min(lines.length, madeLines.length) + 1 : first + 1;
    expect(
      written === made,
      `${EVENTS_DOC_PATH} is not what the event catalog makes (first difference at line ${at}): run \`pnpm docs:events\` at the repository's root and commit the file.`,
    ).toBe(true);
  });

  it('documents every type, with its version and subject', () => {
    const doc = eventsMarkdown();
    for (const type of EVENT_TYPES) {
      const section = doc.split(`### \`${type}\``)[1]?.split('\n### ')[0];
      expect(section, type).toBeDefined();
      expect(section).toContain(EVENT_CATALOG[type].description);
      expect(section).toContain(`- Version: ${EVENT_CATALOG[type].version}`);
      expect(section).toContain(`- Subject: \`${EVENT_CATALOG[type].subject}\``);
    }
  });
});

describe('the event catalog', () => {
  it('names every type in dotted lower case: the subject, then what happened', () => {
    const badNames = EVENT_TYPES.filter((t) => !/^[a-z]+(_[a-z]+)*(\.[a-z]+(_[a-z]+)*)+$/.test(t));
    expect(badNames, `Event types not in dotted lower case: ${badNames.join(', ')}`).toEqual([]);
  });

  it('gives every type a whole version from 1', () => {
    for (const type of EVENT_TYPES) {
      expect(Number.isInteger(EVENT_CATALOG[type].version), type).toBe(true);
      expect(EVENT_CATALOG[type].version, type).toBeGreaterThanOrEqual(1);
    }
  });

  it("parses every type's documented example, which holds nothing its shape does not know", () => {
    expect(Object.keys(EVENT_EXAMPLES).sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      const parsed = EVENT_CATALOG[type].data.safeParse(EVENT_EXAMPLES[type]);
      expect(parsed.error?.message, type).toBeUndefined();
      // A shape drops what it does not know: an example with such a field would show a lie.
      expect(parsed.data, type).toEqual(EVENT_EXAMPLES[type]);
    }
  });

  it('refuses data that does not match a shape', () => {
    const { booking } = EVENT_EXAMPLES['booking.created'];
    expect(EVENT_CATALOG['booking.created'].data.safeParse({ booking, by: 'someone' }).success).toBe(false);
    expect(EVENT_CATALOG['booking.paid'].data.safeParse({ booking }).success).toBe(false);
    expect(
      EVENT_CATALOG['booking.paid'].data.safeParse({ booking, paid: { amount: 1.5, currency: 'ZAR' } })
        .success,
    ).toBe(false);
  });

  it("parses the documented envelope, whose data is its type's", () => {
    const envelope = EventEnvelopeSchema.parse(ENVELOPE_EXAMPLE);
    expect(envelope).toEqual(ENVELOPE_EXAMPLE);
    expect(EVENT_TYPES).toContain(envelope.type);
    const def = EVENT_CATALOG[envelope.type as keyof typeof EVENT_CATALOG];
    expect(envelope.version).toBe(def.version);
    expect(envelope.subject.kind).toBe(def.subject);
    expect(def.data.safeParse(envelope.data).success).toBe(true);
  });
});
