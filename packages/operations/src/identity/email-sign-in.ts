import { randomBytes } from 'node:crypto';
import {
  appendAudit,
  claimDueMail,
  claimAccountByEmail,
  findDraft,
  findEmailLink,
  findUserByEmail,
  insertEmailLink,
  insertMail,
  markMailFailed,
  type MailRow,
  markMailSent,
  type Queryable,
  type Sql,
  transaction,
  type UserRow,
  useEmailLink,
} from '@nogpets/store';
import {
  type Clock,
  hashSecret,
  type Logger,
  type MailTransport,
  takeLinkMailAllowance,
} from '../core/index.js';
import { attachDraftByLink } from '../onboarding/index.js';

/** How long a sign-in link may be followed (docs/security.md): short, and single use. */
export const SIGN_IN_LINK_MINUTES = 30;
/** Mail younger than this is still worth delivering; an older one's link has long expired. */
const DELIVERY_WINDOW_MS = SIGN_IN_LINK_MINUTES * 60_000;
export const SIGN_IN_LINK_PATH = '/signin/email';

export interface MailDeps {
  sql: Sql;
  clock: Clock;
  /** True once the process is stopping: a pass sends what it claimed and claims no more. */
  stopping?: (() => boolean) | undefined;
  /** Absent without SMTP_URL: mail then stays in the outbox (`pnpm cli mail list`). */
  mail?: MailTransport | null | undefined;
  log?: Pick<Logger, 'warn'>;
}

export type SignInLinkReason = 'signup' | 'signin';

export interface SignInLinkRequest {
  email: string;
  reason: SignInLinkReason;
  /** Base URL the link is made on. */
  publicUrl: string;
  /** Where to go once signed in (a path on this site). */
  next: string;
  /** From a sign-up form: the name of the account, if the link makes one. */
  name?: string;
  /** Mailed from a sign-up draft's page: following the link attaches that draft to the account. */
  draft?: { id: string; name: string };
}

/**
 * Mails a one-time sign-in link to an address, saying what it will do: finish a new account, or
 * sign in to the one that exists (which a sign-up never changes by itself). Nothing is mailed for a
 * sign-in link asked for an address without an account. The answer is the same either way, so the
 * caller cannot tell who has an account. No password travels with the request: it is chosen by
 * whoever opens the link, so a stranger cannot plant one on someone else's address. At most
 * LINK_MAILS_PER_HOUR an hour to one address (takeLinkMailAllowance): past it, 429 `RateLimited`.
 */
export async function sendSignInLink(deps: MailDeps, request: SignInLinkRequest): Promise<void> {
  const now = deps.clock.now();
  const mailId = await transaction(deps.sql, async (tx) => {
    await takeLinkMailAllowance(tx, request.email, now);
    const user = await findUserByEmail(tx, request.email);
    if (!user && request.reason === 'signin') return null;
    // The mail greets by the name given: the sign-up form's, else the contact the draft names. Only
    // the sign-up form's names an account the link makes (a draft's words never do: docs/decisions.md).
    const given = request.name || (request.draft ? await draftContactName(tx, request.draft.id, now) : '');
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + SIGN_IN_LINK_MINUTES * 60_000);
    await insertEmailLink(
      tx,
      hashSecret(token),
      {
        email: request.email,
        name: request.name ?? '',
        next: request.next,
        expiresAt,
        draftId: request.draft?.id ?? null,
      },
      now,
    );
    const link = `${request.publicUrl}${SIGN_IN_LINK_PATH}?token=${token}`;
    return insertMail(tx, signInMail(request, link, user, given), now);
  });
  // Delivery does not hold up the answer (its time would tell who has an account); a failure is
  // retried by the worker.
  if (mailId)
    void deliverMail(deps, mailId).catch((err: unknown) =>
      deps.log?.warn({ err, mailId }, 'mail delivery failed'),
    );
}

/** The contact named in a draft (its `contactName`), or '' when it named none or is gone. */
async function draftContactName(q: Queryable, draftId: string, now: Date): Promise<string> {
  const d = await findDraft(q, draftId, now);
  const named = d?.data?.contactName;
  return typeof named === 'string' ? named.trim() : '';
}

/**
 * The greeting: when the address has an account, its own name or none (an account made by a
 * draft's link may be nameless, and a stranger's words never reach its holder); without an
 * account, the name given with the request (the sign-up form's, or the draft's contact).
 */
