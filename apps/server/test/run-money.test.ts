// Payment links of a business: send_payment_link (a booking's 48-hour pay link, the same
// link and rule as pay_booking) and create_invoice_link (any amount, a pay link and its QR code),
// over HTTP and MCP, every role, the confirm step, bounds, a business outside South Africa, and an
// invoice paid on the sandbox's TEST page in Chromium.
import { createApiKey } from '@nogpets/operations/testing';
import { type Browser, fixedClock, launchBrowser } from '@nogpets/test-utils';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifySandbox, signSandboxNotice, startTestServer, type TestServer, toolJson } from './harness.js';
import { insertPartner, LISBON_PARTNER, STELLENBOSCH_PARTNER } from './partner-fixture.js';

type Json = any;

// jsqr is CommonJS typed as an ES module: its function is the module itself and its `default`.
const jsQR = ((jsQRModule as unknown as { default?: typeof jsQRModule }).default ??
  jsQRModule) as unknown as typeof import('jsqr')['default'];

const BIZ = 'biz_boland_paws';
const OTHER = STELLENBOSCH_PARTNER.id;
const LISBON = LISBON_PARTNER.id;
const clock = fixedClock('2026-03-11T04:00:00Z'); // Wednesday 06:00 in Johannesburg

type Role = 'owner' | 'manager' | 'crew' | 'other' | 'nobody';

const EXPECTED: Record<Role, { send: number; invoice: number }> = {
  owner: { send: 200, invoice: 201 },
  manager: { send: 200, invoice: 201 },
  crew: { send: 403, invoice: 403 },
  other: { send: 404, invoice: 404 },
  nobody: { send: 403, invoice: 403 },
};
const CODE: Record<number, string> = { 403: 'FORBIDDEN', 404: 'NOT_FOUND' };

