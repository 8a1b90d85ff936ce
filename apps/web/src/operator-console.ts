// The operator console (/operator), for operator accounts only (`pnpm cli operator add`):
// applications to review with their checklist in words (approve, or reject with a note), proposed
// service areas to approve, leads to follow up, refunds owed, and the shop (open or closed, orders
// to pack and ship). Every read and change is one of @nogpets/operations' operator operations, the
// same the CLI runs, run by an operator principal naming the signed-in operator (their account and
// name), so what they do is audited and its events carry their account and the call's id.
import {
  type ApplicationForReview,
  type ClaimForReview,
  consoleReviewer,
  accountPageContext,
  type InternalOperation,
  MAX_REVIEW_NOTE,
  momentText,
  type OperationContext,
  type Order,
  operatorOperations as op,
  pageOperations,
  type RefundOwed,
  runOperation,
  ServiceError,
} from '@nogpets/operations';
import type { Runtime } from '@nogpets/runtime';
import type { LeadRow, UserRow } from '@nogpets/operations';
import type { Request, Response, Router } from 'express';
import html from 'html-template-tag';
import { page } from './layout.js';

type Session = { user: UserRow; csrf: string };

/** What the operator just did, said at the top of the section it was done in. */
interface Notice {
  section: 'applications' | 'areas' | 'leads' | 'refunds' | 'shop';
  text: string;
  error?: boolean;
}

const STATUS_WORDS: Record<ApplicationForReview['status'], string> = {
  DRAFT: 'Being filled in',
  SUBMITTED: 'Waiting for review',
  APPROVED: 'Approved',
  REJECTED: 'Rejected',
};

const ITEM_WORDS: Record<ApplicationForReview['checklist'][number]['status'], string> = {
  DONE: 'Done',
  MISSING: 'Missing',
  NEEDS_ATTENTION: 'Needs attention',
  OPTIONAL: 'Optional',
};

/** Applications waiting shown at once (the longest waiting first). */
const WAITING_SHOWN = 100;
/** Applications decided or still drafts shown below the ones waiting. */
const OTHERS_SHOWN = 20;
const LEADS_SHOWN = 50;
/** Orders to pack shown at once (the oldest first). */
const ORDERS_SHOWN = 100;
/** Failed mails the console lists (the CLI's `mail failed` shows up to 100). */
const FAILED_MAIL_SHOWN = 50;

const hidden = (csrf: string) => html`<input type="hidden" name="csrf" value="${csrf}">`;

const noticeHtml = (notice: Notice | undefined, section: Notice['section']) =>
  notice?.section === section
    ? html`<p class="${notice.error ? 'error' : 'notice'}" role="status">${notice.text}</p>`
    : '';

/** When something happened, in the operator's own zone (Stellenbosch's). */
const stamp = (d: Date, timeZone: string) => momentText(d, timeZone);

function checklistTable(a: ApplicationForReview): string {
  return html`<table class="checklist"><tr><th>Part</th><th>Status</th><th>What is missing</th></tr>
    $${a.checklist
      .map(
        (i) =>
          html`<tr><td><strong>${i.title}</strong></td><td data-label="Status">${ITEM_WORDS[i.status]}</td><td$${i.missing.length ? ' data-label="What is missing"' : ''}>$${
            i.missing.length
              ? html`<ul class="scopes">$${i.missing.map((m) => html`<li>${m}</li>`).join('')}</ul>`
              : ''
          }$${i.note ? html`<span class="muted">${i.note}</span>` : ''}</td></tr>`,
      )
      .join('')}</table>`;
}

const VERDICT_WORDS: Record<ClaimForReview['evidence']['verdict'], string> = {
  MATCH: 'Contacts match',
  MISMATCH: 'Mismatch',
  NOTHING_TO_COMPARE: 'Nothing to compare',
};

