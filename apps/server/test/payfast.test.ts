import { pageOperations, runOperation } from '@nogpets/operations';
import { recheckNotices } from '@nogpets/operations/testing';
import { type Browser, fixedClock, launchBrowser } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, newPetOwner, startTestServer, type TestServer } from './harness.js';
import {
  checked,
  checkoutForm,
  notifyAndCheck,
  payFastEnv,
  type StandIn,
  startPayFastStandIn,
} from './payfast-stand-in.js';

/**
 * PayFast end to end over HTTP, against a stand-in for PayFast's servers (`payfast-stand-in.ts`).
 * PayFast is answered 200 before the checks run, so every test waits for the check's effect (the
 * notification's kept record leaving RECEIVED), never a fixed time.
 */

describe('PayFast: checkout form, ITN checks and confirmation, end to end', () => {
  let payfast: StandIn;
  let server: TestServer;
  let browser: Browser;
  let key: string;
  let petId: string;
  let addressId: string;
  const clock = fixedClock('2026-11-23T04:00:00Z');
  const as = () => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    payfast = await startPayFastStandIn();
    server = await startTestServer({
      clock,
      database: { demoDataAt: clock.now() },
      env: payFastEnv(payfast.url),
    });
    browser = await launchBrowser();
    ({ key, petId, addressId } = await newPetOwner(server, {
      email: 'lindiwe@example.com',
      pet: { name: 'Max', weightKg: 12 },
      line1: '8 Dorp Street',
    }));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await payfast?.close();
  });

  async function bookCard(date: string, pets: string[] = [petId]) {
    const body = {
      category: 'grooming',
      addressId,
      pets: pets.map((id) => ({ petId: id, serviceIds: ['groom-dog-bath'] })),
    };
    const found = await server.post('/v1/availability', { ...body, from: date, to: date }, as());
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    const slot = found.body.days[0].slots[0];
    const res = await server.post(
      '/v1/bookings',
      { ...body, start: slot.start, resourceId: slot.resourceId, paymentMethod: 'CARD' },
      as(),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { bookingId: string; payUrl: string; totalCents: number };
  }
  const state = async (id: string) => (await server.get(`/v1/bookings/${id}`, as())).body;
  const notifyUrl = () => `${server.url}/payments/payfast/notify`;
  const until = async (id: string, paymentStatus: string) => {
    for (let i = 0; i < 200 && (await state(id)).paymentStatus !== paymentStatus; i++)
      await new Promise((r) => setTimeout(r, 25));
    return state(id);
  };
  const operator = async (args: string[]) => {
    const out = await cli(server.db.url, args);
    expect(out.status, out.stderr).toBe(0);
    return out.stdout;
  };

  it('pays on PayFast from payUrl in Chromium: a signed checkout form, then a verified ITN confirms the booking', async () => {
    const booked = await bookCard('2026-12-01');
    const page = await browser.newPage();
    await page.goto(booked.payUrl);
    await expect(page.locator('main').textContent()).resolves.toContain('R390');
    await page.getByRole('button', { name: 'Continue to PayFast' }).click();
    await page.waitForURL(/\/done$/);
    // PayFast had its 200 before the check ran: the booking is confirmed once the check is done.
    expect(await until(booked.bookingId, 'PAID')).toMatchObject({
      status: 'ACCEPTED',
      paymentStatus: 'PAID',
    });
    await page.reload();
    await expect(page.locator('#outcome').textContent()).resolves.toContain('confirmed');
    await page.close();
    const checkout = payfast.checkouts.at(-1)!;
    expect(checkout).toMatchObject({ amount: '390.00', notify_url: notifyUrl() });
    const [row] = await server.db
      .sql`select status, gateway_ref from payments where id = ${checkout.m_payment_id!}`;
    expect(row).toMatchObject({ status: 'PAID', gateway_ref: expect.stringMatching(/^10892/) });
  });

  it('answers 200 at once and then changes nothing for a forged, a tampered, an amount-mismatched, a foreign or a replayed ITN', async () => {
    const booked = await bookCard('2026-12-02');
    const checkout = await checkoutForm(booked.payUrl);
    expect(checkout.m_payment_id).toMatch(/^pay_/);
    const unchanged = async () =>
      expect(await state(booked.bookingId)).toMatchObject({
        status: 'PENDING',
        paymentStatus: 'PENDING',
        canPay: true,
      });

    // Forged: correctly signed (the passphrase leaked, say) but PayFast never sent it: the operator looks it up.
    const forged = payfast.itn(checkout);
    expect(await notifyAndCheck(server, forged.body)).toMatchObject({
      state: 'PROBLEM',
      outcome: 'REJECTED: PayFast did not confirm it',
    });
    await unchanged();
    // Tampered: a real one with the amount changed after signing: not ours, nothing to look at.
    const real = payfast.itn(checkout);
    payfast.sent.add(real.params);
    expect(
      await notifyAndCheck(server, real.body.replace('amount_gross=390.00', 'amount_gross=39.00')),
    ).toMatchObject({ state: 'DONE', outcome: 'REJECTED: bad signature' });
    await unchanged();
    // Amount mismatch: PayFast really took less than the booking costs: that money is owed back.
    const cheap = payfast.itn(checkout, { amount_gross: '39.00' });
    payfast.sent.add(cheap.params);
    expect(await notifyAndCheck(server, cheap.body)).toMatchObject({
      state: 'REFUND_DUE',
      outcome: 'AMOUNT_MISMATCH: 3900 for 39000',
      amount_cents: 3900,
    });
    await unchanged();
    // From an address outside PAYFAST_SOURCES (and not one of PayFast's hosts).
    expect(await notifyAndCheck(server, real.body, '127.0.0.2')).toMatchObject({
      state: 'PROBLEM',
      outcome: 'REJECTED: not from PayFast (127.0.0.2)',
    });
    await unchanged();

    // The real one applies once; its replay changes nothing.
    expect(await notifyAndCheck(server, real.body)).toMatchObject({ state: 'DONE', outcome: 'APPLIED' });
    expect(await state(booked.bookingId)).toMatchObject({ status: 'ACCEPTED', paymentStatus: 'PAID' });
    const cancel = await server.post(`/v1/bookings/${booked.bookingId}/cancel`, { confirm: true }, as());
    expect(cancel.body.refundRequested).toEqual([booked.bookingId]);
    expect(await notifyAndCheck(server, real.body)).toMatchObject({ state: 'DONE', outcome: 'DUPLICATE' });
    expect(await state(booked.bookingId)).toMatchObject({
      status: 'CANCELLED',
      paymentStatus: 'REFUND_REQUESTED',
    });

    const outcomes = (
      await server.db.sql<
        { outcome: string }[]
      >`select outcome from payment_notifications where payment_id = ${checkout.m_payment_id!} order by received_at, id`
    ).map((r) => r.outcome);
    expect(outcomes.filter((o) => o === 'APPLIED')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'DUPLICATE')).toHaveLength(1);
    expect(outcomes.filter((o) => o.startsWith('REJECTED') || o.startsWith('AMOUNT_MISMATCH'))).toHaveLength(
      4,
    );

    // The operator sees the two to look up at PayFast, and the money to return.
    const problems = await operator(['payments', 'problems']);
    const forgedRef = /pf_payment_id=(\d+)/.exec(forged.body)![1]!;
    expect(problems).toMatch(
      new RegExp(
        `^ntc_\\w+\\t\\S+\\t127\\.0\\.0\\.1\\t${checkout.m_payment_id}\\tpayfast ${forgedRef}\\tR390\\tREJECTED: PayFast did not confirm it$`,
        'm',
      ),
    );
    expect(problems).toContain('REJECTED: not from PayFast (127.0.0.2)');
    expect(problems).not.toContain('bad signature');
    const cheapRef = /pf_payment_id=(\d+)/.exec(cheap.body)![1]!;
    expect(await operator(['refund', 'list'])).toMatch(
      new RegExp(
        `^ntc_\\w+\\tREFUND_DUE\\tR39\\tpayfast ${cheapRef}\\tAMOUNT_MISMATCH: 3900 for 39000$`,
        'm',
      ),
    );
  });

  it('takes FAILED, PENDING and CANCELLED as news, not money: 200, the booking still payable, nothing for the operator', async () => {
    const booked = await bookCard('2026-12-03');
    const checkout = await checkoutForm(booked.payUrl);
    for (const status of ['PENDING', 'CANCELLED', 'FAILED']) {
      const note = payfast.itn(checkout, { payment_status: status });
      payfast.sent.add(note.params);
      expect(await notifyAndCheck(server, note.body), status).toMatchObject({
        state: 'DONE',
        outcome: `NOT_PAID: ${status}`,
      });
      expect(await state(booked.bookingId)).toMatchObject({
        status: 'PENDING',
        paymentStatus: 'PENDING',
        canPay: true,
      });
    }
    const [payment] = await server.db.sql`select status from payments where id = ${checkout.m_payment_id!}`;
    expect(payment!.status).toBe('FAILED');
    // A declined card may be tried again on the same link; the payment that follows counts.
    const paid = payfast.itn(checkout);
    payfast.sent.add(paid.params);
    expect(await notifyAndCheck(server, paid.body)).toMatchObject({ state: 'DONE', outcome: 'APPLIED' });
    expect(await state(booked.bookingId)).toMatchObject({ status: 'ACCEPTED', paymentStatus: 'PAID' });
  });

  it('lists for the operator a signed COMPLETE for another merchant, or one PayFast could not be asked about; resolving clears it', async () => {
    const booked = await bookCard('2026-12-04');
    const checkout = await checkoutForm(booked.payUrl);
    const other = payfast.itn(checkout, { merchant_id: '10000101' });
    payfast.sent.add(other.params);
    const foreign = await notifyAndCheck(server, other.body);
    expect(foreign).toMatchObject({ state: 'PROBLEM', outcome: 'REJECTED: another merchant (10000101)' });

    payfast.validate = 'reset';
    try {
      const late = payfast.itn(checkout);
      payfast.sent.add(late.params);
      expect(await notifyAndCheck(server, late.body)).toMatchObject({
        state: 'PROBLEM',
        outcome: 'REJECTED: PayFast could not confirm it (validate unreachable)',
      });
    } finally {
      payfast.validate = 'answer';
    }
    expect(await state(booked.bookingId)).toMatchObject({ status: 'PENDING', paymentStatus: 'PENDING' });
    const problems = await operator(['payments', 'problems']);
    expect(problems).toContain(`${foreign.id}\t`);
    expect(problems).toContain('validate unreachable');

    expect(await operator(['payments', 'resolve', foreign.id, '--note', 'not ours: PayFast support'])).toBe(
      `${foreign.id}\tRESOLVED\n`,
    );
    expect(await operator(['payments', 'problems'])).not.toContain(foreign.id);
    const again = await cli(server.db.url, ['payments', 'resolve', foreign.id]);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/not an open problem/);
  });

  it('owes back money PayFast confirms for a payment it does not know', async () => {
    const booked = await bookCard('2026-12-09');
    const checkout = await checkoutForm(booked.payUrl);
    const stray = payfast.itn({ ...checkout, m_payment_id: 'pay_nope' });
    payfast.sent.add(stray.params);
    const notice = await notifyAndCheck(server, stray.body);
    expect(notice).toMatchObject({
      state: 'REFUND_DUE',
      outcome: 'UNKNOWN_PAYMENT: no payfast payment pay_nope',
      amount_cents: 39000,
    });
    expect(await operator(['refund', 'list'])).toMatch(
      new RegExp(
        `^${notice.id}\\tREFUND_DUE\\tR390\\tpayfast ${notice.gateway_ref}\\tUNKNOWN_PAYMENT: no payfast payment pay_nope$`,
        'm',
      ),
    );
    expect(await operator(['refund', 'done', notice.id, '--note', 'PayFast refund 5521'])).toBe(
      `${notice.id}\tREFUNDED\tR390\n`,
    );
    expect(await operator(['refund', 'list'])).not.toContain(notice.id);
    // The same ITN again is not a second refund.
    expect(await notifyAndCheck(server, stray.body)).toMatchObject({
      state: 'DONE',
      outcome: 'DUPLICATE: UNKNOWN_PAYMENT already owed back',
    });
    expect(await state(booked.bookingId)).toMatchObject({ status: 'PENDING', paymentStatus: 'PENDING' });
  });

  it('owes back a second real payment on the same link (two tabs): a new pf_payment_id is not a duplicate', async () => {
    const booked = await bookCard('2026-12-08');
    const checkout = await checkoutForm(booked.payUrl);
    // Two tabs: the person pays the same checkout twice on PayFast; each payment has its own ITN.
    for (let tab = 0; tab < 2; tab++) {
      const res = await fetch(`${payfast.url}/eng/process`, {
        method: 'POST',
        redirect: 'manual',
        body: new URLSearchParams(checkout),
      });
      expect(res.status).toBe(302);
    }
    expect(await until(booked.bookingId, 'PAID')).toMatchObject({
      status: 'ACCEPTED',
      paymentStatus: 'PAID',
    });
    // Both ITNs were kept before PayFast had its answer (the stand-in waited for it).
    const kept = await server.db.sql<
      { id: string }[]
    >`select id from payment_notices where payment_id = ${checkout.m_payment_id!} or body like ${`m_payment_id=${checkout.m_payment_id}&%`}`;
    expect(kept).toHaveLength(2);
    const both = await Promise.all(kept.map((k) => checked(server, k.id)));
    const applied = both.find((n) => n.outcome === 'APPLIED');
    const again = both.find((n) => n !== applied);
    expect(applied).toMatchObject({ state: 'DONE' });
    const [payment] = await server.db
      .sql`select status, gateway_ref from payments where id = ${checkout.m_payment_id!}`;
    expect(payment).toMatchObject({ status: 'PAID', gateway_ref: applied!.gateway_ref });
    expect(again).toMatchObject({
      state: 'REFUND_DUE',
      outcome: `REFUND_DUE: charged again for ${checkout.m_payment_id} (first ${applied!.gateway_ref})`,
      amount_cents: 39000,
    });
    expect(again!.gateway_ref).not.toBe(applied!.gateway_ref);

    const list = await operator(['refund', 'list']);
    expect(list).toMatch(
      new RegExp(
        `^${again!.id}\\tREFUND_DUE\\tR390\\tpayfast ${again!.gateway_ref}\\tREFUND_DUE: charged again for ${checkout.m_payment_id}`,
        'm',
      ),
    );
    expect(await operator(['refund', 'done', again!.id, '--note', 'reversed'])).toBe(
      `${again!.id}\tREFUNDED\tR390\n`,
    );
    expect(await state(booked.bookingId)).toMatchObject({ status: 'ACCEPTED', paymentStatus: 'PAID' });
  });

  it('pays in Chromium for pets named with emoji and punctuation: item_name cut by characters, without what PayFast refuses', async () => {
    const pet = async (name: string) =>
      (await server.post('/v1/pets', { name, type: 'DOG', weightKg: 12, coat: 'SHORT' }, as())).body
        .id as string;
    const first = await pet(`O'Brien & Co. "Zoë" <Rex>`);
    // Long enough that the old cut at 100 UTF-16 units fell inside an emoji of the second name.
    const candidates = [await pet('🐶'.repeat(29)), await pet(`x${'🐶'.repeat(29)}`)];
    let booked: { bookingId: string; payUrl: string } | undefined;
    for (const [i, second] of candidates.entries()) {
      const tried = await bookCard(`2026-12-1${i}`, [first, second]);
      const b = await state(tried.bookingId);
      const itemName = `NogPets: ${b.what} ${b.when}`;
      const code = itemName.charCodeAt(99);
      if (code >= 0xd800 && code <= 0xdbff) {
        booked = tried;
        break;
      }
      await server.post(`/v1/bookings/${tried.bookingId}/cancel`, { confirm: true }, as());
    }
    expect(booked, 'one of the names puts half an emoji at the old cut').toBeDefined();
    const page = await browser.newPage();
    const opened = await page.goto(booked!.payUrl);
    expect(opened?.status()).toBe(200);
    await page.getByRole('button', { name: 'Continue to PayFast' }).click();
    await page.waitForURL(/\/done$/);
    await page.close();
    expect(await until(booked!.bookingId, 'PAID')).toMatchObject({
      status: 'ACCEPTED',
      paymentStatus: 'PAID',
    });
    const itemName = payfast.checkouts.at(-1)!.item_name!;
    expect(itemName).toMatch(/^NogPets: O'Brien & Co\. "Zoë" <Rex>: /);
    expect(itemName).not.toMatch(/\p{Extended_Pictographic}/u);
    expect(Array.from(itemName).length).toBeLessThanOrEqual(100);
  });

  it('tells the gateway apart: the sandbox notify endpoint is not served when PayFast is configured', async () => {
    const res = await fetch(`${server.url}/payments/sandbox/notify`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'payment_id=x',
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      error: { code: 'NOT_FOUND', message: expect.any(String), details: {} },
    });
  });

  it("applies a notice kept but never checked (the process stopped after answering 200) on the worker's next pass", async () => {
    const booked = await bookCard('2026-12-09');
    const checkout = await checkoutForm(booked.payUrl);
    const real = payfast.itn(checkout);
    payfast.sent.add(real.params);
    // As the notify route keeps it before answering; the check after the answer never ran.
    const notice = await runOperation(
      pageOperations.keepPaymentNotice,
      {
        deps: server.service.runtime.deps,
        requestId: 'payfast-test',
        clientName: null,
        auth: null,
        log: server.service.runtime.logger,
        principal: { kind: 'gateway', gateway: 'payfast' },
      },
      { body: real.body, sourceIp: '127.0.0.1' },
    );
    expect((await state(booked.bookingId)).paymentStatus).toBe('PENDING');
    const deps = server.service.runtime.deps;
    expect(await recheckNotices(deps)).toEqual({ rechecked: 0, failed: 0 }); // not stale yet: its own check may still be running
    clock.set(new Date(clock.now().getTime() + 2 * 60_000));
    try {
      expect(await recheckNotices(deps)).toEqual({ rechecked: 1, failed: 0 });
      expect(await checked(server, notice.id)).toMatchObject({ state: 'DONE', outcome: 'APPLIED' });
      expect(await state(booked.bookingId)).toMatchObject({ status: 'ACCEPTED', paymentStatus: 'PAID' });
      expect(await recheckNotices(deps)).toEqual({ rechecked: 0, failed: 0 });
    } finally {
      clock.set(new Date(clock.now().getTime() - 2 * 60_000));
    }
  });

  it('shows a person back from PayFast, before its confirmation, that it is on its way: no second payment offered', async () => {
    const booked = await bookCard('2026-12-10');
    const res = await fetch(`${booked.payUrl}/done`);
    expect(res.status).toBe(200);
    expect(res.headers.get('refresh')).toBe('5');
    const page = await browser.newPage();
    try {
      await page.goto(`${booked.payUrl}/done`);
      const text = await page.innerText('body');
      expect(text).toContain('Waiting for PayFast');
      expect(text).toContain('Please do not pay again.');
      expect(text).not.toContain('Try again');
      expect(text).not.toMatch(/<[a-z]/);
    } finally {
      await page.close();
    }
  });
});
