import { randomBytes } from 'node:crypto';
import {
  type Booking,
  type createSandboxGateway,
  type Order,
  type PayLink,
  pageOperations,
  runOperation,
} from '@nogpets/operations';
import type { Runtime } from '@nogpets/runtime';
import { formatMoney } from '@nogpets/pricing-tiers';
import express, { type Request, type Response, type Router } from 'express';
import html from 'html-template-tag';
import { badInputPage, gatewayCall, isBadInput, visitorCall } from './calls.js';
import { formTokens, limitRequestsAsPage, refuseCrossSitePosts } from './forms.js';
import { page } from './layout.js';
import { sessionReader } from './session.js';

type Sandbox = ReturnType<typeof createSandboxGateway>;

/** The pay pages' policy: our own resources only, but the checkout form may post to the gateway's host. */
const PAY_CSP =
  "default-src 'self'; base-uri 'none'; object-src 'none'; form-action 'self' https: http:; frame-ancestors 'none'";

/**
 * The pages a person pays on, and the gateway's notification endpoint. The pay link is
 * `/pay/{token}` on our host: the sandbox shows its TEST page there, PayFast a button that posts
 * the signed checkout form to PayFast. Whatever the browser does, only a verified notification
 * marks anything paid.
 */
export function paymentsRouter(runtime: Runtime): Router {
  const router = express.Router();
  const gateway = runtime.deps.payments.gateway;
  // The pages' header shows whoever is signed in in this browser (the pay link itself needs nobody).
  const signedIn = sessionReader(runtime, formTokens(runtime));

  // Pay links carry a secret: never kept by a cache, never framed. Guessing them, or flooding the
  // notification endpoint, spends the shared request limit (a refused ITN is retried by PayFast).
  const limit = limitRequestsAsPage(runtime);
  router.use('/pay', (req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Security-Policy', PAY_CSP);
    limit(req, res, next);
  });

  // Notifications: the raw body is needed as sent (PayFast signs the fields in the order received).
  // Each one is kept before it is answered; PayFast is answered 200 at once and checked after
  // (it wants a quick reply and retries otherwise), the sandbox's own page waits for the outcome.
  router.post(
    '/payments/:gateway/notify',
    runtime.rateLimiter.middleware,
    express.text({ type: 'application/x-www-form-urlencoded', limit: '20kb' }),
    async (req, res) => {
      if (req.params.gateway !== gateway.name) {
        res.status(404).json({ error: { code: 'NOT_FOUND', message: 'No such gateway here.', details: {} } });
        return;
      }
      // PostgreSQL text cannot hold NUL; no genuine notification has one (gateways URL-encode), so
      // it is kept visibly replaced rather than refused at the door.
      const body = typeof req.body === 'string' ? req.body.replaceAll('\0', '\uFFFD') : '';
      // The gateway's call: its notification is kept, then checked, as the gateway's principal.
      const ctx = gatewayCall(runtime, req, gateway.name);
      let notice: Awaited<ReturnType<typeof pageOperations.keepPaymentNotice.handler>>;
      try {
        notice = await runOperation(pageOperations.keepPaymentNotice, ctx, {
          body,
          sourceIp: req.ip ?? req.socket.remoteAddress ?? '',
        });
      } catch (err) {
        // Not kept, so not answered 200: the gateway sends it again later.
        runtime.logger.error({ err }, 'payment notification not kept');
        res.status(503).json({
          error: {
            code: 'UNAVAILABLE',
            message: 'Notification not taken now; send it again later.',
            details: {},
          },
        });
        return;
      }
      const check = runOperation(pageOperations.checkPaymentNotice, ctx, { noticeId: notice.id }).then(
        (result) => {
          runtime.logger.info({ notice: notice.id, payment: result }, 'payment notification');
          return result;
        },
        (err: Error) => {
          // Kept with its error for `pnpm cli payments problems`.
          runtime.logger.error(
            { err, cause: err.cause, notice: notice.id },
            'payment notification check failed',
          );
          return null;
        },
      );
      if (gateway.answerFirst) {
        res.status(200).type('text/plain').send('OK');
        await check;
        return;
      }
      const result = await check;
      if (!result) {
        res.status(503).json({
          error: {
            code: 'UNAVAILABLE',
            message: 'Notification kept but not checked; it is listed for the operator.',
            details: { notice: notice.id },
          },
        });
        return;
      }
      if (
        result.outcome === 'APPLIED' ||
        result.outcome === 'DUPLICATE' ||
        result.outcome === 'NOT_PAID' ||
        result.outcome === 'REFUND_DUE'
      ) {
        res.status(200).type('text/plain').send('OK');
        return;
      }
      res.status(400).json({
        error: {
          code: 'BAD_REQUEST',
          message: 'Notification refused; nothing changed.',
          details: { outcome: result.outcome, reason: result.reason ?? null },
        },
      });
    },
  );

  /**
   * What the URL's pay link stands for, opened as a visitor: the link's token is all it takes, signed
   * in or not. Null for a link not known; 'answered' once a token that cannot be one got its 400 page.
   */
  async function openLink(req: Request, res: Response, token: string): Promise<PayLink | null | 'answered'> {
    try {
      return await runOperation(pageOperations.findPayLink, visitorCall(runtime, req), { token });
    } catch (err) {
      if (!isBadInput(err)) throw err;
      badInputPage(res, err);
      return 'answered';
    }
  }

  const unknownLink = (res: Response) =>
    res
      .status(404)
      .type('html')
      .send(
        page(
          'Payment not found',
          html`<p class="error">This pay link is not known. Ask your assistant for a new one.</p>`,
        ),
      );
  // An order's link shows the order: its lines, discount, delivery and total.
  const orderSummary = (o: Order) =>
    html`<h2>Your NogPets shop order</h2>
    <p class="muted">${o.orderId} · ${o.statusText}</p>
    <table id="order"><tr><th>Item</th><th>Kind</th><th>Qty</th><th class="amount">Total</th></tr>
    $${o.lines.map((l) => html`<tr><td><strong>${l.name}</strong></td><td data-label="Kind">${l.variant}</td><td data-label="Qty">${String(l.qty)}</td><td class="amount" data-label="Total">${l.total}</td></tr>`).join('')}
    <tr><td colspan="3">Subtotal</td><td class="amount">${o.subtotal}</td></tr>
    $${o.discountCents > 0 ? html`<tr id="order-discount"><td colspan="3">Discount (${o.discountCode ?? ''})</td><td class="amount">−${o.discount}</td></tr>` : ''}
    <tr id="order-delivery"><td colspan="3">Delivery: ${o.delivery}</td><td class="amount">${o.deliveryFeeCents > 0 ? o.deliveryFee : 'Free'}</td></tr>
    <tr id="order-total"><td colspan="3"><strong>Total</strong></td><td class="amount"><strong>${o.total}</strong></td></tr>
    </table>`;
  // An invoice link (a business's amount and description) shows those; an order's link the order; a booking's link its bookings.
  const summary = ({
    bookings,
    invoice,
    order,
  }: Pick<PayLink, 'bookings' | 'invoice'> & { order: Order | null }) =>
    order
      ? orderSummary(order)
      : invoice
        ? html`<table id="invoice"><tr><td>${invoice.businessName}</td><td>${invoice.description}$${invoice.dueDate ? html`<br>Due ${invoice.dueDate}` : ''}</td><td>${formatMoney(invoice.amountCents, invoice.currency)}</td></tr></table>`
        : html`<table id="bookings">$${bookings.map((b) => html`<tr><td>${b.what}</td><td>${b.when}$${b.where ? html`<br>${b.where}` : ''}</td><td>${b.total}</td></tr>`).join('')}</table>`;
  /** What became of an order's link that cannot be paid now, in words. */
  const orderOutcome = (order: Order, state: PayLink['state']) => {
    // Money owed back or returned (a cancelled paid order, a payment after it closed): its status says so.
    if (order.paymentStatus === 'REFUND_REQUESTED' || order.paymentStatus === 'REFUNDED')
      return `${order.statusText}.`;
    if (state === 'paid')
      return order.status === 'CONFIRMED' || order.status === 'PACKED'
        ? 'Paid. Thank you: your order is confirmed and being packed.'
        : `Paid. Thank you. ${order.statusText}.`;
    // The link stops at 24 hours; the order closes a little later, so a payment begun in time can still arrive.
    if (order.status === 'PENDING_PAYMENT')
      return 'This pay link has stopped: an order is paid within 24 hours. If you have just paid, your order is confirmed as soon as the payment reaches us; otherwise ask your assistant to order again.';
    if (order.status === 'EXPIRED')
      return 'This order closed unpaid after 24 hours; nothing was charged. Ask your assistant to order again.';
    return `Nothing is left to pay on this link. ${order.statusText}.`;
  };
  // The card fee is part of the total the person pays: say so, and how much of it is.
  const feeNote = (bookings: Booking[], currency: string) => {
    const fee = bookings.reduce((sum, b) => sum + b.cardFeeCents, 0);
    return fee > 0 ? html`, which includes the card fee of ${formatMoney(fee, currency)}` : '';
  };

  // Onward from paying: the booking or the order on the person's account page (sign-in first when needed).
  const onward = (bookings: Booking[], order: Order | null = null) =>
    order
      ? html`<p><a id="onward" href="/account#orders">See your orders on your account page</a></p>`
      : bookings.length === 0
        ? ''
        : html`<p><a id="onward" href="/account#$${bookings.length === 1 ? html`booking-${bookings[0]!.id}` : 'bookings'}">See your ${bookings.length === 1 ? 'booking' : 'bookings'} on your account page</a></p>`;

  router.get('/pay/:token', async (req, res, next) => {
    try {
      const found = await openLink(req, res, req.params.token);
      if (found === 'answered') return;
      if (!found) {
        unknownLink(res);
        return;
      }
      const { payment, bookings, state } = found;
      const order = found.orderView;
      const s = (await signedIn(req)) ?? undefined;
      const shown = { ...found, order };
      if (state !== 'open') {
        const text = order
          ? orderOutcome(order, state)
          : {
              paid: found.invoice
                ? 'This is paid. Thank you.'
                : 'This is paid. Thank you: the booking is confirmed.',
              expired:
                'This pay link has expired or was replaced by a newer one. Ask your assistant for a new link.',
              nothing: 'Nothing is left to pay on this link.',
            }[state];
        res
          .status(state === 'paid' ? 200 : 410)
          .type('html')
          .send(
            page('Pay', html`<p id="outcome">${text}</p>$${summary(shown)}$${onward(bookings, order)}`, s),
          );
        return;
      }
      if (gateway.name === 'sandbox') {
        res.type('html').send(
          page(
            'TEST payment',
            html`<p class="test-banner"><strong>TEST — no money moves.</strong> This is the NogPets sandbox gateway, for trying ${order ? 'the shop' : 'bookings'} end to end.</p>
            $${summary(shown)}
            <p>Total: <strong id="amount">${formatMoney(payment.amountCents, payment.currency)}</strong>$${feeNote(bookings, payment.currency)}.</p>
            <form method="post" action="/pay/${req.params.token}/sandbox">
              <button type="submit" name="decision" value="pay">Pay ${formatMoney(payment.amountCents, payment.currency)} (test)</button>
              <button class="secondary" type="submit" name="decision" value="fail">Decline (test)</button>
            </form>`,
            s,
          ),
        );
        return;
      }
      const base = runtime.publicUrl();
      const checkout = gateway.checkout({
        paymentId: payment.id,
        amountCents: payment.amountCents,
        currency: payment.currency,
        itemName: order
          ? `NogPets shop order ${order.orderId}`
          : found.invoice
            ? `${found.invoice.businessName}: ${found.invoice.description}`
            : `NogPets: ${bookings.map((b) => `${b.what} ${b.when}`).join('; ')}`,
        returnUrl: `${base}/pay/${req.params.token}/done`,
        cancelUrl: `${base}/pay/${req.params.token}`,
        notifyUrl: `${base}/payments/${gateway.name}/notify`,
      });
      if (checkout.kind !== 'form') throw new Error('unexpected checkout');
      // html-template-tag drops a plain interpolation at the start of a URI attribute; the action is
      // our configured gateway URL (http or https, checked at start-up), escaped as text here.
      res.type('html').send(
        page(
          gateway.test ? 'Pay (PayFast sandbox)' : 'Pay',
          html`$${summary(shown)}<p>Total: <strong>${formatMoney(payment.amountCents, payment.currency)}</strong>$${feeNote(bookings, payment.currency)}. You pay on PayFast's own page; NogPets never sees your card.</p>
          <form method="post" action="$${html`${checkout.action}`}">
            $${checkout.fields.map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`).join('')}
            <button type="submit">Continue to PayFast</button>
          </form>`,
          s,
        ),
      );
    } catch (err) {
      next(err);
    }
  });

  // The sandbox's "gateway": it signs a notification and posts it to the notification endpoint,
  // as a real gateway would, then sends the browser back.
  // The pay link's token is the form's secret; a post from another site's page is refused as well.
  router.post(
    '/pay/:token/sandbox',
    refuseCrossSitePosts(runtime),
    express.urlencoded({ extended: false, limit: '2kb' }),
    async (req, res, next) => {
      const token = String(req.params.token);
      try {
        if (gateway.name !== 'sandbox') {
          res
            .status(404)
            .type('html')
            .send(page('Not here', html`<p class="error">The sandbox gateway is not in use.</p>`));
          return;
        }
        const found = await openLink(req, res, token);
        if (found === 'answered') return;
        if (found?.state !== 'open') {
          res.redirect(303, `/pay/${encodeURIComponent(token)}`);
          return;
        }
        const body = await (gateway as Sandbox).sign({
          paymentId: found.payment.id,
          gatewayRef: `sbx_${randomBytes(12).toString('hex')}`,
          amountCents: found.payment.amountCents,
          outcome: req.body?.decision === 'pay' ? 'COMPLETE' : 'FAILED',
        });
        const answer = await fetch(`${runtime.publicUrl()}/payments/sandbox/notify`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        await answer.body?.cancel();
        res.redirect(303, `/pay/${encodeURIComponent(token)}/done`);
      } catch (err) {
        next(err);
      }
    },
  );

  router.get('/pay/:token/done', async (req, res, next) => {
    try {
      const found = await openLink(req, res, req.params.token);
      if (found === 'answered') return;
      if (!found) {
        unknownLink(res);
        return;
      }
      const paid = found.payment.status === 'PAID';
      const order = found.orderView;
      const s = (await signedIn(req)) ?? undefined;
      // PayFast sends the browser here only after a payment, often before its notification is
      // checked: the page waits for it rather than inviting a second payment.
      const waiting = found.awaitingConfirmation;
      if (waiting) res.setHeader('Refresh', '5');
      const text = paid
        ? order
          ? orderOutcome(order, 'paid')
          : found.invoice
            ? 'Payment received. Thank you.'
            : 'Payment received: your booking is confirmed.'
        : waiting
          ? "Thank you. PayFast's confirmation has not reached us yet; this page checks again every few seconds. Please do not pay again."
          : 'The payment has not come through. If you declined it, you can try again from the same link while it is valid.';
      res.type('html').send(
        page(
          paid ? 'Paid' : waiting ? 'Waiting for PayFast' : 'Not paid yet',
          html`<p id="outcome">${text}</p>
          $${summary({ ...found, order })}
          $${paid || waiting ? '' : html`<p><a class="button" href="/pay/${req.params.token}">Try again</a></p>`}
          $${onward(found.bookings, order)}`,
          s,
        ),
      );
    } catch (err) {
      next(err);
    }
  });

  return router;
}
