/**
 * The worker's pass over the domain events for mail (reader `notices`): in one transaction it takes
 * the next final events with the reader's bookmark locked, gathers what the rules need, decides and
 * renders the mails, queues them in the outbox and moves the bookmark. A change that rolled back
 * wrote no event, so nothing is mailed for it; two passes at once take turns on the bookmark, and
 * the outbox holds one mail of a kind per event and address, so none is made twice.
 */
import { randomBytes } from 'node:crypto';
import {
  advanceEventReader,
  bookingPeople,
  businessNoticeSettings,
  type DomainEventRow,
  insertNoticeMails,
  insertUnsubscribeLinks,
  type NewNoticeMail,
  noticeAccounts,
  noticeBusinesses,
  noticeOptOuts,
  noticeStaff,
  orderPeople,
  type Queryable,
  type Sql,
  takeEvents,
  transaction,
} from '@nogpets/store';
import { type Clock, hashSecret, type Payments } from '../core/index.js';
import { decideNotices, readEvent } from './decide.js';
import { renderMail } from './render.js';
import { NOTICE_KINDS } from './table.js';
import type {
  Notice,
  NoticeBusiness,
  NoticeEvent,
  NoticeFacts,
  NoticeStaffMember,
  RenderContext,
} from './types.js';
import { localeOf } from './words.js';

export const NOTICES_READER = 'notices';
/** Where the one-click unsubscribe link of an optional mail points (GET: a page; POST: RFC 8058). */
export const UNSUBSCRIBE_PATH = '/unsubscribe';

export interface NoticeDeps {
  sql: Sql;
  clock: Clock;
  payments: Pick<Payments, 'publicUrl'>;
  /** True once the process is stopping: no more passes. */
  stopping?: (() => boolean) | undefined;
}

/** What the rules need for a batch of events, read in the pass's transaction. */
async function gather(q: Queryable, events: NoticeEvent[]): Promise<(e: NoticeEvent) => NoticeFacts> {
  const businessIds = [...new Set(events.map((e) => e.businessId).filter((b): b is string => !!b))];
  const bookingIds = events.filter((e) => e.type.startsWith('booking.')).map((e) => e.subjectId);
  const orderIds = events.filter((e) => e.type.startsWith('order.')).map((e) => e.subjectId);
  const ofSubject = (e: NoticeEvent) => e.type.startsWith('booking.') || e.type.startsWith('order.');
  // Events of other subjects (an application, a payment) name their person by account only.
  const accountIds = [
    ...new Set(events.filter((e) => !ofSubject(e) && e.personId).map((e) => e.personId as string)),
  ];
  const [businesses, staff, settings, bookings, orders, accounts] = await Promise.all([
    noticeBusinesses(q, businessIds),
    noticeStaff(q, businessIds),
    businessNoticeSettings(q, businessIds),
    bookingPeople(q, bookingIds),
    orderPeople(q, orderIds),
    noticeAccounts(q, accountIds),
  ]);
  const business = new Map(businesses.map((b) => [b.id, b as NoticeBusiness]));
  const people = new Map([...bookings, ...orders].map((p) => [p.subjectId, p]));
  const account = new Map(accounts.map((a) => [a.userId, a]));
  return (e) => {
    const b = e.businessId ? business.get(e.businessId) : undefined;
    const person = ofSubject(e) ? people.get(e.subjectId) : e.personId ? account.get(e.personId) : undefined;
    return {
      business: b ?? null,
      person: person ? { email: person.email, name: person.name, userId: person.userId } : null,
      staff: b
        ? staff.filter((s) => s.businessId === b.id).map(({ businessId: _b, ...m }) => m as NoticeStaffMember)
        : [],
      businessSettings: b
        ? Object.fromEntries(settings.filter((s) => s.businessId === b.id).map((s) => [s.kind, s.enabled]))
        : {},
    };
  };
}

/** The zone and money a notice is written in: the business's, else NogPets' plain UTC and English. */
export function renderContext(facts: NoticeFacts, event: NoticeEvent, publicUrl: string): RenderContext {
  return {
    business: facts.business,
    locale: localeOf(facts.business?.country),
    timeZone: facts.business?.timeZone ?? 'UTC',
    publicUrl,
    occurredAt: event.occurredAt,
  };
}

