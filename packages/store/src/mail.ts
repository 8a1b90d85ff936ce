import { newId } from './ids.js';
import type { Queryable as Sql } from './sql.js';

export interface MailRow {
  id: string;
  to: string;
  subject: string;
  /** Null once delivered over SMTP. */
  body: string | null;
  createdAt: Date;
  sentAt: Date | null;
  attempts: number;
  lastError: string | null;
}

const MAIL_COLUMNS = (sql: Sql) =>
  sql`id, to_address as "to", subject, body, created_at as "createdAt", sent_at as "sentAt", attempts, last_error as "lastError"`;

/** Queues a mail; write it in the transaction of what it tells about. */
export async function insertMail(
  sql: Sql,
  mail: { to: string; subject: string; body: string },
  now: Date,
): Promise<string> {
  const id = newId('mail');
  await sql`insert into mail_outbox (id, to_address, subject, body, created_at) values (${id}, ${mail.to}, ${mail.subject}, ${mail.body}, ${now})`;
  return id;
}

/** The newest mails first (the outbox people read when no SMTP server is configured). */
export async function listMail(sql: Sql, limit: number, to?: string): Promise<MailRow[]> {
  return sql<MailRow[]>`select ${MAIL_COLUMNS(sql)} from mail_outbox
    where ${to ? sql`lower(to_address) = lower(${to})` : sql`true`} order by seq desc limit ${limit}`;
}

/** Mails still to deliver, made after `since`, oldest first, locked so two workers never send one twice. */
export async function takeUnsentMail(sql: Sql, since: Date, limit: number, id?: string): Promise<MailRow[]> {
  return sql<MailRow[]>`select ${MAIL_COLUMNS(sql)} from mail_outbox
    where sent_at is null and body is not null and created_at > ${since} and attempts < 10 and ${id ? sql`id = ${id}` : sql`true`}
    order by seq limit ${limit} for update skip locked`;
}

export async function findMail(sql: Sql, id: string): Promise<MailRow | null> {
  const [row] = await sql<MailRow[]>`select ${MAIL_COLUMNS(sql)} from mail_outbox where id = ${id}`;
  return row ?? null;
}

/** Delivered: the body (which may hold a sign-in link) is dropped. */
export async function markMailSent(sql: Sql, id: string, now: Date): Promise<void> {
  await sql`update mail_outbox set sent_at = ${now}, body = null, attempts = attempts + 1, last_error = null where id = ${id}`;
}

export async function markMailFailed(sql: Sql, id: string, error: string): Promise<void> {
  await sql`update mail_outbox set attempts = attempts + 1, last_error = ${error.slice(0, 500)} where id = ${id}`;
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
