// The confirmation page (issue 31, part 3): where an assistant's MCP client can show a page, a
// change that needs the person's agreement is agreed here, by the person signed in, not by the
// assistant's `confirm: true`. The page shows the same summary the assistant was given and takes
// one answer, Confirm or Refuse; the assistant's retried call then goes through once, or is told
// the person refused. Someone else's confirmation is a 404 that shows nothing of it.
import { momentText, pageOperations, ServiceError, type UserRow } from '@nogpets/operations';
import type { Runtime } from '@nogpets/runtime';
import type { Request, Response, Router } from 'express';
import html from 'html-template-tag';
import { badInputPage, isBadInput, personCall, run } from './calls.js';
import { page } from './layout.js';

export const CONFIRM_PATH = '/confirm';

type Session = { user: UserRow; csrf: string };

export interface ConfirmPagesDeps {
  runtime: Runtime;
  requireSession(req: Request, res: Response): Promise<Session | null>;
}

type View = Awaited<ReturnType<typeof pageOperations.confirmationForPage.handler>>;

/** Who asks: the name an assistant gives itself is its own word, so it is quoted as such. */
const who = (v: View) => (v.clientName ? `An assistant calling itself “${v.clientName}”` : 'Your assistant');

/** What the page says of a confirmation in each state, above its summary. */
function stateText(v: View): { title: string; body: string } {
  switch (v.state) {
    case 'open':
      return {
        title: 'Confirm a change',
        body: html`<p>${who(v)} asks to make this change for you. Nothing happens unless you confirm it here.</p>`,
      };
    case 'confirmed':
      return {
        title: 'Confirmed',
        body: html`<p class="notice" role="status">You confirmed this change. Go back to your assistant: it can now make it, once.</p>`,
      };
    case 'used':
      return {
        title: 'Done',
        body: html`<p class="notice" role="status">Your assistant made this change after you confirmed it. This confirmation cannot be used again.</p>`,
      };
    case 'refused':
      return {
        title: 'Refused',
        body: html`<p class="notice" role="status">You refused this change. Nothing was changed, and your assistant is told so when it asks again.</p>`,
      };
    case 'expired':
      return {
        title: 'Expired',
        body: html`<p class="error" role="alert">This confirmation has expired, so nothing was changed. Ask your assistant to make the request again if you still want it.</p>`,
      };
  }
}

/** The page of a confirmation: times in the pages' zone, and why a second answer was refused, if it was. */
function confirmationPage(v: View, s: Session, shown: { timeZone: string; refusal?: string }): string {
  const { timeZone, refusal } = shown;
  const { title, body } = stateText(v);
  const form =
    v.state === 'open'
      ? html`<form class="answer" method="post" action="$${CONFIRM_PATH}/${v.id}">
          <input type="hidden" name="csrf" value="${s.csrf}">
          <button type="submit" name="answer" value="confirm">Confirm</button>
          <button class="secondary" type="submit" name="answer" value="refuse">Refuse</button>
        </form>
        <p class="muted">Open until ${momentText(new Date(v.expiresAt), timeZone)}. Your answer counts once.</p>`
      : '';
  return page(
    title,
    html`$${refusal ? html`<p class="error" role="alert">${refusal}</p>` : ''}$${body}
    <blockquote class="summary" id="summary">${v.summary}</blockquote>$${form}`,
    s,
  );
}

function missingPage(res: Response, s: Session): void {
  res
    .status(404)
    .type('html')
    .send(
      page(
        'No such confirmation',
        html`<p class="error" role="alert">There is no such confirmation for you. If your assistant gave you this link, check you are signed in as the person it acts for, or ask it again.</p>`,
        s,
      ),
    );
}

export function confirmRoutes(router: Router, { runtime, requireSession }: ConfirmPagesDeps): void {
  const path = `${CONFIRM_PATH}/:confirmationId`;

  router.get(path, async (req, res, next) => {
    try {
      const s = await requireSession(req, res);
      if (!s) return;
      const call = personCall(runtime, req, s.user.id);
      try {
        const [view, timeZone] = await Promise.all([
          run(pageOperations.confirmationForPage, call, {
            confirmationId: String(req.params.confirmationId),
          }),
          run(pageOperations.pagesTimeZone, call, {}),
        ]);
        res.type('html').send(confirmationPage(view, s, { timeZone }));
      } catch (err) {
        if (isBadInput(err)) return badInputPage(res, err, s);
        if (err instanceof ServiceError && err.code === 'NOT_FOUND') return missingPage(res, s);
        throw err;
      }
    } catch (err) {
      next(err);
    }
  });

  router.post(path, async (req, res, next) => {
    try {
      const s = await requireSession(req, res);
      if (!s) return;
      const confirmationId = String(req.params.confirmationId);
      const call = personCall(runtime, req, s.user.id);
      const answer =
        req.body?.answer === 'confirm' ? 'confirm' : req.body?.answer === 'refuse' ? 'refuse' : null;
      try {
        if (!answer) {
          res
            .status(400)
            .type('html')
            .send(
              page(
                'Not a valid request',
                html`<p class="error" role="alert">Choose Confirm or Refuse.</p>`,
                s,
              ),
            );
          return;
        }
        await run(pageOperations.answerConfirmation, call, { confirmationId, answer });
        res.redirect(303, `${CONFIRM_PATH}/${encodeURIComponent(confirmationId)}`);
      } catch (err) {
        if (isBadInput(err)) return badInputPage(res, err, s);
        if (err instanceof ServiceError && err.code === 'NOT_FOUND') return missingPage(res, s);
        if (err instanceof ServiceError && err.code === 'NOT_ACTIVE') {
          // Answered already (or expired): the answer stands; the page shows it again.
          const [view, timeZone] = await Promise.all([
            run(pageOperations.confirmationForPage, call, { confirmationId }),
            run(pageOperations.pagesTimeZone, call, {}),
          ]);
          res
            .status(409)
            .type('html')
            .send(confirmationPage(view, s, { timeZone, refusal: err.message }));
          return;
        }
        throw err;
      }
    } catch (err) {
      next(err);
    }
  });
}
