// A sign-up draft's link followed over HTTP as its owner's browser would: the draft's page asks for
// the link, the mail is read from the outbox (`pnpm cli mail list`), its page is opened and
// "Continue" is posted (choosing a password when given). Following it is what attaches the draft.
import { mailedLink, openForm, postForm, type TestServer } from './harness.js';

export interface FollowedDraftLink {
  /** The session the link started (cookie header). */
  cookie: string;
  subject: string;
  body: string;
}

/** Asks the draft's page to mail its link (typing `email` when the draft has none) and gives the answer. */
export async function askDraftLink(server: TestServer, draftId: string, typed?: string): Promise<Response> {
  const form = await openForm(server, `/business/drafts/${draftId}`);
  return postForm(server, `/business/drafts/${draftId}/link`, typed ? { email: typed } : {}, form);
}

/** Opens the newest link mailed to `email` and continues on its page; the session it starts. */
export async function followMailedLink(
  server: TestServer,
  email: string,
  password?: string,
): Promise<FollowedDraftLink> {
  const mail = await mailedLink(server, email);
  const url = new URL(mail.link);
  const token = url.searchParams.get('token')!;
  const page = await openForm(server, `${url.pathname}${url.search}`);
  const done = await postForm(server, url.pathname, { token, ...(password ? { password } : {}) }, page);
  if (done.status !== 303) throw new Error(`the link was not followed: ${done.status}`);
  const cookie = (done.headers.getSetCookie() ?? []).map((c) => c.split(';')[0]).join('; ');
  return { cookie, subject: mail.subject, body: mail.body };
}

/** The whole way: the draft page's link for `email`, followed. */
export async function followDraftLink(
  server: TestServer,
  draftId: string,
  email: string,
  options: { typed?: boolean; password?: string } = {},
): Promise<FollowedDraftLink> {
  const asked = await askDraftLink(server, draftId, options.typed ? email : undefined);
  if (asked.status !== 200) throw new Error(`the draft's link was not sent: ${asked.status}`);
  return followMailedLink(server, email, options.password);
}
