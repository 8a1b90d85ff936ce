// Mail to people made from the domain events, end to end: the real server, real PostgreSQL, the
// worker's dispatch-notices job, nodemailer to a real SMTP server on loopback, and every mail parsed
// as it arrived (mailparser). Each event mails the right people and no one else; values are escaped;
// the .ics parses; one-click unsubscribe stops an optional mail but not one that must go; a
// business's settings hold; a refusing SMTP server is retried with backoff, then the mail is failed
// and listed; a rolled-back change mails nothing; two passes at once make each mail once.
import { CLI_REVIEWER } from '@nogpets/operations';
import { createApiKey, deliverPendingMail, grantOperatorAccess } from '@nogpets/operations/testing';
import { hash } from '@node-rs/argon2';
import { appendEvents, eventReaderLag, findOrCreateUser, setPassword } from '@nogpets/store';
import { fixedClock } from '@nogpets/test-utils';
import type { ParsedMail } from 'mailparser';
import ical from 'node-ical';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cli,
  newPetOwner,
  payInSandbox,
  runJob,
  signedInForm,
  startTestServer,
  type TestServer,
} from './harness.js';
import { courierOrder, newBuyer, payOrderLink } from './shop-fixture.js';
import { type SmtpReceiver, startSmtpReceiver } from './smtp-receiver.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read as a client reads them
type Json = any;

const OWNER = 'owner@partner.example';
const MANAGER = 'manager@partner.example';
const CREW_VAN1 = 'crew@partner.example';
const PERSON = 'notices-ayanda@example.com';
const WALK_IN = 'thandi.walkin@example.com';

const toOf = (m: ParsedMail) => (m.to && !Array.isArray(m.to) ? m.to.value[0]?.address : '') ?? '';
/** A header as it was sent (unfolded): mailparser parses List-* headers into objects. */
const header = (m: ParsedMail, name: string) =>
  (m.headerLines.find((h) => h.key === name)?.line ?? '').replace(/^[^:]+:\s*/, '').replace(/\r?\n\s+/g, ' ');

