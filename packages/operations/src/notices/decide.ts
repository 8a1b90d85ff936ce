/**
 * Deciding who gets which mail for an event: pure, from the event and the facts gathered for it.
 * An event whose data does not have its type's shape (or a version not known) makes no mail.
 */
import { EVENT_CATALOG, type EventType } from '../events/index.js';
import { rulesOf } from './table.js';
import type { Notice, NoticeEvent, NoticeFacts, NoticeRuleSet } from './types.js';

/** A stored event as rules read it, or null when it is not of a known type, version and shape. */
export function readEvent(row: {
  id: string;
  type: string;
  version: number;
  occurredAt: Date;
  businessId: string | null;
  personId: string | null;
  subjectId: string;
  actor: { kind: NoticeEvent['actorKind'] };
  data: unknown;
}): NoticeEvent | null {
  const def = (EVENT_CATALOG as Record<string, (typeof EVENT_CATALOG)[EventType] | undefined>)[row.type];
  if (!def || def.version !== row.version) return null;
  const parsed = def.data.safeParse(row.data);
  if (!parsed.success) return null;
  return {
    id: row.id,
    type: row.type as EventType,
    occurredAt: row.occurredAt,
    businessId: row.businessId,
    personId: row.personId,
    subjectId: row.subjectId,
    actorKind: row.actor.kind,
    data: parsed.data,
  } as NoticeEvent;
}

/** The notices of one event: every rule's, once per (address, kind). */
export function decideNotices(
  event: NoticeEvent,
  facts: NoticeFacts,
  sets?: readonly NoticeRuleSet[],
): Notice[] {
  const seen = new Set<string>();
  const out: Notice[] = [];
  for (const rule of rulesOf(event.type, sets)) {
    for (const n of rule(event, facts)) {
      const key = `${n.to.toLowerCase()}\u0000${n.kind}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(n);
    }
  }
  return out;
}