export function greeting(account: { name: string | null } | null | undefined, given: string): string {
  const name = (account ? (account.name ?? '') : given).trim().replace(/[\r\n]+/g, ' ');
  return name ? `Hello ${name},` : 'Hello,';
}

/** The words of the mail: what happened, what the link does, and what to do if it was not you. */
function signInMail(
  request: SignInLinkRequest,
  link: string,
  user: (UserRow & { passwordHash: string | null }) | null,
  name: string,
): { to: string; subject: string; body: string } {
  const hello = greeting(user, name);
  const minutes = `${SIGN_IN_LINK_MINUTES} minutes`;
  const notYou = 'If it was not you, ignore this mail: nothing changes unless the link is opened.';
  const password = 'On the page it opens you can also choose a password.';
  if (request.draft) {
    const account = user
      ? 'It signs you in to your NogPets account'
      : 'It confirms the address and makes your NogPets account (there is none for it yet)';
    return {
      to: request.email,
      subject: `Your NogPets application for ${request.draft.name}`,
      body: `${hello}\n\nSomeone, we hope you, asked to finish a NogPets business application for "${request.draft.name}" with this address. Open this link within ${minutes} to keep the application in your account and finish it (it works once):\n\n${link}\n\n${account}. ${password}\n\nIf it was not you, ignore this mail: the application is not added to any account unless the link is opened.\n`,
    };
  }
  if (!user) {
    return {
      to: request.email,
      subject: 'Confirm your email to finish your NogPets account',
      body: `${hello}\n\nSomeone, we hope you, asked to create a NogPets account for this address. Open this link within ${minutes} to confirm the address and sign in (it works once):\n\n${link}\n\n${password}\n\n${notYou}\n`,
    };
  }
  if (request.reason === 'signup') {
    const extra = user.passwordHash
      ? 'Your password is unchanged. If you have forgotten it, choose a new one on the page the link opens.'
      : 'Your account has no password yet; you can choose one on the page the link opens.';
    return {
      to: request.email,
      subject: 'You already have a NogPets account',
      body: `${hello}\n\nSomeone asked to create a NogPets account for this address, but it already has one, so nothing was created or changed. If it was you, open this link within ${minutes} to sign in (it works once):\n\n${link}\n\n${extra}\n\n${notYou}\n`,
    };
  }
  return {
    to: request.email,
    subject: 'Your NogPets sign-in link',
    body: `${hello}\n\nOpen this link within ${minutes} to sign in to NogPets (it works once):\n\n${link}\n\n${password}\n\n${notYou}\n`,
  };
}

/** The address a link would sign in to, while it may still be followed; it is not used up. */
export async function peekSignInLink(
  deps: Pick<MailDeps, 'sql' | 'clock'>,
  token: string,
): Promise<{ email: string } | null> {
  const link = await findEmailLink(deps.sql, hashSecret(token), deps.clock.now());
  return link ? { email: link.email } : null;
}

/**
 * Follows a link (once): the address is proven, so the account with it is signed in to (made if
 * absent, with the sign-up's name; an existing account's name is never changed) and, when the person
 * chose one on the link's page, given that password. A link mailed from a sign-up draft's page
 * attaches that draft to the account, in the same transaction. Null when the link is unknown, used
 * or expired.
 */
export async function followSignInLink(
  deps: Pick<MailDeps, 'sql' | 'clock'>,
  token: string,
  passwordHash: string | null = null,
): Promise<{ user: UserRow; next: string; created: boolean } | null> {
  const now = deps.clock.now();
  return transaction(deps.sql, async (tx) => {
    const link = await useEmailLink(tx, hashSecret(token), now);
    if (!link) return null;
    const { user, created } = await claimAccountByEmail(tx, link.email, { name: link.name, passwordHash });
    const audit = { userId: user.id, clientId: null, clientName: null, target: user.id };
    await appendAudit(tx, { ...audit, action: created ? 'account.signup' : 'account.email_sign_in' }, now);
    if (passwordHash) await appendAudit(tx, { ...audit, action: 'account.password_set' }, now);
    if (link.draftId) await attachDraftByLink(tx, link.draftId, user, now);
    return { user, next: link.next, created };
  }) as Promise<{ user: UserRow; next: string; created: boolean } | null>;
}

/**
 * A claimed mail is its sender's this long: well above what one send may take (the SMTP timeouts of
 * 10 s to connect, 10 s to greet, 30 s of silence: packages/runtime/src/mail.ts). A sender killed
 * mid-send leaves the mail due again once it has passed.
 */