/** The listing an application claims, its own contacts beside the applicant's, and what agrees. */
function claimBlock(a: ApplicationForReview, c: ClaimForReview): string {
  const said = (field: 'phone' | 'email' | 'website') => {
    const check = c.evidence.checks.find((x) => x.field === field);
    if (!check) return '';
    const word = check.agrees ? 'matches' : 'differs';
    // The website is also compared with the applicant's email domains: say which address it was.
    const given = field === 'email' ? null : c.applicant[field];
    return html` <strong class="${check.agrees ? 'notice' : 'error'}">(${given === null && field === 'website' ? `by ${check.applicant}: ${word}` : word})</strong>`;
  };
  const cell = (label: string, v: string | null, extra = '') =>
    html`<td data-label="${label}">${v ?? '—'}$${extra}</td>`;
  const applicantEmails = [c.applicant.email, `${c.applicant.accountEmail} (account)`]
    .filter(Boolean)
    .join(', ');
  return html`<div class="claim" id="claim-${a.applicationId}">
    <p><strong>Claims the directory listing ${c.listingName ?? c.listingId}</strong> <span class="muted">${c.listingId}</span>:
      <strong class="${c.evidence.verdict === 'MATCH' ? 'notice' : 'error'}">${VERDICT_WORDS[c.evidence.verdict]}</strong></p>
    $${c.available ? '' : html`<p class="error">The listing is another business's now (or gone): approval publishes a new one.</p>`}
    <table class="claim-contacts"><tr><th>Contacts</th><th>Phone</th><th>Email</th><th>Website</th></tr>
      <tr><td><strong>The listing</strong></td>$${cell('Phone', c.listing.phone)}$${cell('Email', c.listing.email)}$${cell('Website', c.listing.website)}</tr>
      <tr><td><strong>The applicant</strong></td>$${cell('Phone', c.applicant.phone, said('phone'))}$${cell('Email', applicantEmails, said('email'))}$${cell('Website', c.applicant.website, said('website'))}</tr>
    </table>
    <p>${c.evidence.summary}</p>
  </div>`;
}

function waitingApplication(a: ApplicationForReview, csrf: string, timeZone: string): string {
  const facts = [a.town, a.country, a.currency, a.timezone, a.categories.join(', ')]
    .filter(Boolean)
    .join(' · ');
  return html`<section class="application" id="application-${a.applicationId}">
    <h3>${a.name}</h3>
    <p>${facts}<br><span class="muted">${a.email} · sent ${stamp(a.submittedAt, timeZone)} · ${a.applicationId}</span></p>
    <p><strong>${a.readyToSubmit ? 'Ready: every required part is done.' : 'Not ready: required parts are missing.'}</strong> ${a.summary}</p>
    $${checklistTable(a)}
    $${
      a.areas.length
        ? html`<p>Areas: $${a.areas.map((x) => html`${x.name} (${x.status.toLowerCase()})`).join('; ')}</p>`
        : ''
    }
    $${
      a.staffInvited.length
        ? html`<p class="staff-invited">Staff invited at approval: $${a.staffInvited
            .map(
              (v) => html`${v.email ?? v.phone ?? ''} (${[v.role, v.jobTitle].filter(Boolean).join(', ')})`,
            )
            .join('; ')} <span class="muted">(each joins only by accepting the mailed invitation)</span></p>`
        : ''
    }
    $${a.claim ? claimBlock(a, a.claim) : ''}
    <form method="post" action="/operator/applications/${a.applicationId}/approve">$${hidden(csrf)}
      $${
        a.claim?.available
          ? html`<label class="check"><input type="checkbox" name="claimChecked" value="yes"> Claim checked: I confirmed ${a.name} is the business of the listing ${a.claim.listingName ?? a.claim.listingId} (unticked, a new listing is published and that one stays as it was)</label>`
          : ''
      }
      <button type="submit">Approve ${a.name}</button></form>
    <form method="post" action="/operator/applications/${a.applicationId}/reject">$${hidden(csrf)}
      <label for="note-${a.applicationId}">Why it is rejected (the applicant reads this)</label>
      <textarea id="note-${a.applicationId}" name="reviewNote" maxlength="${String(MAX_REVIEW_NOTE)}" rows="2" required></textarea>
      <button class="secondary" type="submit">Reject ${a.name}</button></form>
  </section>`;
}

/** The step before an approval: what approving does, with the claim as ticked on the console. */
function approveConfirmation(a: ApplicationForReview, csrf: string, req: Request): string {
  const claimChecked = textField(req, 'claimChecked') === 'yes';
  const pending = a.areas.filter((x) => x.status === 'PENDING').length;
  const listing = !a.claim?.available
    ? 'A directory listing is published for it.'
    : claimChecked
      ? `You ticked the claim: ${a.name} becomes the business of the listing ${a.claim.listingName ?? a.claim.listingId}.`
      : `The claim is not ticked: a new directory listing is published, and ${a.claim.listingName ?? a.claim.listingId} stays as it was.`;
  return html`<p id="confirm-what">Approving makes <strong>${a.name}</strong> (${a.email}) a business on NogPets, with the services and people of its application. It cannot be undone here.</p>
    <ul>
      <li>${listing}</li>
      $${a.staffInvited.length ? html`<li>Staff invitations are mailed (${String(a.staffInvited.length)}); each person joins only by accepting.</li>` : ''}
      $${pending ? html`<li>${String(pending)} of its areas still wait for your approval in the console.</li>` : ''}
      <li>The applicant's status page says it is approved.</li>
    </ul>
    <form method="post" action="/operator/applications/${a.applicationId}/approve">$${hidden(csrf)}
      <input type="hidden" name="confirm" value="yes">
      $${claimChecked ? html`<input type="hidden" name="claimChecked" value="yes">` : ''}
      <button type="submit">Yes, approve ${a.name}</button>
    </form>
    <p><a href="/operator#application-${a.applicationId}">No, back to the console</a></p>`;
}

function applicationsSection(
  apps: ApplicationForReview[],
  timeZone: string,
  csrf: string,
  notice?: Notice,
): string {
  const waiting = apps.filter((a) => a.status === 'SUBMITTED');
  const others = apps.filter((a) => a.status !== 'SUBMITTED').slice(0, OTHERS_SHOWN);
  return html`<h2 id="applications">Applications to review</h2>
    $${noticeHtml(notice, 'applications')}
    $${waiting.length ? waiting.map((a) => waitingApplication(a, csrf, timeZone)).join('') : html`<p>No application is waiting for review.</p>`}
    $${
      others.length
        ? html`<h3>Other applications</h3><table id="other-applications"><tr><th>Business</th><th>Status</th><th>Outcome</th></tr>$${others
            .map(
              (a) =>
                html`<tr><td><strong>${a.name}</strong><br><span class="muted">${a.email} · ${a.applicationId}</span></td><td data-label="Status">${STATUS_WORDS[a.status]}</td><td data-label="Outcome">${
                  a.status === 'APPROVED'
                    ? `Business ${a.businessId ?? ''}${a.claim ? `; claim of ${a.claim.listingId} ${a.claim.granted ? 'granted' : 'not granted'}` : ''}`
                    : a.status === 'REJECTED'
                      ? (a.reviewNote ?? '')
                      : a.summary
                }$${a.reviewedBy ? html`<br><span class="muted">by ${a.reviewedBy}</span>` : ''}</td></tr>`,
            )
            .join('')}</table>`
        : ''
    }`;
}

function areasSection(
  areas: Awaited<ReturnType<typeof op.listProposedAreas.handler>>,
  csrf: string,
  notice?: Notice,
): string {
  return html`<h2 id="areas">Proposed service areas</h2>
    $${noticeHtml(notice, 'areas')}
    $${
      areas.length
        ? html`<table id="area-list"><tr><th>Area</th><th>Business</th><th></th></tr>$${areas
            .map(
              (a) =>
                html`<tr id="area-${a.areaId}"><td><strong>${a.name}</strong>$${a.postalCode ? html`<br><span class="muted">postal code ${a.postalCode}</span>` : ''}</td>
                <td data-label="Business">${a.applicationName} <span class="muted">(${STATUS_WORDS[a.applicationStatus].toLowerCase()})</span></td>
                <td><form method="post" action="/operator/areas/${a.areaId}/approve">$${hidden(csrf)}<button type="submit">Approve ${a.name}</button></form>
                <form method="post" action="/operator/areas/${a.areaId}/reject">$${hidden(csrf)}<button class="secondary" type="submit">Reject ${a.name}</button></form></td></tr>`,
            )
            .join('')}</table>`
        : html`<p>No proposed area is waiting.</p>`
    }`;
}

function placeWords(p: Record<string, unknown> | null): string {
  return p
    ? [p.suburb, p.town, p.postalCode, p.country].filter((x) => typeof x === 'string' && x).join(', ')
    : '';
}

function askedWords(q: Record<string, unknown>): string {
  return Object.entries(q)
    .filter(([, v]) => v !== null && v !== undefined && typeof v !== 'object')
    .map(([k, v]) => `${k}: ${String(v)}`)
    .join(' · ');
}

function leadsSection(leads: LeadRow[], timeZone: string, csrf: string, notice?: Notice): string {
  return html`<h2 id="leads">Leads to follow up</h2>
    $${noticeHtml(notice, 'leads')}
    $${
      leads.length
        ? html`<table id="lead-list"><tr><th>What was asked</th><th>Why not served</th><th>Follow up</th></tr>$${leads
            .map(
              (l) =>
                html`<tr id="lead-${l.id}"><td><strong>${placeWords(l.place as Record<string, unknown> | null) || l.operation}</strong><br>${askedWords(l.query)}<br><span class="muted">${l.clientName ?? 'someone'} · asked ${String(l.asks)}× · last ${stamp(l.lastAskedAt, timeZone)}</span></td>
                <td data-label="Why not served">${l.reason}</td>
                <td><form method="post" action="/operator/leads/${l.id}/done">$${hidden(csrf)}
                  <label class="sr-only" for="lead-note-${l.id}">What was done</label><input id="lead-note-${l.id}" type="text" name="note" maxlength="500" placeholder="What was done">
                  <button type="submit">Mark done</button></form></td></tr>`,
            )
            .join('')}</table>`
        : html`<p>No open leads.</p>`
    }`;
}

/** Mail that failed after its last retry: who it was for, what, and the SMTP server's last answer. */
function failedMailSection(
  mails: Awaited<ReturnType<typeof op.listFailedMail.handler>>,
  timeZone: string,
): string {
  return html`<h2 id="failed-mail">Mail not delivered</h2>
    $${
      mails.length
        ? html`<table id="failed-mail-list"><tr><th>To</th><th>Mail</th><th>Failed</th><th>Last error</th></tr>$${mails
            .map(
              (m) =>
                html`<tr id="mail-${m.id}"><td>${m.to}</td><td><strong>${m.subject}</strong><br><span class="muted">${m.kind} · ${m.id} · ${String(m.attempts)} tries</span></td>
                <td data-label="Failed">${m.failedAt ? momentText(m.failedAt, timeZone) : ''}</td><td data-label="Last error">${m.lastError ?? ''}</td></tr>`,
            )
            .join('')}</table>`
        : html`<p>Every mail was delivered or is still being tried.</p>`
    }`;
}

function refundsSection(refunds: RefundOwed[], csrf: string, notice?: Notice): string {
  return html`<h2 id="refunds">Refunds owed</h2>
    $${noticeHtml(notice, 'refunds')}
    $${
      refunds.length
        ? html`<table id="refund-list"><tr><th>What</th><th>Amount</th><th>Refunded at the gateway</th></tr>$${refunds
            .map(
              (r) =>
                html`<tr id="refund-${r.id}"><td><strong>${r.what}</strong><br><span class="muted">${r.id}${r.reference ? ` · ${r.reference}` : ''}</span></td>
                <td data-label="Amount">${r.amount}</td>
                <td><form method="post" action="/operator/refunds/${r.id}/done">$${hidden(csrf)}
                  <label class="sr-only" for="refund-note-${r.id}">The gateway's refund reference</label><input id="refund-note-${r.id}" type="text" name="note" maxlength="500" placeholder="Refund reference">
                  <button type="submit">Mark refunded</button></form></td></tr>`,
            )
            .join('')}</table>`
        : html`<p>No refunds are owed.</p>`
    }`;
}

const PAYMENT_WORDS: Record<Order['paymentStatus'], string> = {
  PENDING: 'Not paid yet',
  PAID: 'Paid by card',
  CASH_DUE: 'Cash to the crew at the visit',
  REFUND_REQUESTED: 'Refund owed',
  REFUNDED: 'Refunded',
  NONE: 'Nothing to pay',
};

function orderRow(o: Order, timeZone: string, csrf: string): string {
  const where =
    o.shippingMethod === 'visit' && o.bookingId ? `${o.delivery} (booking ${o.bookingId})` : o.delivery;
  const pack =
    o.status === 'CONFIRMED'
      ? html`<form method="post" action="/operator/orders/${o.orderId}/pack">$${hidden(csrf)}<button type="submit">Mark packed</button></form>`
      : '';
  return html`<tr id="order-${o.orderId}"><td><strong>${o.lines.map((l) => `${l.qty} × ${l.name} (${l.variant})`).join(', ')}</strong><br><span class="muted">${o.orderId} · made ${stamp(new Date(o.createdAt), timeZone)}</span></td>
    <td data-label="Delivery">${where}$${o.shipTo?.notes ? html`<br><span class="muted">${o.shipTo.notes}</span>` : ''}</td>
    <td data-label="Total">${o.total}<br><span class="muted">${PAYMENT_WORDS[o.paymentStatus]}</span></td>
    <td data-label="Status">${o.statusText}</td>
    <td>$${pack}<form method="post" action="/operator/orders/${o.orderId}/ship">$${hidden(csrf)}
      <label class="muted" for="tracking-${o.orderId}">Tracking reference (optional)</label><input id="tracking-${o.orderId}" type="text" name="tracking" maxlength="100">
      <button type="submit">Mark shipped</button></form></td></tr>`;
}

function shopSection(
  shop: { exists: boolean; open: boolean },
  orders: Order[],
  timeZone: string,
  csrf: string,
  notice?: Notice,
): string {
  if (!shop.exists)
    return html`<h2 id="shop">Shop</h2><p id="shop-state">There is no shop: the operator's catalogue has not been loaded.</p>`;
  return html`<h2 id="shop">Shop</h2>
    $${noticeHtml(notice, 'shop')}
    <p id="shop-state">The shop is <strong>${shop.open ? 'open' : 'closed'}</strong>.${shop.open ? '' : ' Assistants are told it is closed; orders already made go on.'}</p>
    <form method="post" action="/operator/shop">$${hidden(csrf)}<input type="hidden" name="open" value="${shop.open ? 'no' : 'yes'}">
      <button $${shop.open ? 'class="secondary" ' : ''}type="submit">${shop.open ? 'Close the shop' : 'Open the shop'}</button></form>
    <h3>Orders to pack</h3>
    $${
      orders.length
        ? html`<table id="orders-to-pack"><tr><th>What</th><th>Delivery</th><th>Total</th><th>Status</th><th></th></tr>$${orders
            .map((o) => orderRow(o, timeZone, csrf))
            .join('')}</table>`
        : html`<p>No orders to pack.</p>`
    }`;
}

