/**
 * The shapes of mail to people: an event and the facts gathered for it go through pure rules that
 * answer notices (who gets which kind, with what data); a notice's kind names its template and
 * whether a person may turn it off. Rules and kinds come in sets (one file each: pet owners,
 * businesses; applicants and staff, reminders are added the same way) joined in `table.ts`.
 */
import type { z } from 'zod';
import type { MailBlock } from '../core/index.js';
import type { EVENT_CATALOG, EventType } from '../events/index.js';

export type { MailBlock };

/** An event as rules read it: its data already checked against the catalog's shape of its type. */
export interface NoticeEvent<T extends EventType = EventType> {
  id: string;
  type: T;
  occurredAt: Date;
  businessId: string | null;
  personId: string | null;
  subjectId: string;
  actorKind: 'person' | 'staff' | 'operator' | 'system';
  data: z.output<(typeof EVENT_CATALOG)[T]['data']>;
}

export interface NoticeBusiness {
  id: string;
  name: string;
  timeZone: string;
  currency: string;
  country: string;
}

export interface NoticeStaffMember {
  userId: string;
  email: string;
  name: string;
  role: 'owner' | 'manager' | 'crew';
  resourceIds: string[];
}

/** What the rules know besides the event, gathered for it in the dispatching transaction. */
export interface NoticeFacts {
  /** The event's business (null for an event of none). */
  business: NoticeBusiness | null;
  /** Whom the booking or order concerns: its account, else the business's client; email null: none to mail. */
  person: { email: string | null; name: string; userId: string | null } | null;
  /** The staff of the event's business (only of that business). */
  staff: NoticeStaffMember[];
  /** The business's choices of its notifications by kind (absent: on). */
  businessSettings: Readonly<Record<string, boolean>>;
}

/** Who gets which mail: `data` is what the kind's template reads. */
export interface Notice {
  to: string;
  /** The recipient's name, for the greeting ('' when unknown). */
  name: string;
  kind: string;
  /** Whether the person may turn this kind off (from the kind; mails that must go are not). */
  optional: boolean;
  data: Record<string, unknown>;
}

/** A rule: for one event type, the notices it makes. Pure: no clock, no I/O. */
export type NoticeRule<T extends EventType = EventType> = (
  event: NoticeEvent<T>,
  facts: NoticeFacts,
) => Notice[];

/** What a template makes of a notice: the words, before they become text and HTML. */
export interface MailContent {
  subject: string;
  heading: string;
  blocks: MailBlock[];
  /** An .ics to attach (booking confirmations and moves). */
  calendar?: CalendarEntry;
}

export interface CalendarEntry {
  uid: string;
  sequence: number;
  start: Date;
  end: Date;
  summary: string;
  description: string;
  cancelled?: boolean;
}

/** What every template knows of where it is read: the business it speaks for, in its zone and money. */
export interface RenderContext {
  business: NoticeBusiness | null;
  /** The locale numbers and money are written in (from the business's country). */
  locale: string;
  /** The zone times are shown in: the business's for its bookings. */
  timeZone: string;
  publicUrl: string;
  occurredAt: Date;
}

export interface NoticeKind {
  /** Who gets it: shown on /account (person) or in a business's settings (business). */
  audience: 'person' | 'business' | 'staff' | 'applicant';
  optional: boolean;
  /** The kind in words (the /account page, the settings, the unsubscribe page). */
  label: string;
  template: (data: Record<string, unknown>, ctx: RenderContext) => MailContent;
}

/** A file's rules and kinds. */
export interface NoticeRuleSet {
  kinds: Record<string, NoticeKind>;
  rules: { [T in EventType]?: NoticeRule<T>[] };
}
