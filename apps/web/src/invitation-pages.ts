// The page an invitation mail links to: the signed-in person whose verified email it was
// sent to sees who invites them and as what, and accepts or declines it (the mail's Accept and
// Decline links open it with that answer shown; only the button does it). Each answer runs the
// operation an assistant would call (accept_invitation, decline_invitation) as the person.
import {
  acceptInvitation,
  declineInvitation,
  type OperationContext,
  pageOperations,
  runOperation,
  ServiceError,
} from '@nogpets/operations';
import type { Runtime } from '@nogpets/runtime';
import type { UserRow } from '@nogpets/operations';
import type { Request, Response, Router } from 'express';
import html from 'html-template-tag';
import { personCall } from './calls.js';
import { page } from './layout.js';

type Session = { user: UserRow; csrf: string };

export interface InvitationPagesDeps {
  runtime: Runtime;
  requireSession(req: Request, res: Response): Promise<Session | null>;
}

const hidden = (csrf: string) => html`<input type="hidden" name="csrf" value="${csrf}">`;

type Answer = 'accept' | 'decline';

/** The answer a mail's link preselects (`?answer=accept|decline`); anything else is none. */
const answerOf = (req: Request): Answer | null =>
  req.query.answer === 'accept' || req.query.answer === 'decline' ? req.query.answer : null;

const pathOf = (id: string, answer: Answer | null) =>
  `/invitations/${encodeURIComponent(id)}${answer ? `?answer=${answer}` : ''}`;

const STATE_WORDS = {
  accepted: 'You accepted this invitation: you are on the staff.',
  declined:
    'You declined this invitation. If you changed your mind, ask an owner of the business to invite you again.',
  expired: 'This invitation expired. Ask an owner of the business to send it again.',
} as const;

/** `/invitations/:id`: the invitation, with Accept and Decline while it waits. */
export function invitationRoutes(router: Router, { runtime, requireSession }: InvitationPagesDeps): void {
  const contextOf = (req: Request, s: Session): OperationContext =>
    personCall(runtime, req, s.user.id, ['business:manage']);

  /** A refusal as a page: not verified (with the way to verify), not theirs, or no longer waiting. */
  function refusal(res: Response, s: Session, id: string, err: ServiceError, answer: Answer | null = null) {
    const verify = err.details.reason === 'email_not_verified';
    const body = verify
      ? html`<p class="error">Your email address (${s.user.email}) is not verified yet, so this invitation cannot be matched to you.</p>
          <p><a class="button" href="/signin/link?next=${encodeURIComponent(pathOf(id, answer))}">Email me a link to verify it</a></p>`
      : err.code === 'NOT_FOUND'
        ? html`<p class="error">This invitation is not for ${s.user.email}.</p>
            <p>Invitations are opened by the address they were mailed to. Sign out, then sign in with that address.</p>`
        : html`<p class="error">${err.message}</p>`;
    res
      .status(err.status)
      .type('html')
      .send(page('Invitation', body, s));
  }

  router.get('/invitations/:id', async (req, res, next) => {
    try {
      const s = await requireSession(req, res);
      if (!s) return;
      const id = String(req.params.id);
      const answer = answerOf(req);
      try {
        const v = await runOperation(pageOperations.invitationForPerson, contextOf(req, s), {
          invitationId: id,
        });
        // A link of the mail shows its answer chosen: that button first, marked and focused. Opening
        // the page changes nothing (mail scanners follow links); the person presses the button.
        const chosen = v.state === 'waiting' ? answer : null;
        const acceptForm = html`<form method="post" action="/invitations/${v.invitationId}/accept">$${hidden(s.csrf)}
                  <button class="$${chosen === 'accept' ? 'chosen' : ''}" type="submit"$${chosen === 'accept' ? ' autofocus' : ''}>Accept and join ${v.businessName}</button></form>`;
        const declineForm = html`<form method="post" action="/invitations/${v.invitationId}/decline">$${hidden(s.csrf)}
                  <button class="secondary$${chosen === 'decline' ? ' chosen' : ''}" type="submit"$${chosen === 'decline' ? ' autofocus' : ''}>Decline</button></form>`;
        const choice =
          chosen === 'accept'
            ? html`<p class="notice" role="status" id="chosen-answer">You chose Accept in the mail. To join ${v.businessName}, press “Accept and join ${v.businessName}” below: nothing changes until you do.</p>`
            : chosen === 'decline'
              ? html`<p class="notice" role="status" id="chosen-answer">You chose Decline in the mail. To say no to ${v.businessName}, press “Decline” below: nothing changes until you do.</p>`
              : '';
        const body =
          v.state === 'waiting'
            ? html`<p id="offer"><strong>${v.businessName}</strong> invites you to join its staff as ${v.offered}.</p>
                <p>${v.roleWords} Its owners and managers will see your name, email and phone. You can leave later.</p>
                <p class="muted">It waits until ${v.until}.</p>
                $${choice}
                $${chosen === 'decline' ? declineForm + acceptForm : acceptForm + declineForm}`
            : html`<p><strong>${v.businessName}</strong>: ${v.offered}.</p><p class="notice">${STATE_WORDS[v.state]}</p>`;
        res.type('html').send(page(`Invitation from ${v.businessName}`, body, s));
      } catch (err) {
        if (!(err instanceof ServiceError) || err.status >= 500) throw err;
        refusal(res, s, id, err, answer);
      }
    } catch (err) {
      next(err);
    }
  });

  for (const [action, operation] of [
    ['accept', acceptInvitation],
    ['decline', declineInvitation],
  ] as const) {
    router.post(`/invitations/:id/${action}`, async (req, res, next) => {
      try {
        const s = await requireSession(req, res);
        if (!s) return;
        const id = String(req.params.id);
        try {
          // The button is the person's yes to the summary the page showed them.
          const input = action === 'accept' ? { invitationId: id, confirm: true } : { invitationId: id };
          const answer = (await runOperation(
            operation as typeof acceptInvitation,
            contextOf(req, s),
            input,
          )) as {
            message: string;
            businessName: string;
          };
          res
            .type('html')
            .send(
              page(
                `Invitation from ${answer.businessName}`,
                html`<p class="notice" role="status">${answer.message}</p><p><a href="/account">Your account</a></p>`,
                s,
              ),
            );
        } catch (err) {
          if (!(err instanceof ServiceError) || err.status >= 500) throw err;
          refusal(res, s, id, err);
        }
      } catch (err) {
        next(err);
      }
    });
  }
}