describe('mail to people (the notices reader, the outbox, SMTP on loopback)', () => {
  let smtp: SmtpReceiver;
  const clock = fixedClock('2026-11-23T04:00:00Z'); // Monday 06:00 in Johannesburg
  let server: TestServer;
  let person: { key: string; petId: string; addressId: string };
  let owner: { key: string };
  let aneleEmail: string;
  const as = (key: string) => ({ authorization: `Bearer ${key}` });

  /** The worker's job once: events to mails, then delivered. */
  const dispatch = () => runJob(server, 'dispatchNotices', 'dispatch-notices');

  /** Events written and final that the notices reader has not read yet. */
  const unread = async () =>
    (await eventReaderLag(server.db.sql)).find((r) => r.name === 'notices')?.behind ?? -1;
  /**
   * The job until the notices reader has read every event written so far (a transaction open
   * anywhere in the cluster holds the newest back for a while): each pass also delivers what it
   * made, so every mail of those events has then been sent or has failed.
   */
  async function readAll(): Promise<void> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      await dispatch();
      const left = await unread();
      if (left === 0) return;
      if (Date.now() > deadline) throw new Error(`the notices reader still has ${left} events to read`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /**
   * Runs `act`, then the job until `n` mails arrived (a gateway's notice is applied just after its
   * answer, so its event may come a moment later) and every event is read, so that no other mail of
   * them can still come; answers the mails that arrived meanwhile.
   */
  async function mailsOf(act: () => Promise<unknown>, n: number): Promise<ParsedMail[]> {
    const before = smtp.received.length;
    await act();
    await expect
      .poll(
        async () => {
          await dispatch();
          return smtp.received.length - before;
        },
        { timeout: 60_000, interval: 100 },
      )
      .toBeGreaterThanOrEqual(n);
    await readAll();
    return smtp.received.slice(before).sort((a, b) => toOf(a).localeCompare(toOf(b)));
  }
  const kindsTo = (mails: ParsedMail[]) => mails.map((m) => toOf(m)).sort((a, b) => a.localeCompare(b));

  async function slots(key: string, date: string, body: Record<string, unknown>) {
    const res = await server.post('/v1/availability', { ...body, from: date, to: date }, as(key));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.days[0].slots as { start: string; resourceId: string }[];
  }
  // At Boland Paws (the partner of the demo: an owner, a manager, and crew on Van 1).
  const grooming = () => ({
    businessId: 'biz_boland_paws',
    category: 'grooming',
    addressId: person.addressId,
    pets: [{ petId: person.petId, serviceIds: ['bp-groom-bath'] }],
  });
  /** The person's booking on `resourceId` (the first open time of the day there). */
  async function personBooks(date: string, resourceId: string, paymentMethod: 'CARD' | 'CASH') {
    const slot = (await slots(person.key, date, grooming())).find((s) => s.resourceId === resourceId);
    expect(slot, `a time on ${resourceId} on ${date}`).toBeDefined();
    const res = await server.post(
      '/v1/bookings',
      { ...grooming(), start: slot!.start, resourceId, paymentMethod, confirm: true },
      as(person.key),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { id: res.body.bookingId as string, start: slot!.start };
  }
  const businessTimes = async (date: string, resourceId = 'bp-van-2') => {
    const res = await server.post(
      '/v1/business/times',
      {
        pets: [{ petId: 'pet_bp_bongo', serviceIds: ['bp-groom-bath'] }],
        clientId: 'cli_bp_anele',
        from: date,
        to: date,
        resourceId,
      },
      as(owner.key),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.days[0].slots as { start: string; resourceId: string }[];
  };
  const act = (id: string, what: string, body: Record<string, unknown>) =>
    server.post(`/v1/business/bookings/${id}/${what}`, { ...body, confirm: true }, as(owner.key));
  const kindOf = async (to: string, subject: string) =>
    (
      await server.db.sql<{ kind: string }[]>`select kind from mail_outbox
        where lower(to_address) = lower(${to}) and subject = ${subject} order by seq desc limit 1`
    )[0]?.kind;
  /** Each mail as "address kind", read from the outbox row it was sent from. */
  async function described(mails: ParsedMail[]): Promise<string[]> {
    const out: string[] = [];
    for (const m of mails) out.push(`${toOf(m)} ${await kindOf(toOf(m), m.subject ?? '')}`);
    return out.sort();
  }

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServer({
      clock,
      database: { demoDataAt: clock.now() },
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'NogPets <hello@nogpets.test>' },
    });
    person = await newPetOwner(server, {
      email: PERSON,
      pet: { name: 'Rex', weightKg: 12 },
      line1: '12 Dorp Street',
    });
    // A name that would be markup if it were not escaped.
    await server.db.sql`update users set name = '<script>alert(1)</script> Ayanda' where email = ${PERSON}`;
    owner = await createApiKey(server.db.sql, { email: OWNER, scopes: ['business:manage'] });
    const [anele] = await server.db.sql<{ email: string }[]>`
      select u.email from business_clients c join users u on u.id = c.user_id where c.id = 'cli_bp_anele'`;
    aneleEmail = anele!.email;
    // Events before this point (the demo's) were never for the reader: it starts with the ones to come.
    await readAll();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  it('a card booking paid: the person gets the confirmation with an .ics; owner, manager and the crew of its van the new booking; nobody else', async () => {
    const booked = await personBooks('2026-11-25', 'bp-van-1', 'CARD');
    // Booked but not paid: nobody hears yet (the hold may lapse).
    expect(await mailsOf(async () => {}, 0)).toEqual([]);
    const mails = await mailsOf(async () => expect(await payInSandbox(server, booked.id)).toBe(200), 4);
    expect(await described(mails)).toEqual(
      [
        `${CREW_VAN1} business_new_booking`,
        `${MANAGER} business_new_booking`,
        `${OWNER} business_new_booking`,
        `${PERSON} booking_confirmed`,
      ].sort(),
    );
    const confirmation = mails.find((m) => toOf(m) === PERSON)!;
    expect(confirmation.subject).toContain('Booked:');
    expect(confirmation.subject).toContain('Boland Paws');
    expect(confirmation.from?.value[0]).toMatchObject({ name: 'NogPets', address: 'hello@nogpets.test' });
    // In the business's zone and currency: 06:00 UTC+2 written as local time, rand as its country writes it.
    expect(confirmation.text).toContain('Africa/Johannesburg time');
    expect(confirmation.text).toMatch(/Total: R\s?\d[\d\s]*[,.]\d\d/);
    // Escaped: the person's name is text in the HTML part, never markup.
    expect(confirmation.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Ayanda');
    expect(confirmation.html).not.toContain('<script>');
    // A confirmation must go: no unsubscribe header.
    expect(header(confirmation, 'list-unsubscribe')).toBe('');
    expect(confirmation.messageId).toMatch(/^<mail_[^@]+@nogpets\.test>$/);
    // The .ics parses, with the booking's UID and time.
    const ics = confirmation.attachments.find((a) => a.filename === 'booking.ics');
    expect(ics?.contentType).toBe('text/calendar');
    const parsed = ical.sync.parseICS(ics!.content.toString('utf8'));
    const event = Object.values(parsed).find((v) => v?.type === 'VEVENT') as Json;
    expect(event.uid).toBe(`${booked.id}@nogpets`);
    expect(new Date(event.start).toISOString()).toBe(new Date(booked.start).toISOString());
    expect(event.summary).toContain('Boland Paws');
    // Optional business mail: RFC 8058 headers.
    const ownerMail = mails.find((m) => toOf(m) === OWNER)!;
    expect(header(ownerMail, 'list-unsubscribe')).toMatch(/^<http:\/\/\S+\/unsubscribe\?token=[\w-]+>$/);
    expect(header(ownerMail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(ownerMail.html).toContain('&lt;script&gt;');
    expect(ownerMail.html).not.toContain('<script>');
  });

  it('a booking on another van: that van has no crew mailed, and Van 1’s crew is not told', async () => {
    const mails = await mailsOf(async () => {
      const booked = await personBooks('2026-11-26', 'bp-van-2', 'CASH');
      expect(booked.id).toBeTruthy();
    }, 2);
    expect(await described(mails)).toEqual(
      [`${MANAGER} business_new_booking`, `${OWNER} business_new_booking`].sort(),
    );
    expect(kindsTo(mails)).not.toContain(CREW_VAN1);
  });

  it('the business accepts, moves and cancels a client’s booking: the client gets each with the message and the money; the staff get none', async () => {
    const [slot] = await businessTimes('2026-11-26');
    let id = '';
    const made = await mailsOf(async () => {
      const res = await server.post(
        '/v1/business/bookings',
        {
          client: { clientId: 'cli_bp_anele' },
          pets: [{ petId: 'pet_bp_bongo', serviceIds: ['bp-groom-bath'] }],
          address: { addressId: 'adr_bp_anele' },
          start: slot!.start,
          resourceId: slot!.resourceId,
          paymentMethod: 'CASH',
          confirm: true,
        },
        as(owner.key),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      id = res.body.booking.bookingId;
    }, 0);
    // Made by the business, waiting to be accepted: nobody is mailed yet.
    expect(made).toEqual([]);
    const accepted = await mailsOf(async () => expect((await act(id, 'accept', {})).status).toBe(200), 1);
    expect(await described(accepted)).toEqual([`${aneleEmail} booking_confirmed`]);
    expect(accepted[0]!.attachments.map((a) => a.filename)).toEqual(['booking.ics']);

    const [to] = await businessTimes('2026-11-27');
    const moved = await mailsOf(
      async () =>
        expect(
          (
            await act(id, 'move', {
              start: to!.start,
              resourceId: to!.resourceId,
              reason: 'The van is in for service.',
            })
          ).status,
        ).toBe(200),
      1,
    );
    expect(await described(moved)).toEqual([`${aneleEmail} booking_moved`]);
    expect(moved[0]!.text).toContain('The van is in for service.');
    expect(moved[0]!.text).toContain('from Thu, 26 Nov 2026');
    const movedIcs = ical.sync.parseICS(moved[0]!.attachments[0]!.content.toString('utf8'));
    const movedEvent = Object.values(movedIcs).find((v) => v?.type === 'VEVENT') as Json;
    expect(movedEvent.uid).toBe(`${id}@nogpets`);
    expect(new Date(movedEvent.start).toISOString()).toBe(new Date(to!.start).toISOString());

    const cancelled = await mailsOf(
      async () =>
        expect((await act(id, 'cancel', { reason: '<b>Our groomer</b> is ill & sorry.' })).status).toBe(200),
      1,
    );
    expect(await described(cancelled)).toEqual([`${aneleEmail} booking_cancelled`]);
    const mail = cancelled[0]!;
    expect(mail.text).toContain('<b>Our groomer</b> is ill & sorry.');
    expect(mail.html).toContain('&lt;b&gt;Our groomer&lt;/b&gt; is ill &amp; sorry.');
    expect(mail.text).toContain('Nothing was paid');
    expect(header(mail, 'list-unsubscribe')).toBe('');
  });

  it('a walk-in client without an account is mailed at the address the business gave; the person cancels and moves their own: the business hears, the person gets an optional confirmation', async () => {
    const [slot] = await businessTimes('2026-11-30');
    let walkIn = '';
    const made = await mailsOf(async () => {
      const res = await server.post(
        '/v1/business/bookings',
        {
          client: { name: 'Thandi Walk-in', phone: '+27 82 555 0101', email: WALK_IN },
          pets: [
            {
              name: 'Rex',
              type: 'DOG',
              weightKg: 14,
              coat: 'SHORT',
              serviceIds: ['bp-groom-bath'],
            },
          ],
          address: { line1: '12 Dorp Street', suburb: 'Die Boord', city: 'Stellenbosch' },
          start: slot!.start,
          resourceId: slot!.resourceId,
          paymentMethod: 'CASH',
          confirm: true,
        },
        as(owner.key),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      walkIn = res.body.booking.bookingId;
    }, 0);
    expect(made).toEqual([]);
    const accepted = await mailsOf(async () => expect((await act(walkIn, 'accept', {})).status).toBe(200), 1);
    expect(await described(accepted)).toEqual([`${WALK_IN} booking_confirmed`]);
    expect(accepted[0]!.text).toContain('Hello Thandi Walk-in,');

    // The person's own move (more than 12 hours ahead) and cancel.
    const booked = await personBooks('2026-12-01', 'bp-van-1', 'CASH');
    await mailsOf(async () => {}, 3);
    const other = (await slots(person.key, '2026-12-02', grooming())).find(
      (s) => s.resourceId === 'bp-van-2',
    )!;
    const moved = await mailsOf(async () => {
      const res = await server.post(
        `/v1/bookings/${booked.id}/reschedule`,
        { start: other.start, resourceId: other.resourceId },
        as(person.key),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }, 3);
    // From Van 1 to Van 2: Van 1's crew hears (it was theirs), owner and manager too; the person did it.
    expect(await described(moved)).toEqual(
      [
        `${CREW_VAN1} business_booking_moved`,
        `${MANAGER} business_booking_moved`,
        `${OWNER} business_booking_moved`,
      ].sort(),
    );
    const cancelled = await mailsOf(
      async () =>
        expect(
          (await server.post(`/v1/bookings/${booked.id}/cancel`, { confirm: true }, as(person.key))).status,
        ).toBe(200),
      3,
    );
    // Now on Van 2: Van 1's crew is not told.
    expect(await described(cancelled)).toEqual(
      [
        `${MANAGER} business_booking_cancelled`,
        `${OWNER} business_booking_cancelled`,
        `${PERSON} booking_cancelled_own`,
      ].sort(),
    );
    expect(header(cancelled.find((m) => toOf(m) === PERSON)!, 'list-unsubscribe-post')).toBe(
      'List-Unsubscribe=One-Click',
    );
  });

  it('the business declines a paid booking the person moved: the person gets the decline with the message and the refund on its way; nobody else', async () => {
    const booked = await personBooks('2026-12-15', 'bp-van-2', 'CARD');
    await mailsOf(async () => {}, 0);
    const paid = await mailsOf(async () => expect(await payInSandbox(server, booked.id)).toBe(200), 3);
    expect(await described(paid)).toEqual(
      [
        `${MANAGER} business_new_booking`,
        `${OWNER} business_new_booking`,
        `${PERSON} booking_confirmed`,
      ].sort(),
    );
    const to = (await slots(person.key, '2026-12-16', grooming())).find((x) => x.resourceId === 'bp-van-2')!;
    const moved = await mailsOf(async () => {
      const res = await server.post(
        `/v1/bookings/${booked.id}/reschedule`,
        { start: to.start, resourceId: to.resourceId },
        as(person.key),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }, 2);
    expect(await described(moved)).toEqual(
      [`${MANAGER} business_booking_moved`, `${OWNER} business_booking_moved`].sort(),
    );
    const declined = await mailsOf(
      async () =>
        expect((await act(booked.id, 'decline', { reason: 'Both vans are in for service.' })).status).toBe(
          200,
        ),
      2,
    );
    expect(await described(declined)).toEqual([`${PERSON} booking_declined`, `${PERSON} refund_due`]);
    const decline = declined.find((m) => m.subject?.startsWith('Declined'))!;
    expect(decline.text).toContain('Both vans are in for service.');
    expect(decline.text).toMatch(/R\s?\d[\d\s]*[,.]\d\d is refunded to your card/);
    expect(declined.find((m) => m.subject?.startsWith('Refund on its way'))).toBeDefined();
  });

  it('a shop order: paid, shipped with its tracking, delivered, each to its buyer only', async () => {
    const buyerEmail = 'notices-buyer@example.com';
    const buyer = await newBuyer(server, buyerEmail);
    const bought = await server.post(
      '/v1/orders',
      courierOrder([{ productId: 'dental-treats', qty: 1 }]),
      as(buyer.key),
    );
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    const orderId = bought.body.orderId as string;
    const paid = await mailsOf(
      async () => expect(await payOrderLink(server, bought.body.payUrl)).toBe(303),
      1,
    );
    expect(await described(paid)).toEqual([`${buyerEmail} order_paid`]);
    expect((await cli(server.db.url, ['order', 'pack', orderId])).status).toBe(0);
    const shipped = await mailsOf(
      async () =>
        expect(
          (await cli(server.db.url, ['order', 'ship', orderId, '--tracking', 'TRK<b>42</b>'])).status,
        ).toBe(0),
      1,
    );
    expect(await described(shipped)).toEqual([`${buyerEmail} order_shipped`]);
    expect(shipped[0]!.text).toContain('TRK<b>42</b>');
    expect(shipped[0]!.html).toContain('TRK&lt;b&gt;42&lt;/b&gt;');
    expect(header(shipped[0]!, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const delivered = await mailsOf(
      async () => expect((await cli(server.db.url, ['order', 'deliver', orderId])).status).toBe(0),
      1,
    );
    expect(await described(delivered)).toEqual([`${buyerEmail} order_delivered`]);
  });

  it('one-click unsubscribe (RFC 8058) stops that optional mail for that person; a cancellation by the business still arrives', async () => {
    const booked = await personBooks('2026-12-03', 'bp-van-1', 'CASH');
    const created = await mailsOf(async () => {}, 3);
    const managers = created.find((m) => toOf(m) === MANAGER)!;
    const first = await mailsOf(async () => {
      const res = await server.post(`/v1/bookings/${booked.id}/cancel`, { confirm: true }, as(person.key));
      expect(res.status).toBe(200);
    }, 4);
    const own = first.find((m) => toOf(m) === PERSON)!;
    const url = (m: ParsedMail) => /^<(\S+)>$/.exec(header(m, 'list-unsubscribe'))![1]!;
    // Opened in a browser: a page with a button, nothing changed yet.
    const shown = await fetch(url(own));
    expect(shown.status).toBe(200);
    const shownText = await shown.text();
    expect(shownText).toContain('Stop these mails');
    // The button posts to the link itself.
    expect(shownText).toContain(`action="${new URL(url(own)).pathname}${new URL(url(own)).search}"`);
    // The mail provider's one-click POST: no cookie, no form token, from elsewhere.
    for (const m of [own, managers]) {
      const done = await fetch(url(m), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://mail.example.net' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(done.status).toBe(200);
      expect(await done.text()).toContain('no longer go to');
    }
    // A made-up token: 404, nothing changed.
    const forged = await fetch(`${server.url}/unsubscribe?token=${'A'.repeat(32)}`, { method: 'POST' });
    expect(forged.status).toBe(404);
    // Tokens no link could hold (NUL, a lone surrogate, huge, none): 404 on GET and POST, never a 500.
    for (const token of ['%00', `${'A'.repeat(31)}%00`, '%ED%A0%80', 'A'.repeat(5000), ''])
      for (const method of ['GET', 'POST']) {
        const odd = await fetch(`${server.url}/unsubscribe?token=${token}`, { method });
        expect([token.slice(0, 12), method, odd.status]).toEqual([token.slice(0, 12), method, 404]);
      }

    const again = await personBooks('2026-12-04', 'bp-van-1', 'CASH');
    const newBooking = await mailsOf(async () => {}, 2);
    expect(await described(newBooking)).toEqual(
      [`${CREW_VAN1} business_new_booking`, `${OWNER} business_new_booking`].sort(),
    );
    const cancelledOwn = await mailsOf(
      async () =>
        expect(
          (await server.post(`/v1/bookings/${again.id}/cancel`, { confirm: true }, as(person.key))).status,
        ).toBe(200),
      3,
    );
    // The person's own-cancel confirmation is off; the manager turned off only new bookings.
    expect(await described(cancelledOwn)).toEqual(
      [
        `${CREW_VAN1} business_booking_cancelled`,
        `${MANAGER} business_booking_cancelled`,
        `${OWNER} business_booking_cancelled`,
      ].sort(),
    );
    // But a cancellation by the business must go.
    const third = await personBooks('2026-12-07', 'bp-van-1', 'CASH');
    await mailsOf(async () => {}, 2);
    await mailsOf(async () => expect((await act(third.id, 'accept', {})).status).toBe(200), 1);
    const byBusiness = await mailsOf(
      async () =>
        expect((await act(third.id, 'cancel', { reason: 'Both vans are booked out.' })).status).toBe(200),
      1,
    );
    expect(await described(byBusiness)).toEqual([`${PERSON} booking_cancelled`]);
  });

  it('/account: the person sees their optional mails and turns one back on; mails that must go have no switch', async () => {
    const user = await findOrCreateUser(server.db.sql, PERSON);
    await setPassword(server.db.sql, user.id, await hash('correct horse battery'));
    const form = await signedInForm(server, PERSON, 'correct horse battery');
    const pageText = async () =>
      (await fetch(`${server.url}/account`, { headers: { cookie: form.cookie } })).text();
    const before = await pageText();
    expect(before).toContain('<h2 id="mail">Mail</h2>');
    // Turned off with the link above: unchecked; the others on; a must-go kind is not offered.
    expect(before).toMatch(/value="booking_cancelled_own">\s*Confirmation when you cancel a booking/);
    expect(before).toMatch(/value="order_shipped" checked>/);
    expect(before).not.toContain('value="booking_cancelled"');
    // Not on any staff: no business kinds.
    expect(before).not.toContain('business_new_booking');
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/account/mail`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: form.cookie, ...headers },
        body,
      });
    const kinds = ['booking_cancelled_own', 'booking_expired', 'order_shipped', 'order_delivered'];
    const body = (on: string[]) =>
      new URLSearchParams([
        ['csrf', form.csrf],
        ...kinds.map((k): [string, string] => ['kinds', k]),
        ...on.map((k): [string, string] => ['on', k]),
      ]).toString();
    // From another site: refused, nothing changed.
    const cross = await post(body(kinds), { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(cross.status).toBe(403);
    const saved = await post(body(['booking_cancelled_own', 'booking_expired', 'order_delivered']));
    expect(saved.status).toBe(303);
    const after = await pageText();
    expect(after).toMatch(/value="booking_cancelled_own" checked>/);
    expect(after).toMatch(/value="order_shipped">/);
    const rows = await server.db.sql<{ kind: string; via: string }[]>`
      select kind, via from notice_opt_outs where email = ${PERSON} order by kind`;
    expect(rows).toEqual([{ kind: 'order_shipped', via: 'account' }]);
    // A kind that must go cannot be turned off.
    const must = await post(
      new URLSearchParams([
        ['csrf', form.csrf],
        ['kinds', 'booking_cancelled'],
      ]).toString(),
    );
    expect(must.status).toBe(400);
  });

  it('the business’s settings: owners and managers choose; an unknown kind is refused; crew may not', async () => {
    const read = await server.get('/v1/business/notification-settings', as(owner.key));
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.settings.map((s: Json) => [s.kind, s.enabled])).toEqual([
      ['business_new_booking', true],
      ['business_booking_cancelled', true],
      ['business_booking_moved', true],
      ['business_staff_joined', true],
    ]);
    const bad = await server.post(
      '/v1/business/notification-settings',
      { settings: { booking_cancelled: false } },
      as(owner.key),
    );
    expect([bad.status, bad.body.error?.code]).toEqual([400, 'BAD_REQUEST']);
    const crew = await createApiKey(server.db.sql, { email: CREW_VAN1, scopes: ['business:manage'] });
    const refused = await server.post(
      '/v1/business/notification-settings',
      { settings: { business_new_booking: false } },
      as(crew.key),
    );
    expect(refused.status).toBe(403);
    const off = await server.post(
      '/v1/business/notification-settings',
      { settings: { business_new_booking: false } },
      as(owner.key),
    );
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.settings[0]).toMatchObject({ kind: 'business_new_booking', enabled: false });
    const booked = await personBooks('2026-12-08', 'bp-van-1', 'CARD');
    const mails = await mailsOf(async () => expect(await payInSandbox(server, booked.id)).toBe(200), 1);
    // No business mail; the person's confirmation still goes.
    expect(await described(mails)).toEqual([`${PERSON} booking_confirmed`]);
    const on = await server.post(
      '/v1/business/notification-settings',
      { settings: { business_new_booking: true } },
      as(owner.key),
    );
    expect(on.status).toBe(200);
  });

  it('a rolled-back change mails nothing; two passes at once make each mail once', async () => {
    const before = (await server.db.sql<{ n: number }[]>`select count(*)::int as n from mail_outbox`)[0]!.n;
    // A change whose transaction rolls back after writing its event.
    await server.db.sql
      .begin(async (tx) => {
        await appendEvents(tx, [
          {
            type: 'booking.cancelled',
            version: 1,
            occurredAt: clock.now(),
            businessId: 'biz_boland_paws',
            personId: null,
            subjectKind: 'booking',
            subjectId: 'bkg_never',
            actor: { kind: 'staff', userId: null, clientName: null },
            data: {},
            operation: 'test',
            requestId: null,
            callId: null,
          },
        ]);
        throw new Error('roll back');
      })
      .catch(() => {});
    await readAll();
    expect((await server.db.sql<{ n: number }[]>`select count(*)::int as n from mail_outbox`)[0]!.n).toBe(
      before,
    );

    // Three bookings, then two passes at the same time.
    const ids = [
      (await personBooks('2026-12-09', 'bp-van-1', 'CASH')).id,
      (await personBooks('2026-12-10', 'bp-van-1', 'CASH')).id,
      (await personBooks('2026-12-11', 'bp-van-1', 'CASH')).id,
    ];
    await Promise.all([dispatch(), dispatch()]);
    await readAll();
    const rows = await server.db.sql<{ to: string; kind: string; n: number }[]>`
      select lower(to_address) as to, kind, count(*)::int as n from mail_outbox
      where event_id in (select id from domain_events where subject_id = any(${ids}) and type = 'booking.created')
      group by 1, 2 order by 1`;
    // (The manager stopped new-booking mails with the link above.)
    expect(rows).toEqual([
      { to: CREW_VAN1, kind: 'business_new_booking', n: 3 },
      { to: OWNER, kind: 'business_new_booking', n: 3 },
    ]);
    // Every one delivered once.
    await expect
      .poll(
        () => smtp.received.filter((m) => toOf(m) === OWNER && m.subject?.startsWith('New booking')).length,
        { timeout: 60_000 },
      )
      .toBeGreaterThanOrEqual(3);
  });

  it('a refusing SMTP server: retried after 1, 5, 30 minutes, 2, 6 and 12 hours, then failed and listed by `cli mail failed`', async () => {
    smtp.refuse.add(PERSON);
    const start = clock.now();
    try {
      const booked = await personBooks('2026-12-14', 'bp-van-2', 'CARD');
      await dispatch();
      expect(await payInSandbox(server, booked.id)).toBe(200);
      const row = async () =>
        (
          await server.db.sql<
            { id: string; attempts: number; next: Date | null; failed: Date | null; error: string | null }[]
          >`select id, attempts, next_attempt_at as next, failed_at as failed, last_error as error from mail_outbox
            where to_address = ${PERSON} and kind = 'booking_confirmed' and sent_at is null`
        )[0];
      // The gateway's notice is applied just after its answer: the job runs until the mail is made.
      await expect
        .poll(
          async () => {
            await dispatch();
            return (await row())?.attempts;
          },
          { timeout: 60_000 },
        )
        .toBe(1);
      let r = (await row())!;
      expect(r).toMatchObject({
        attempts: 1,
        failed: null,
        error: expect.stringContaining('Mailbox unavailable'),
      });
      const deps = server.service.runtime.deps;
      for (const [i, minutes] of [1, 5, 30, 120, 360, 720].entries()) {
        expect(r.next!.getTime() - clock.now().getTime()).toBe(minutes * 60_000);
        // Not before its time.
        clock.set(new Date(r.next!.getTime() - 1000));
        await deliverPendingMail(deps);
        expect((await row())!.attempts).toBe(i + 1);
        clock.set(r.next!);
        await deliverPendingMail(deps);
        r = (await row())!;
        expect(r.attempts).toBe(i + 2);
      }
      expect(r).toMatchObject({ attempts: 7, next: null, failed: expect.any(Date) });
      const listed = await cli(server.db.url, ['mail', 'failed']);
      expect(listed.status).toBe(0);
      expect(listed.stdout).toContain(r.id);
      expect(listed.stdout).toContain(PERSON);
      expect(listed.stdout).toContain('booking_confirmed');
      expect(listed.stdout).toContain('Mailbox unavailable');
      // And on the operator console.
      const ops = await findOrCreateUser(server.db.sql, 'ops@nogpets.example');
      await setPassword(server.db.sql, ops.id, await hash('correct horse battery'));
      await grantOperatorAccess(server.service.runtime.deps, 'ops@nogpets.example', CLI_REVIEWER);
      const operator = await signedInForm(server, 'ops@nogpets.example', 'correct horse battery');
      const consolePage = await (
        await fetch(`${server.url}/operator`, { headers: { cookie: operator.cookie } })
      ).text();
      expect(consolePage).toContain('Mail not delivered (1)');
      expect(consolePage).toContain(`id="mail-${r.id}"`);
      expect(consolePage).toContain(PERSON);
      // Failed stays failed: a later pass does not try it.
      smtp.refuse.delete(PERSON);
      clock.set(new Date(clock.now().getTime() + 24 * 3_600_000));
      await deliverPendingMail(deps);
      expect((await row())!.attempts).toBe(7);
    } finally {
      smtp.refuse.delete(PERSON);
      clock.set(start);
    }
  });
});
