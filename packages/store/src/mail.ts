import { newId } from './ids.js';
import type { Queryable as Sql } from './sql.js';

/** A file sent with a mail (an .ics), kept as text until the mail is delivered. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: string;
}

export interface MailRow {
  id: string;
  to: string;
  subject: string;
  /** Null once delivered over SMTP. */
  body: string | null;
  /** The HTML part (null for text-only mail, and once delivered). */
  html: string | null;
  attachments: MailAttachment[];
  headers: Record<string, string>;
  /** What the mail is: 'sign_in' for link mails (and every mail before notices), else a notice kind. */
  kind: string;
  optional: boolean;
  createdAt: Date;
  sentAt: Date | null;
  attempts: number;
  lastError: string | null;
  /** When a notice is tried next (null for link mails: each worker pass while their link lives). */
  nextAttemptAt: Date | null;
  /** Set once the last attempt failed: the operator sees it (`pnpm cli mail failed`, the console). */
  failedAt: Date | null;
  eventId: string | null;
  /** Whose the mail is while it is sent: the end of the claim's lease (null when unclaimed). */
  leasedUntil: Date | null;
}

const MAIL_COLUMNS = (sql: Sql) =>
  sql`id, to_address as "to", subject, body, html, attachments, headers, kind, optional,
    created_at as "createdAt", sent_at as "sentAt", attempts, last_error as "lastError",
    next_attempt_at as "nextAttemptAt", failed_at as "failedAt", event_id as "eventId",
    leased_until as "leasedUntil"`;

/**
 * Queues a mail; write it in the transaction of what it tells about. `html` is its HTML part beside
 * the text (null: text only).
 */
export async function insertMail(
  sql: Sql,
  mail: { to: string; subject: string; body: string; html?: string | null; kind?: string },
  now: Date,
): Promise<string> {
  const id = newId('mail');
  // A mail of its own kind is retried with backoff and listed when it fails for good; 'sign_in'
  // (a link) is tried while its link lives.
  const kind = mail.kind ?? 'sign_in';
  await sql`insert into mail_outbox (id, to_address, subject, body, html, created_at, kind, next_attempt_at)
    values (${id}, ${mail.to}, ${mail.subject}, ${mail.body}, ${mail.html ?? null}, ${now}, ${kind},
      ${kind === 'sign_in' ? null : now})`;
  return id;
}

/** A notice made from an event: HTML, attachments and headers beside the text, tried at `now` first. */
export interface NewNoticeMail {
  to: string;
  subject: string;
  body: string;
  html: string;
  attachments: MailAttachment[];
  headers: Record<string, string>;
  kind: string;
  optional: boolean;
  eventId: string;
}

/**
 * Queues notices (in the transaction that advances the event reader). One of a kind per event and
 * address: a row that exists is kept and not counted. Answers the ids written.
 */
export async function insertNoticeMails(sql: Sql, mails: NewNoticeMail[], now: Date): Promise<string[]> {
  if (!mails.length) return [];
  const rows = mails.map((m) => ({
    id: newId('mail'),
    to_address: m.to,
    subject: m.subject,
    body: m.body,
    html: m.html,
    attachments: sql.json(m.attachments as never),
    headers: sql.json(m.headers as never),
    kind: m.kind,
    optional: m.optional,
    event_id: m.eventId,
    created_at: now,
    next_attempt_at: now,
  }));
  const written = await sql<{ id: string }[]>`insert into mail_outbox ${sql(rows as never)}
    on conflict (event_id, lower(to_address), kind) where event_id is not null do nothing returning id`;
  return written.map((r) => r.id);
}

/** The newest mails first (the outbox people read when no SMTP server is configured). */
export async function listMail(sql: Sql, limit: number, to?: string): Promise<MailRow[]> {
  return sql<MailRow[]>`select ${MAIL_COLUMNS(sql)} from mail_outbox
    where ${to ? sql`lower(to_address) = lower(${to})` : sql`true`} order by seq desc limit ${limit}`;
}

/** Mails whose last attempt failed, newest first (the operator's list). */
export async function listFailedMail(sql: Sql, limit: number): Promise<MailRow[]> {
  return sql<MailRow[]>`select ${MAIL_COLUMNS(sql)} from mail_outbox
    where failed_at is not null order by failed_at desc, seq desc limit ${limit}`;
}

/** What a claim of due mail takes. */
export interface MailClaim {
  /** Link mails made after this are still worth sending (their link lives). */
  since: Date;
  now: Date;
  /** The claimed mails are the claimer's until then; a sender killed mid-send leaves them due after it. */
  leaseUntil: Date;
  limit: number;
  /** Only this mail (a request sending its own link mail at once). */
  id?: string;
  /** Mails this pass tried already (a failed link mail waits for the next pass). */
  tried?: string[];
}

/**
 * Claims mail due now, oldest first, for a lease (one statement: no lock outlives it, and two
 * workers never claim one mail at once): link mails made after `since` with fewer than 10 tries,
 * notices whose next attempt is due; neither sent, failed for good, nor leased to another sender.
 */
