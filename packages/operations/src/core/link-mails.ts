/**
 * The one limit of link mails to an address (sign-up and sign-in links from identity's mail sign-in,
 * staff invitations): shared by the modules that send them, so it sits below them all.
 */
import { lockAndCountLinkMails, type Queryable, recordLinkMail } from '@nogpets/store';
import { ServiceError } from './errors.js';

/**
 * Mails a stranger can have sent to one address in an hour, all kinds together: sign-up and sign-in
 * links, a sign-up draft's link and staff invitations (docs/security.md).
 */
export const LINK_MAILS_PER_HOUR = 5;
const LINK_MAIL_WINDOW_SECONDS = 3600;

/**
 * Takes one of an address's link mails for this hour, inside the transaction that writes the mail
 * (the count is locked per address until it ends), or throws 429 `RateLimited` with Retry-After
 * details and takes nothing. Counted whether or not a mail then goes out (a sign-in link for an
 * address without an account sends none), so the refusal says nothing about who has an account.
 * The one limit of every mail to an address that someone other than its owner can ask for.
 */
export async function takeLinkMailAllowance(q: Queryable, email: string, now: Date): Promise<void> {
  const since = new Date(now.getTime() - LINK_MAIL_WINDOW_SECONDS * 1000);
  const { count, oldest } = await lockAndCountLinkMails(q, email, since);
  if (count >= LINK_MAILS_PER_HOUR) {
    const retryAfterSeconds = Math.max(
      1,
      Math.ceil((oldest!.getTime() + LINK_MAIL_WINDOW_SECONDS * 1000 - now.getTime()) / 1000),
    );
    throw new ServiceError(
      'RateLimited',
      `This address has had the most mails we send one address in an hour (${LINK_MAILS_PER_HOUR}), whoever asked for them. If an earlier mail came, use its link; else try again in ${Math.ceil(retryAfterSeconds / 60)} minutes.`,
      { limit: LINK_MAILS_PER_HOUR, windowSeconds: LINK_MAIL_WINDOW_SECONDS, retryAfterSeconds },
    );
  }
  await recordLinkMail(q, email, now);
}
