// The page when an address has had its link mails for the hour: shown by the sign-in page
// (pages.ts) and a draft's page (business-continue.ts), so it lives apart from both.
import { LINK_MAILS_PER_HOUR, type ServiceError } from '@nogpets/operations';
import html from 'html-template-tag';
import { page, type SignedInHeader } from './layout.js';

/**
 * The page when an address has had its link mails for the hour (LINK_MAILS_PER_HOUR, all kinds
 * together): the same for every address, with or without an account.
 */
export function linkMailRefused(
  err: ServiceError,
  email: string,
  back = '/signin',
  who?: SignedInHeader | null,
): string {
  // `back` is one of our own paths (the sign-in page, or a draft's page of a checked id).
  return page(
    'Not sent: too many mails to this address',
    html`<p id="outcome" class="error" role="alert">No mail was sent to <strong>${email}</strong> now. ${err.message}</p>
    <p>We send at most ${String(LINK_MAILS_PER_HOUR)} sign-in or sign-up mails an hour to one address, whoever asks, so that nobody can flood an inbox.</p>
    <p><a href="$${back}">Back</a></p>`,
    who ?? undefined,
  );
}