/** One pass: up to `limit` events. Answers how many events were read and mails queued. */
export async function dispatchNotices(
  deps: NoticeDeps,
  limit = 200,
): Promise<{ events: number; mails: number; skipped: number }> {
  const now = deps.clock.now();
  const publicUrl = deps.payments.publicUrl().replace(/\/+$/, '');
  return transaction(deps.sql, async (q) => {
    const { events: rows, next } = await takeEvents(q, NOTICES_READER, limit);
    if (!next) return { events: 0, mails: 0, skipped: 0 };
    const events = rows.map((r: DomainEventRow) => readEvent(r)).filter((e): e is NoticeEvent => e !== null);
    const factsOf = await gather(q, events);
    const decided: { event: NoticeEvent; facts: NoticeFacts; notice: Notice }[] = [];
    // One event or notice that cannot be decided or rendered (a rule's bug, data no template
    // expects) is skipped and counted, never thrown: a throw would roll the pass back and leave the
    // reader on that event for ever, mailing no one.
    let skipped = 0;
    for (const event of events) {
      const facts = factsOf(event);
      try {
        for (const notice of decideNotices(event, facts)) decided.push({ event, facts, notice });
      } catch {
        skipped += 1;
      }
    }
    const optional = decided.filter((d) => d.notice.optional).map((d) => d.notice.to);
    const off = new Set(
      (await noticeOptOuts(q, optional)).map((o) => `${o.email.toLowerCase()}\u0000${o.kind}`),
    );
    const mails: NewNoticeMail[] = [];
    const links: { tokenHash: string; email: string; kind: string }[] = [];
    for (const { event, facts, notice } of decided) {
      if (notice.optional && off.has(`${notice.to.toLowerCase()}\u0000${notice.kind}`)) continue;
      const kind = NOTICE_KINDS[notice.kind];
      if (!kind) continue;
      const ctx = renderContext(facts, event, publicUrl);
      let unsubscribeUrl: string | null = null;
      const headers: Record<string, string> = {};
      if (notice.optional) {
        const token = randomBytes(24).toString('base64url');
        links.push({ tokenHash: hashSecret(token), email: notice.to, kind: notice.kind });
        unsubscribeUrl = `${publicUrl}${UNSUBSCRIBE_PATH}?token=${token}`;
        headers['List-Unsubscribe'] = `<${unsubscribeUrl}>`;
        headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
      }
      let mail: ReturnType<typeof renderMail>;
      try {
        mail = renderMail(kind.template(notice.data, ctx), kind, ctx, unsubscribeUrl);
      } catch {
        skipped += 1;
        continue;
      }
      mails.push({
        to: notice.to,
        subject: mail.subject,
        body: mail.text,
        html: mail.html,
        attachments: mail.attachments,
        headers,
        kind: notice.kind,
        optional: notice.optional,
        eventId: event.id,
      });
    }
    await insertUnsubscribeLinks(q, links, now);
    const written = await insertNoticeMails(q, mails, now);
    await advanceEventReader(q, NOTICES_READER, next, now);
    return { events: rows.length, mails: written.length, skipped };
  });
}

/** A run of passes stops after this long (the worker's job must end well within its expiry). */
const DISPATCH_RUN_MS = 45_000;

/** Passes until the events are read, at most `passes` or 45 seconds, for the worker's job. */
export async function dispatchAllNotices(
  deps: NoticeDeps,
  passes = 1000,
  limit = 200,
): Promise<{ events: number; mails: number; skipped: number }> {
  const total = { events: 0, mails: 0, skipped: 0 };
  const started = Date.now();
  for (let i = 0; i < passes && Date.now() - started < DISPATCH_RUN_MS && !deps.stopping?.(); i += 1) {
    const one = await dispatchNotices(deps, limit);
    total.events += one.events;
    total.mails += one.mails;
    total.skipped += one.skipped;
    if (one.events < limit) break;
  }
  return total;
}