/** A form's one text field, as typed (CRLF as one line break), or undefined when missing or sent twice. */
function textField(req: Request, name: string): string | undefined {
  const v = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' ? v.replace(/\r\n?/g, '\n') : undefined;
}

export interface OperatorConsoleDeps {
  runtime: Runtime;
  /** The signed-in person (and a matching form token on a POST), or null once answered. */
  requireSession(req: Request, res: Response): Promise<Session | null>;
}

/** `/operator` and its forms. */
export function operatorRoutes(router: Router, { runtime, requireSession }: OperatorConsoleDeps): void {
  const deps = runtime.deps;

  /** A call of this request by the signed-in operator: their account, and the name audits show. */
  const operatorCall = (req: Request, s: Session): OperationContext => {
    const { name, userId } = consoleReviewer(s.user);
    return {
      deps,
      requestId: String(req.id ?? ''),
      clientName: null,
      auth: null,
      log: req.log ?? runtime.logger,
      principal: { kind: 'operator', userId, name },
    };
  };

  /** Runs one operator operation in that call; a refusal is its ServiceError, as the function said it. */
  const run = async <Op extends InternalOperation>(
    operation: Op,
    ctx: OperationContext,
    input: Parameters<Op['handler']>[1],
  ): Promise<Awaited<ReturnType<Op['handler']>>> =>
    (await runOperation(operation, ctx, input)) as Awaited<ReturnType<Op['handler']>>;

  /** The signed-in operator, or null once answered (sign in, or 403 for anyone else). */
  async function requireOperator(req: Request, res: Response): Promise<Session | null> {
    const s = await requireSession(req, res);
    if (!s) return null;
    // Before an operator principal exists, the person asks as themselves (their web session).
    const asPerson = accountPageContext(
      deps,
      s.user.id,
      { requestId: String(req.id ?? ''), log: req.log ?? runtime.logger },
      [],
    );
    if (await runOperation(pageOperations.isOperator, asPerson, {})) return s;
    res
      .status(403)
      .type('html')
      .send(
        page(
          'Operators only',
          html`<p class="error">This page is for NogPets operators, and ${s.user.email} is not one.</p><p><a href="/account">Your account</a></p>`,
          s,
        ),
      );
    return null;
  }

  async function showConsole(
    ctx: OperationContext,
    res: Response,
    s: Session,
    notice?: Notice,
    status = 200,
  ): Promise<void> {
    const [waitingApps, otherApps, areas, leads, refunds, shop, orders, timeZone, failedMail] =
      await Promise.all([
        run(op.listApplications, ctx, { statuses: ['SUBMITTED'], limit: WAITING_SHOWN }),
        run(op.listApplications, ctx, { statuses: ['DRAFT', 'APPROVED', 'REJECTED'], limit: OTHERS_SHOWN }),
        run(op.listProposedAreas, ctx, {}),
        run(op.listLeads, ctx, { limit: LEADS_SHOWN }),
        run(op.listAllRefundsOwed, ctx, {}),
        run(op.shopStatus, ctx, {}),
        run(op.listOrdersToPack, ctx, { limit: ORDERS_SHOWN }),
        runOperation(pageOperations.pagesTimeZone, ctx, {}),
        run(op.listFailedMail, ctx, { limit: FAILED_MAIL_SHOWN }),
      ]);
    const apps = [...waitingApps, ...otherApps];
    const waiting = waitingApps.length;
    res
      .status(status)
      .type('html')
      .send(
        page(
          'Operator console',
          html`<nav class="sections"><a href="#applications">Applications (${String(waiting)})</a> ·
            <a href="#areas">Areas (${String(areas.length)})</a> · <a href="#leads">Leads (${String(leads.length)})</a> ·
            <a href="#refunds">Refunds (${String(refunds.length)})</a> ·
            <a href="#shop">Shop (${shop.open ? 'open' : 'closed'}, ${String(orders.length)} to pack)</a> ·
            <a href="#failed-mail">Mail not delivered (${String(failedMail.length)})</a></nav>
            $${applicationsSection(apps, timeZone, s.csrf, notice)}
            $${areasSection(areas, s.csrf, notice)}
            $${leadsSection(leads, timeZone, s.csrf, notice)}
            $${refundsSection(refunds, s.csrf, notice)}
            $${shopSection(shop, orders, timeZone, s.csrf, notice)}
            $${failedMailSection(failedMail, timeZone)}`,
          s,
        ),
      );
  }

  router.get('/operator', async (req, res, next) => {
    try {
      const s = await requireOperator(req, res);
      if (s) await showConsole(operatorCall(req, s), res, s);
    } catch (err) {
      next(err);
    }
  });

  /** One form's change as the signed-in operator; a refusal is said in its section, with its status. */
  const act =
    (section: Notice['section'], change: (req: Request, ctx: OperationContext) => Promise<string>) =>
    async (req: Request, res: Response, next: (err?: unknown) => void) => {
      try {
        const s = await requireOperator(req, res);
        if (!s) return;
        const ctx = operatorCall(req, s);
        let notice: Notice;
        let status = 200;
        try {
          notice = { section, text: await change(req, ctx) };
        } catch (err) {
          if (!(err instanceof ServiceError) || err.status >= 500) throw err;
          notice = { section, text: err.message, error: true };
          status = err.status;
        }
        await showConsole(ctx, res, s, notice, status);
      } catch (err) {
        next(err);
      }
    };

  /**
   * The console's approve button asks first: this page says what approving does and carries the
   * claim tick; only its own button (`confirm=yes`) approves. The CLI has no such step (its flags say it).
   */
  router.post('/operator/applications/:id/approve', async (req, res, next) => {
    try {
      if (textField(req, 'confirm') === 'yes') {
        next();
        return;
      }
      const s = await requireOperator(req, res);
      if (!s) return;
      const ctx = operatorCall(req, s);
      const a = await run(op.getApplicationForReview, ctx, { applicationId: String(req.params.id) });
      if (a?.status !== 'SUBMITTED') {
        await showConsole(
          ctx,
          res,
          s,
          {
            section: 'applications',
            text: a
              ? `${a.name} is not waiting for review (${STATUS_WORDS[a.status].toLowerCase()}): nothing was approved.`
              : `No application ${String(req.params.id)}: nothing was approved.`,
            error: true,
          },
          a ? 409 : 404,
        );
        return;
      }
      res.type('html').send(page(`Approve ${a.name}?`, approveConfirmation(a, s.csrf, req), s));
    } catch (err) {
      next(err);
    }
  });

  router.post(
    '/operator/applications/:id/approve',
    act('applications', async (req, ctx) => {
      const a = await run(op.approveApplication, ctx, {
        applicationId: String(req.params.id),
        claimChecked: textField(req, 'claimChecked') === 'yes',
      });
      const pending = a.areas.filter((x) => x.status === 'PENDING').length;
      return `Approved: business ${a.businessId} is made, with ${a.services} services and ${a.resources} resources; ${
        a.claimed
          ? `the claim is granted: the listing ${a.listingId} is its own`
          : a.claimTaken
            ? `the listing it claimed (${a.claimTaken}) belongs to another business or is gone, so a new directory listing is published`
            : a.claim
              ? `the claim of ${a.claim.listingId} is not granted (not checked), so a new directory listing is published and that one stays as it was`
              : 'a directory listing is published'
      }.${pending ? ` ${pending} of its areas wait for approval below.` : ''}`;
    }),
  );

  router.post(
    '/operator/applications/:id/reject',
    act('applications', async (req, ctx) => {
      const a = await run(op.rejectApplication, ctx, {
        applicationId: String(req.params.id),
        note: textField(req, 'reviewNote'),
      });
      return `Rejected ${a.name}; the applicant sees your note.`;
    }),
  );

  for (const [verb, decision] of [
    ['approve', 'APPROVED'],
    ['reject', 'REJECTED'],
  ] as const) {
    router.post(
      `/operator/areas/:id/${verb}`,
      act('areas', async (req, ctx) => {
        const a = await run(op.decideArea, ctx, { areaId: String(req.params.id), decision });
        return `${a.name}: ${a.status.toLowerCase()}.`;
      }),
    );
  }

  router.post(
    '/operator/leads/:id/done',
    act('leads', async (req, ctx) => {
      const lead = await run(op.closeLead, ctx, {
        leadId: String(req.params.id),
        note: textField(req, 'note'),
      });
      return `Lead ${lead.id} is closed.`;
    }),
  );

  router.post(
    '/operator/refunds/:id/done',
    act('refunds', async (req, ctx) => {
      const r = await run(op.markRefundDone, ctx, {
        id: String(req.params.id),
        note: textField(req, 'note'),
      });
      return `${r.id} is marked refunded.`;
    }),
  );

  router.post(
    '/operator/shop',
    act('shop', async (req, ctx) => {
      const done = await run(op.setShopOpen, ctx, { open: textField(req, 'open') === 'yes' });
      const state = done.open ? 'open' : 'closed';
      return done.changed ? `The shop is now ${state}.` : `The shop was already ${state}.`;
    }),
  );

  router.post(
    '/operator/orders/:id/pack',
    act('shop', async (req, ctx) => {
      const o = await run(op.moveOrder, ctx, { orderId: String(req.params.id), move: 'PACK' });
      return `${o.orderId} is packed.`;
    }),
  );

  router.post(
    '/operator/orders/:id/ship',
    act('shop', async (req, ctx) => {
      // An empty box is no reference; a reference is kept as typed, on one line.
      const tracking = textField(req, 'tracking')?.replace(/\s+/g, ' ').trim().slice(0, 100) || undefined;
      const o = await run(op.moveOrder, ctx, { orderId: String(req.params.id), move: 'SHIP', tracking });
      return `${o.orderId} is shipped${o.tracking ? ` (tracking ${o.tracking})` : ''}.`;
    }),
  );
}