export const MAIL_LEASE_MS = 2 * 60_000;
/** Mails claimed, and sent at once, by a step of a pass (the transport's pool has as many connections). */
export const MAIL_BATCH = 8;
/** A pass stops claiming after this long (the worker's job must end well within its expiry). */
export const MAIL_PASS_MS = 45_000;
/** A link mail that failed is tried again after this (its link lives 30 minutes; 10 tries at most). */
const LINK_RETRY_MS = 60_000;

/** Sends one queued mail now, if a transport is configured; a failure leaves it for the worker. */
export async function deliverMail(deps: MailDeps, id: string): Promise<boolean> {
  const transport = deps.mail;
  if (!transport) return false;
  const now = deps.clock.now();
  const [mail] = await claimDueMail(deps.sql, {
    since: new Date(0),
    now,
    leaseUntil: new Date(now.getTime() + MAIL_LEASE_MS),
    limit: 1,
    id,
  });
  return mail ? (await deliverOne(deps, transport, mail)) === 'sent' : false;
}

/**
 * When a notice is tried again after its n-th failed attempt (minutes): about a day in all; after
 * the last it is failed and the operator sees it. Link mails are tried again a minute after a failure
 * while their link lives (30 minutes, at most 10 tries).
 */
export const MAIL_RETRY_MINUTES = [1, 5, 30, 120, 360, 720] as const;

/** After `attempts` failed attempts: when to try again, or null when that was the last. */
export function nextMailAttempt(attempts: number, now: Date): Date | null {
  const minutes = MAIL_RETRY_MINUTES[attempts - 1];
  return minutes === undefined ? null : new Date(now.getTime() + minutes * 60_000);
}

/**
 * The worker's pass over the outbox: link mails while their link lives, notices that are due.
 * Claims a few at a time for a lease and sends them at once, outside any transaction, until none is
 * due, `limit` were tried or the pass's time is up. Answers how many were sent.
 */
export async function deliverPendingMail(
  deps: MailDeps,
  limit = 2000,
  passMs = MAIL_PASS_MS,
): Promise<number> {
  const transport = deps.mail;
  if (!transport) return 0;
  const started = Date.now();
  let sent = 0;
  const tried: string[] = [];
  while (tried.length < limit && Date.now() - started < passMs && !deps.stopping?.()) {
    const now = deps.clock.now();
    const claimed = await claimDueMail(deps.sql, {
      since: new Date(now.getTime() - DELIVERY_WINDOW_MS),
      now,
      leaseUntil: new Date(now.getTime() + MAIL_LEASE_MS),
      limit: Math.min(MAIL_BATCH, limit - tried.length),
      tried,
    });
    if (!claimed.length) break;
    tried.push(...claimed.map((m) => m.id));
    const outcomes = await Promise.all(claimed.map((mail) => deliverOne(deps, transport, mail)));
    sent += outcomes.filter((o) => o === 'sent').length;
  }
  return sent;
}

/**
 * One claimed mail: sent, then marked sent. It is marked only after the SMTP server accepted it, so
 * a sender killed before that loses nothing (the mail is due again once its lease has passed);
 * killed between the accept and the mark, the mail goes again with the same Message-ID: at least
 * once (docs/decisions.md, "Mail to people"). No transaction is open while the server answers.
 */
async function deliverOne(
  deps: MailDeps,
  transport: MailTransport,
  mail: MailRow,
): Promise<'sent' | 'failed'> {
  try {
    await transport.send({
      id: mail.id,
      to: mail.to,
      subject: mail.subject,
      text: mail.body ?? '',
      html: mail.html,
      attachments: mail.attachments,
      headers: mail.headers,
    });
  } catch (err) {
    deps.log?.warn({ err, mailId: mail.id }, 'mail not delivered; the worker tries again');
    const message = (err as Error).message ?? String(err);
    const now = deps.clock.now();
    // Only while the lease is still this pass's: a send that outlived it leaves the mail to its
    // new claimer (marking it failed would free it for a third sender meanwhile).
    const lease = mail.leasedUntil;
    if (mail.kind === 'sign_in')
      await markMailFailed(
        deps.sql,
        mail.id,
        message,
        { retryAt: new Date(now.getTime() + LINK_RETRY_MS) },
        lease,
      );
    else {
      const retryAt = nextMailAttempt(mail.attempts + 1, now);
      await markMailFailed(deps.sql, mail.id, message, retryAt ? { retryAt } : { failedAt: now }, lease);
    }
    return 'failed';
  }
  await markMailSent(deps.sql, mail.id, deps.clock.now());
  return 'sent';
}