export async function claimDueMail(sql: Sql, claim: MailClaim): Promise<MailRow[]> {
  const { since, now, leaseUntil, limit, id, tried = [] } = claim;
  return sql<MailRow[]>`update mail_outbox set leased_until = ${leaseUntil}
    where id in (select id from mail_outbox
      where sent_at is null and failed_at is null and body is not null
        and (leased_until is null or leased_until <= ${now})
        and ((kind = 'sign_in' and created_at > ${since} and attempts < 10
            and (next_attempt_at is null or next_attempt_at <= ${now}))
          or (kind <> 'sign_in' and next_attempt_at <= ${now}))
        and ${id ? sql`id = ${id}` : sql`true`} and not (id = any(${tried}))
      order by seq limit ${limit} for update skip locked)
    returning ${MAIL_COLUMNS(sql)}`;
}

export async function findMail(sql: Sql, id: string): Promise<MailRow | null> {
  const [row] = await sql<MailRow[]>`select ${MAIL_COLUMNS(sql)} from mail_outbox where id = ${id}`;
  return row ?? null;
}

/**
 * Delivered: the body (which may hold a sign-in or unsubscribe link) and its parts are dropped.
 * A mail another sender marked already (its lease had passed) stays as that one marked it.
 */
export async function markMailSent(sql: Sql, id: string, now: Date): Promise<void> {
  await sql`update mail_outbox set sent_at = ${now}, body = null, html = null, attachments = '[]', headers = '{}',
    attempts = attempts + 1, last_error = null, next_attempt_at = null, leased_until = null
    where id = ${id} and sent_at is null`;
}

/**
 * A failed attempt: `retryAt` when it is tried again (null for link mails: the next pass), or
 * failed for good when `retryAt` is 'never' (the operator's list).
 */
export async function markMailFailed(
  sql: Sql,
  id: string,
  error: string,
  retry: { retryAt: Date | null } | { failedAt: Date } = { retryAt: null },
  /** The lease the failing sender held: nothing changes if another sender has claimed it since. */
  leasedUntil: Date | null = null,
): Promise<void> {
  const next = 'retryAt' in retry ? retry.retryAt : null;
  const failed = 'failedAt' in retry ? retry.failedAt : null;
  await sql`update mail_outbox set attempts = attempts + 1, last_error = ${error.slice(0, 500)},
    next_attempt_at = ${next}, failed_at = ${failed}, leased_until = null
    where id = ${id} and sent_at is null
      and ${leasedUntil ? sql`leased_until = ${leasedUntil}` : sql`true`}`;
}

export interface EmailLinkRow {
  email: string;
  name: string;
  next: string;
  expiresAt: Date;
  /** The sign-up draft whose page mailed the link: following it attaches that draft. */
  draftId?: string | null;
}

export async function insertEmailLink(
  sql: Sql,
  tokenHash: string,
  link: EmailLinkRow,
  now: Date,
): Promise<void> {
  await sql`insert into email_links (token_hash, email, name, next, expires_at, created_at, draft_id)
    values (${tokenHash}, ${link.email}, ${link.name}, ${link.next}, ${link.expiresAt}, ${now}, ${link.draftId ?? null})`;
}

/** A link that may still be followed (unused, unexpired), without using it. */
export async function findEmailLink(sql: Sql, tokenHash: string, now: Date): Promise<EmailLinkRow | null> {
  const [row] = await sql<
    EmailLinkRow[]
  >`select email, name, next, expires_at as "expiresAt", draft_id as "draftId"
    from email_links where token_hash = ${tokenHash} and used_at is null and expires_at > ${now}`;
  return row ?? null;
}

/** Uses a link once: null when it is unknown, used or expired. Atomic, so a second use finds nothing. */
export async function useEmailLink(sql: Sql, tokenHash: string, now: Date): Promise<EmailLinkRow | null> {
  const [row] = await sql<EmailLinkRow[]>`update email_links set used_at = ${now}
    where token_hash = ${tokenHash} and used_at is null and expires_at > ${now}
    returning email, name, next, expires_at as "expiresAt", draft_id as "draftId"`;
  return row ?? null;
}

/** Links past their time are dead weight (the worker's purge). */
export async function purgeEmailLinks(sql: Sql, before: Date): Promise<number> {
  return (await sql`delete from email_links where expires_at < ${before}`).count;
}

/**
 * Holds the link-mail count of an address until the transaction ends, then answers how many mails
 * were asked for it since `since` and when the oldest of them was, so two requests at once cannot
 * both pass the count. `email` is compared lowercased.
 */
export async function lockAndCountLinkMails(
  sql: Sql,
  email: string,
  since: Date,
): Promise<{ count: number; oldest: Date | null }> {
  const key = email.toLowerCase();
  await sql`select pg_advisory_xact_lock(hashtextextended(${`link-mail:${key}`}, 0))`;
  const [row] = await sql<{ count: number; oldest: Date | null }[]>`
    select count(*)::int as count, min(requested_at) as oldest from link_mail_requests
    where email = ${key} and requested_at > ${since}`;
  return row!;
}

/** Counts one mail asked for an address (lowercased). */
export async function recordLinkMail(sql: Sql, email: string, now: Date): Promise<void> {
  await sql`insert into link_mail_requests (email, requested_at) values (${email.toLowerCase()}, ${now})`;
}

/** Counts older than any limit's window (the worker's purge). */
export async function purgeLinkMailRequests(sql: Sql, before: Date): Promise<number> {
  return (await sql`delete from link_mail_requests where requested_at < ${before}`).count;
}
