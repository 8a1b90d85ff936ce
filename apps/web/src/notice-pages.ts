// Mail to people, as pages: the one-click unsubscribe link of an optional mail (RFC 8058: a mail
// client POSTs to it with `List-Unsubscribe=One-Click`, no sign-in and no form token, the link's
// secret being the proof; a person who opens it sees a page with a button), and the person's
// optional mails on /account. Each runs an internal operation (pageOperations).
import { type NoticeChoice, pageOperations, UNSUBSCRIBE_PATH, type UserRow } from '@nogpets/operations';
import type { Runtime } from '@nogpets/runtime';
import type { Request, Response, Router } from 'express';
import html from 'html-template-tag';
import { isBadInput, personCall, run, visitorCall } from './calls.js';
import { page } from './layout.js';

type Session = { user: UserRow; csrf: string };

export interface NoticePagesDeps {
  runtime: Runtime;
  requireSession(req: Request, res: Response): Promise<Session | null>;
}

const tokenOf = (req: Request): string => (typeof req.query.token === 'string' ? req.query.token : '');

const gone = () =>
  page(
    'Link not known',
    html`<p class="error" role="alert">This unsubscribe link is not known. To choose which mails you get, sign in and open <a href="/account#mail">your account</a>.</p>`,
  );

/** The account page's section: each optional mail with a switch; mails that must go are named. */
export function mailSection(
  choices: NoticeChoice[],
  csrf: string,
  saved?: string,
  /** The person is an owner or manager: the business's own notifications are on their page. */
  runsBusiness = false,
): string {
  return html`<h2 id="mail">Mail</h2>
    <p>Mails about a change to your bookings or orders (a confirmation, a move, a cancellation, a refund) always come. These you may turn off:</p>
    $${saved ? html`<p class="notice" role="status">${saved}</p>` : ''}
    <form method="post" action="/account/mail"><input type="hidden" name="csrf" value="${csrf}">
    $${choices
      .map(
        (c) =>
          html`<input type="hidden" name="kinds" value="${c.kind}"><label><input type="checkbox" name="on" value="${c.kind}"$${c.on ? ' checked' : ''}> ${c.label}</label><br>`,
      )
      .join('')}
    <button type="submit">Save mail choices</button></form>
    $${runsBusiness ? html`<p id="business-notifications-link">Which mails your business sends all its staff: <a href="/business/notifications">Business notifications</a>.</p>` : ''}`;
}

/** A form field as a list of strings (a field sent once is a string). */
const list = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : [];

export function noticeRoutes(router: Router, { runtime, requireSession }: NoticePagesDeps): void {
  router.get(UNSUBSCRIBE_PATH, async (req, res, next) => {
    try {
      const token = tokenOf(req);
      const link = token
        ? await run(pageOperations.unsubscribeLink, visitorCall(runtime, req), { token })
        : null;
      if (!link) {
        res.status(404).type('html').send(gone());
        return;
      }
      res.type('html').send(
        page(
          'Stop these mails',
          link.off
            ? html`<p>Mails of the kind “${link.label}” no longer go to <strong>${link.email}</strong>.</p>`
            : html`<p>Stop mails of the kind “${link.label}” to <strong>${link.email}</strong>? Mails about a change to your bookings or orders still come.</p>
                <form method="post" action="$${`${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`}"><button type="submit">Stop these mails</button></form>`,
        ),
      );
    } catch (err) {
      if (isBadInput(err)) res.status(404).type('html').send(gone());
      else next(err);
    }
  });

  // RFC 8058 one-click: the mail provider POSTs `List-Unsubscribe=One-Click` from its servers, so
  // this form is exempt from the form token and the same-site check by design (the link is the secret).
  router.post(UNSUBSCRIBE_PATH, async (req, res, next) => {
    try {
      const token = tokenOf(req);
      const done = token ? await run(pageOperations.unsubscribe, visitorCall(runtime, req), { token }) : null;
      if (!done) {
        res.status(404).type('html').send(gone());
        return;
      }
      res
        .type('html')
        .send(
          page(
            'Mails stopped',
            html`<p>Mails of the kind “${done.label}” no longer go to <strong>${done.email}</strong>. You can turn them on again on <a href="/account#mail">your account</a>.</p>`,
          ),
        );
    } catch (err) {
      if (isBadInput(err)) res.status(404).type('html').send(gone());
      else next(err);
    }
  });

  router.post('/account/mail', async (req, res, next) => {
    try {
      const s = await requireSession(req, res);
      if (!s) return;
      const on = new Set(list(req.body?.on));
      const choices = Object.fromEntries(list(req.body?.kinds).map((k) => [k, on.has(k)]));
      await run(pageOperations.setNoticeChoices, personCall(runtime, req, s.user.id), { choices });
      res.redirect(303, '/account#mail');
    } catch (err) {
      if (isBadInput(err))
        res
          .status(400)
          .type('html')
          .send(page('Not a valid request', html`<p class="error" role="alert">${err.message}</p>`));
      else next(err);
    }
  });
}