/** The text a QR code in a data:image/png;base64 URL carries. */
function decodeQr(dataUrl: string): string | null {
  const png = PNG.sync.read(Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64'));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
}

describe('payment links of a business', () => {
  let server: TestServer;
  let browser: Browser;
  const keys = {} as Record<Role | 'lisbon', string>;
  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  const key = async (email: string) =>
    (await createApiKey(server.db.sql, { email, scopes: ['business:manage'] })).key;
  const mcp = async (tool: string, who: string, args: Record<string, unknown>) => {
    const client = await server.mcpAs(who);
    const answer = (await client.callTool({ name: tool, arguments: args })) as { isError?: boolean };
    return { isError: answer.isError === true, body: toolJson(answer) };
  };
  const bookings = async (where: 'unpaid' | 'paid' | 'cash') => {
    const rows = await server.db.sql<{ id: string }[]>`
      select id from bookings where business_id = ${BIZ} and starts_at > ${clock.now()}
        and ${where === 'unpaid'} = (payment_method = 'CARD' and payment_status = 'PENDING' and status = 'PENDING')
        and ${where === 'paid'} = (payment_method = 'CARD' and payment_status = 'PAID')
        and ${where === 'cash'} = (payment_status = 'CASH_DUE')
      order by starts_at, id`;
    return rows.map((r) => r.id);
  };
  const openLinks = async (bookingId: string) =>
    (
      await server.db.sql<{ id: string }[]>`
      select id from payments where ${bookingId} = any(booking_ids) and status = 'OPEN'`
    ).map((r) => r.id);
  const sendLink = (who: string, bookingId: string, body: Record<string, unknown>) =>
    server.post(`/v1/business/bookings/${bookingId}/payment-link`, body, as(who));
  const invoice = (who: string, body: Record<string, unknown>) =>
    server.post('/v1/business/invoices', body, as(who));

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    await insertPartner(server.db.sql, STELLENBOSCH_PARTNER);
    await insertPartner(server.db.sql, LISBON_PARTNER);
    keys.owner = await key('owner@partner.example');
    keys.manager = await key('manager@partner.example');
    keys.crew = await key('crew@partner.example');
    keys.other = await key('other-owner@example.com');
    keys.nobody = await key('nobody@example.com');
    keys.lisbon = await key('dona@tosquias.example');
    await server.db.sql`
      insert into business_members (business_id, user_id, role, created_at)
      select ${OTHER}, id, 'owner', now() from users where email = 'other-owner@example.com'`;
    await server.db.sql`
      insert into business_members (business_id, user_id, role, created_at)
      select ${LISBON}, id, 'owner', now() from users where email = 'dona@tosquias.example'`;
    await server.db.sql`
      insert into business_clients (business_id, id, name, phone, created_at)
      values (${LISBON}, 'cli_lisboa_rita', 'Rita Sousa', '+351 912 000 111', now())`;
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('the demo partner has unpaid card, paid card and cash bookings coming', async () => {
    expect((await bookings('unpaid')).length).toBeGreaterThanOrEqual(2);
    expect((await bookings('paid')).length).toBeGreaterThan(0);
    expect((await bookings('cash')).length).toBeGreaterThan(0);
  });

  it('send_payment_link asks first (409 CONFIRM_REQUIRED, nothing made), then gives a 48-hour link that pays the booking', async () => {
    const [id] = await bookings('unpaid');
    const before = await openLinks(id!);
    const asked = await sendLink(keys.owner, id!, {});
    expect(asked.status).toBe(409);
    expect(asked.body.error.code).toBe('CONFIRM_REQUIRED');
    expect(asked.body.error.details.summary).toMatch(
      /^Make a new card pay link for .+'s booking for .+, \w{3}, \d+ \w{3} 2026, \d\d:\d\d to \d\d:\d\d\. R\d+ by card: the client pays through the new link, valid 48 hours\./,
    );
    expect(asked.body.error.details.bookingId).toBe(id);
    const notConfirmed = await sendLink(keys.owner, id!, { confirm: false });
    expect(notConfirmed.body.error.code).toBe('CONFIRM_REQUIRED');
    expect(await openLinks(id!)).toEqual(before);

    const res = await sendLink(keys.owner, id!, { confirm: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [row] = await server.db.sql<{ total: number; client: string }[]>`
      select b.total_cents as total, c.name as client from bookings b
      join business_clients c on c.business_id = b.business_id and c.id = b.business_client_id where b.id = ${id!}`;
    expect(res.body).toMatchObject({
      bookingId: id,
      amountCents: row!.total,
      currency: 'ZAR',
      amount: `R${row!.total / 100}`,
      client: { name: row!.client },
    });
    expect(res.body.payUrl).toMatch(new RegExp(`^${server.url}/pay/npl_`));
    expect(Date.parse(res.body.expiresAt) - clock.now().getTime()).toBe(48 * 3600_000);
    expect(res.body.message).toContain(res.body.payUrl);
    expect(res.body.message).toContain(`Hi ${row!.client.split(' ')[0]}`);
    expect(res.body.message).toContain(res.body.amount);
    // The one open link is the new one: the demo's earlier link stopped working.
    const now = await openLinks(id!);
    expect(now).toHaveLength(1);
    expect(before.length === 0 || !before.includes(now[0]!)).toBe(true);
    const [audit] = await server.db.sql<{ n: number }[]>`
      select count(*)::int as n from audit_log where action = 'booking.paylink' and target = ${id!}`;
    expect(audit!.n).toBe(1);

    // The client pays it on the sandbox page: the booking is paid, and a new link is NOTHING_TO_PAY.
    const posted = await fetch(`${res.body.payUrl}/sandbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'decision=pay',
      redirect: 'manual',
    });
    expect(posted.status).toBe(303);
    await posted.body?.cancel();
    const [paid] = await server.db.sql<{ status: string; paymentStatus: string }[]>`
      select status, payment_status as "paymentStatus" from bookings where id = ${id!}`;
    expect(paid).toEqual({ status: 'ACCEPTED', paymentStatus: 'PAID' });
    const again = await sendLink(keys.owner, id!, { confirm: true });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('NOTHING_TO_PAY');
  });

  it('answers NOTHING_TO_PAY for a paid or a cash booking, before asking to confirm, over HTTP and MCP', async () => {
    for (const id of [(await bookings('paid'))[0]!, (await bookings('cash'))[0]!]) {
      for (const body of [{}, { confirm: true }]) {
        const res = await sendLink(keys.manager, id, body);
        expect(res.status).toBe(409);
        expect(res.body.error.code).toBe('NOTHING_TO_PAY');
        const overMcp = await mcp('send_payment_link', keys.manager, { bookingId: id, ...body });
        expect(overMcp.isError).toBe(true);
        expect(overMcp.body.error.code).toBe('NOTHING_TO_PAY');
      }
      expect(await openLinks(id)).toEqual([]);
    }
  });

  it("answers 404 for another business's booking or client, and for none", async () => {
    const [id] = await bookings('unpaid');
    for (const bookingId of [id!, 'bkg_nope']) {
      const res = await sendLink(keys.other, bookingId, { confirm: true });
      expect(res.status).toBe(404);
      expect(res.body.error.message).toBe(`No booking ${bookingId} at this business.`);
    }
    const [client] = await server.db.sql<{ id: string }[]>`
      select id from business_clients where business_id = ${BIZ} order by id limit 1`;
    const res = await invoice(keys.other, {
      amountCents: 5000,
      description: 'Nails',
      clientId: client!.id,
      confirm: true,
    });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect(
      (
        await invoice(keys.owner, {
          amountCents: 5000,
          description: 'Nails',
          clientId: 'cli_lisboa_rita',
          confirm: true,
        })
      ).status,
    ).toBe(404);
  });

  for (const role of Object.keys(EXPECTED) as Role[]) {
    it(`${role} at Boland Paws: send_payment_link ${EXPECTED[role].send}, create_invoice_link ${EXPECTED[role].invoice}, the same over MCP`, async () => {
      const id = (await bookings('unpaid')).at(-1)!;
      const send = await sendLink(keys[role], id, { businessId: BIZ, confirm: true });
      const inv = await invoice(keys[role], {
        businessId: BIZ,
        amountCents: 12000,
        description: `Tip for the crew (${role})`,
        confirm: true,
      });
      expect(send.status, JSON.stringify(send.body)).toBe(EXPECTED[role].send);
      expect(inv.status, JSON.stringify(inv.body)).toBe(EXPECTED[role].invoice);
      const sendMcp = await mcp('send_payment_link', keys[role], {
        businessId: BIZ,
        bookingId: id,
        confirm: true,
      });
      const invMcp = await mcp('create_invoice_link', keys[role], {
        businessId: BIZ,
        amountCents: 12000,
        description: `Tip for the crew (${role}, MCP)`,
        confirm: true,
      });
      for (const [http, overMcp, status] of [
        [send, sendMcp, EXPECTED[role].send],
        [inv, invMcp, EXPECTED[role].invoice],
      ] as const) {
        if (status < 300) {
          expect(overMcp.isError).toBe(false);
          expect(overMcp.body.payUrl).toMatch(/\/pay\/npl_/);
          expect(overMcp.body.payUrl).not.toBe(http.body.payUrl);
        } else {
          expect(http.body.error.code).toBe(CODE[status]);
          expect(overMcp.isError).toBe(true);
          expect(overMcp.body.error.code).toBe(CODE[status]);
          expect(overMcp.body.error.message).toBe(http.body.error.message);
          expect(JSON.stringify(http.body)).not.toMatch(/payUrl|npl_/);
        }
      }
      const [made] = await server.db.sql<{ n: number }[]>`
        select count(*)::int as n from invoices where description like ${`Tip for the crew (${role}%`}`;
      expect(made!.n).toBe(EXPECTED[role].invoice === 201 ? 2 : 0);
    });
  }

  it('create_invoice_link asks first, then gives a 30-day link with a QR code that decodes to exactly the link', async () => {
    const [client] = await server.db.sql<{ id: string; name: string }[]>`
      select id, name from business_clients where business_id = ${BIZ} order by id limit 1`;
    const body = {
      amountCents: 18050,
      description: 'Flea shampoo, 500 ml',
      clientId: client!.id,
      dueDate: '2026-03-20',
    };
    const asked = await invoice(keys.owner, body);
    expect(asked.status).toBe(409);
    expect(asked.body.error.code).toBe('CONFIRM_REQUIRED');
    expect(asked.body.error.details.summary).toBe(
      `Make a card pay link for "Flea shampoo, 500 ml" for ${client!.name}. R180.50 paid by card through the link, due 2026-03-20, valid 30 days (until 2026-04-10). It comes with a QR code. NogPets does not send it: you pass it on.`,
    );
    const [none] = await server.db.sql<{ n: number }[]>`
      select count(*)::int as n from invoices where description = 'Flea shampoo, 500 ml'`;
    expect(none!.n).toBe(0);

    const res = await invoice(keys.owner, { ...body, confirm: true });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      businessId: BIZ,
      status: 'OPEN',
      amountCents: 18050,
      currency: 'ZAR',
      amount: 'R180.50',
      description: 'Flea shampoo, 500 ml',
      clientId: client!.id,
      dueDate: '2026-03-20',
      expiresAt: '2026-04-10T04:00:00.000Z',
    });
    expect(res.body.invoiceId).toMatch(/^inv_/);
    expect(res.body.payUrl).toMatch(new RegExp(`^${server.url}/pay/npl_`));
    expect(res.body.message).toContain(res.body.payUrl);
    expect(res.body.qr.png).toMatch(/^data:image\/png;base64,/);
    expect(decodeQr(res.body.qr.png)).toBe(res.body.payUrl);
    expect(res.body.qr.svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(res.body.qr.svg.trim()).toMatch(/<\/svg>$/);
    expect(res.body.qr.svg).toContain('<path');

    const overMcp = await mcp('create_invoice_link', keys.manager, { ...body, confirm: true });
    expect(overMcp.isError).toBe(false);
    expect(decodeQr(overMcp.body.qr.png)).toBe(overMcp.body.payUrl);
    const [audit] = await server.db.sql<{ n: number }[]>`
      select count(*)::int as n from audit_log where action = 'invoice.create' and target = ${res.body.invoiceId}`;
    expect(audit!.n).toBe(1);
  });

  it('an invoice paid on the sandbox TEST page becomes PAID, once, in Chromium', async () => {
    const res = await invoice(keys.manager, {
      amountCents: 25000,
      description: 'Extra de-matting',
      confirm: true,
    });
    expect(res.status).toBe(201);
    const state = async () =>
      (
        await server.db.sql<{ status: string; paidAt: Date | null }[]>`
        select status, paid_at as "paidAt" from invoices where id = ${res.body.invoiceId}`
      )[0]!;
    const page = await browser.newPage();
    try {
      await page.goto(res.body.payUrl);
      await expect(page.locator('.test-banner').textContent()).resolves.toContain('TEST');
      await expect(page.locator('#amount').textContent()).resolves.toBe('R250');
      const shown = (await page.locator('main').innerText()).replace(/\s+/g, ' ');
      expect(shown).toContain('Boland Paws');
      expect(shown).toContain('Extra de-matting');
      expect((await state()).status).toBe('OPEN');
      await page.getByRole('button', { name: /Pay R250 / }).click();
      await page.waitForURL(/\/done$/);
      await expect(page.locator('#outcome').textContent()).resolves.toBe('Payment received. Thank you.');
      expect(await state()).toMatchObject({ status: 'PAID', paidAt: clock.now() });
      await page.goto(res.body.payUrl);
      await expect(page.locator('main').innerText()).resolves.toContain('This is paid. Thank you.');
    } finally {
      await page.close();
    }
    // The gateway sends its notification again: taken once, the invoice stays paid.
    const [payment] = await server.db.sql<{ id: string; ref: string; status: string }[]>`
      select id, gateway_ref as ref, status from payments where invoice_id = ${res.body.invoiceId}`;
    expect(payment!.status).toBe('PAID');
    const replay = await signSandboxNotice(server, {
      paymentId: payment!.id,
      gatewayRef: payment!.ref,
      amountCents: 25000,
      outcome: 'COMPLETE',
    });
    expect(await notifySandbox(server, replay)).toBe(200);
    expect(await notifySandbox(server, replay)).toBe(200);
    const outcomes = (
      await server.db.sql<{ outcome: string }[]>`
      select outcome from payment_notifications where payment_id = ${payment!.id} order by received_at, id`
    ).map((r) => r.outcome);
    expect(outcomes.filter((o) => o === 'APPLIED')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'DUPLICATE')).toHaveLength(2);
    expect((await state()).status).toBe('PAID');
    // A second charge on the paid link is money owed back, not a second payment.
    const twice = await signSandboxNotice(server, {
      paymentId: payment!.id,
      gatewayRef: 'sbx_invoice_twice',
      amountCents: 25000,
      outcome: 'COMPLETE',
    });
    expect(await notifySandbox(server, twice)).toBe(200);
    const [owed] = await server.db.sql<{ state: string }[]>`
      select state from payment_notices where gateway_ref = 'sbx_invoice_twice'`;
    expect(owed!.state).toBe('REFUND_DUE');
    // A declined attempt leaves an open invoice open, to be tried again.
    const other = await invoice(keys.manager, { amountCents: 9900, description: 'Nail clip', confirm: true });
    const declined = await fetch(`${other.body.payUrl}/sandbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'decision=fail',
      redirect: 'manual',
    });
    expect(declined.status).toBe(303);
    await declined.body?.cancel();
    const [open] = await server.db.sql<{ status: string }[]>`
      select status from invoices where id = ${other.body.invoiceId}`;
    expect(open!.status).toBe('OPEN');
    expect((await fetch(other.body.payUrl)).status).toBe(200);
  });

  it('keeps amounts from R1 to R100,000 and descriptions of 1 to 200 characters; a due date within the link', async () => {
    const status = async (body: Record<string, unknown>) => {
      const res = await invoice(keys.owner, { description: 'Bounds', amountCents: 5000, ...body });
      return res.status === 409 ? res.body.error.code : res.status;
    };
    expect(await status({ amountCents: 100 })).toBe('CONFIRM_REQUIRED');
    expect(await status({ amountCents: 10_000_000 })).toBe('CONFIRM_REQUIRED');
    expect(await status({ amountCents: 99 })).toBe(400);
    expect(await status({ amountCents: 10_000_001 })).toBe(400);
    expect(await status({ amountCents: 0 })).toBe(400);
    expect(await status({ amountCents: 150.5 })).toBe(400);
    expect(await status({ amountCents: '5000' })).toBe(400);
    expect(await status({ description: 'x'.repeat(200) })).toBe('CONFIRM_REQUIRED');
    expect(await status({ description: 'x'.repeat(201) })).toBe(400);
    expect(await status({ description: '   ' })).toBe(400);
    expect(await status({ dueDate: '2026-03-11' })).toBe('CONFIRM_REQUIRED');
    expect(await status({ dueDate: '2026-04-10' })).toBe('CONFIRM_REQUIRED');
    expect(await status({ dueDate: '2026-03-10' })).toBe(400);
    expect(await status({ dueDate: '2026-04-11' })).toBe(400);
    expect(await status({ dueDate: '2026-02-30' })).toBe(400);
    expect(await status({ surprise: true })).toBe(400);
    const low = await invoice(keys.owner, { description: 'Bounds', amountCents: 99 });
    expect(low.body.error.message).toBe(
      'amountCents: from 100 to 10000000 (R1 to R100,000), in the minor units of ZAR.',
    );
    const [none] = await server.db.sql<{ n: number }[]>`
      select count(*)::int as n from invoices where description = 'Bounds'`;
    expect(none!.n).toBe(0);
  });

  it('a business in Lisbon gets NOT_AVAILABLE_IN_COUNTRY for both, over HTTP and MCP, while its day plan works', async () => {
    const inv = await invoice(keys.lisbon, {
      amountCents: 3500,
      description: 'Banho',
      clientId: 'cli_lisboa_rita',
      confirm: true,
    });
    expect(inv.status).toBe(409);
    expect(inv.body.error.code).toBe('NOT_AVAILABLE_IN_COUNTRY');
    expect(inv.body.error.message).toBe(
      'Tosquias da Graça is in Portugal: pay links and invoices through NogPets take card payments for businesses in South Africa only. Ask the client to pay the business directly.',
    );
    expect(inv.body.error.details).toMatchObject({ businessId: LISBON, country: 'PT' });
    const invMcp = await mcp('create_invoice_link', keys.lisbon, { amountCents: 3500, description: 'Banho' });
    expect(invMcp.body.error.code).toBe('NOT_AVAILABLE_IN_COUNTRY');
    await server.db.sql`
      insert into bookings (id, business_id, resource_id, line_id, status, payment_method, payment_status, starts_at, ends_at, total_cents, client_name, details)
      values ('bkg_lisboa_card', ${LISBON}, ${LISBON_PARTNER.vanId}, 'grooming', 'PENDING', 'CARD', 'PENDING',
        '2026-03-12T10:00:00Z', '2026-03-12T11:00:00Z', 3500, 'test', '{"currency":"EUR","timeZone":"Europe/Lisbon"}')`;
    const send = await sendLink(keys.lisbon, 'bkg_lisboa_card', { confirm: true });
    expect(send.status).toBe(409);
    expect(send.body.error.code).toBe('NOT_AVAILABLE_IN_COUNTRY');
    const sendMcp = await mcp('send_payment_link', keys.lisbon, { bookingId: 'bkg_lisboa_card' });
    expect(sendMcp.body.error.code).toBe('NOT_AVAILABLE_IN_COUNTRY');
    expect(await openLinks('bkg_lisboa_card')).toEqual([]);
    const day = await server.get('/v1/business/day-plan?date=2026-03-12', as(keys.lisbon));
    expect(day.status).toBe(200);
    expect(day.body.currency).toBe('EUR');
  });
});
