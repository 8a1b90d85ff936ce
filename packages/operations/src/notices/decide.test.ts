// The pure decisions of mail to people: who gets which kind for each event, from the event and the
// facts gathered for it; and the rendering of a notice (escaped HTML, the .ics, the business's zone
// and currency).
import { describe, expect, it } from 'vitest';
import type { BookingFacts } from '../events/index.js';
import { decideNotices, readEvent } from './decide.js';
import { renderContext } from './dispatch.js';
import { renderMail } from './render.js';
import { NOTICE_KINDS } from './table.js';
import type { NoticeEvent, NoticeFacts } from './types.js';

const booking = (over: Partial<BookingFacts> = {}): BookingFacts => ({
  bookingId: 'bkg_1',
  businessId: 'biz_1',
  status: 'ACCEPTED',
  paymentMethod: 'CARD',
  paymentStatus: 'PAID',
  start: '2026-11-25T07:00:00.000Z',
  end: '2026-11-25T08:30:00.000Z',
  timeZone: 'Africa/Johannesburg',
  what: 'Bath for Rex',
  total: { amount: 45000, currency: 'ZAR' },
  resourceId: 'van-1',
  clientName: 'Claude',
  seriesId: null,
  ...over,
});

const facts = (over: Partial<NoticeFacts> = {}): NoticeFacts => ({
  business: {
    id: 'biz_1',
    name: 'Boland Paws',
    timeZone: 'Africa/Johannesburg',
    currency: 'ZAR',
    country: 'ZA',
  },
  person: { email: 'ayanda@example.com', name: 'Ayanda', userId: 'usr_1' },
  staff: [
    { userId: 'u_o', email: 'owner@b.example', name: 'Owner', role: 'owner', resourceIds: [] },
    { userId: 'u_m', email: 'manager@b.example', name: 'Manager', role: 'manager', resourceIds: [] },
    { userId: 'u_c1', email: 'crew1@b.example', name: 'Crew 1', role: 'crew', resourceIds: ['van-1'] },
    { userId: 'u_c2', email: 'crew2@b.example', name: 'Crew 2', role: 'crew', resourceIds: ['van-2'] },
  ],
  businessSettings: {},
  ...over,
});

function event(type: string, data: Record<string, unknown>): NoticeEvent {
  const e = readEvent({
    id: 'evt_1',
    type,
    version: 1,
    occurredAt: new Date('2026-11-23T04:00:00Z'),
    businessId: 'biz_1',
    personId: 'usr_1',
    subjectId: 'bkg_1',
    actor: { kind: 'person' },
    data,
  });
  if (!e) throw new Error(`not an event: ${type}`);
  return e;
}

const who = (ns: { to: string; kind: string }[]) => ns.map((n) => `${n.to} ${n.kind}`).sort();

describe('decideNotices', () => {
  it('a paid booking: the person’s confirmation; owner, manager and the crew of its van; not the other van’s crew', () => {
    expect(
      who(decideNotices(event('booking.paid', { booking: booking(), paid: booking().total }), facts())),
    ).toEqual([
      'ayanda@example.com booking_confirmed',
      'crew1@b.example business_new_booking',
      'manager@b.example business_new_booking',
      'owner@b.example business_new_booking',
    ]);
  });

  it('a card booking made and not yet paid: nobody; a cash one by the client: the staff, not yet the person', () => {
    const card = booking({ status: 'PENDING', paymentStatus: 'PENDING' });
    expect(decideNotices(event('booking.created', { booking: card, by: 'client' }), facts())).toEqual([]);
    const cash = booking({
      status: 'PENDING',
      paymentMethod: 'CASH',
      paymentStatus: 'CASH_DUE',
      resourceId: 'van-2',
    });
    expect(who(decideNotices(event('booking.created', { booking: cash, by: 'client' }), facts()))).toEqual([
      'crew2@b.example business_new_booking',
      'manager@b.example business_new_booking',
      'owner@b.example business_new_booking',
    ]);
    // Made by the business and confirmed at once: the client's confirmation; the staff made it.
    expect(
      who(decideNotices(event('booking.created', { booking: booking(), by: 'business' }), facts())),
    ).toEqual(['ayanda@example.com booking_confirmed']);
  });

  it('the business cancels, moves or declines: the person only, mails that must go', () => {
    const cancelled = decideNotices(
      event('booking.cancelled', {
        booking: booking(),
        by: 'business',
        message: 'Ill',
        refund: booking().total,
      }),
      facts(),
    );
    expect(who(cancelled)).toEqual(['ayanda@example.com booking_cancelled']);
    expect(cancelled[0]!.optional).toBe(false);
    const from = { start: '2026-11-24T07:00:00.000Z', end: '2026-11-24T08:00:00.000Z', resourceId: 'van-2' };
    expect(
      who(
        decideNotices(
          event('booking.moved', { booking: booking(), from, by: 'business', message: null }),
          facts(),
        ),
      ),
    ).toEqual(['ayanda@example.com booking_moved']);
    expect(
      who(
        decideNotices(
          event('booking.declined', { booking: booking(), message: null, refund: null }),
          facts(),
        ),
      ),
    ).toEqual(['ayanda@example.com booking_declined']);
  });

  it('the client cancels or moves: an optional confirmation to them; the staff of both vans of a move', () => {
    const own = decideNotices(
      event('booking.cancelled', { booking: booking(), by: 'client', message: null, refund: null }),
      facts(),
    );
    expect(who(own)).toEqual([
      'ayanda@example.com booking_cancelled_own',
      'crew1@b.example business_booking_cancelled',
      'manager@b.example business_booking_cancelled',
      'owner@b.example business_booking_cancelled',
    ]);
    expect(own.every((n) => n.optional)).toBe(true);
    const from = { start: '2026-11-24T07:00:00.000Z', end: '2026-11-24T08:00:00.000Z', resourceId: 'van-2' };
    expect(
      who(
        decideNotices(
          event('booking.moved', { booking: booking(), from, by: 'client', message: null }),
          facts(),
        ),
      ),
    ).toEqual([
      'crew1@b.example business_booking_moved',
      'crew2@b.example business_booking_moved',
      'manager@b.example business_booking_moved',
      'owner@b.example business_booking_moved',
    ]);
  });

  it('the business’s settings, a person without an address, one mail per address', () => {
    const paid = event('booking.paid', { booking: booking(), paid: booking().total });
    expect(who(decideNotices(paid, facts({ businessSettings: { business_new_booking: false } })))).toEqual([
      'ayanda@example.com booking_confirmed',
    ]);
    expect(
      who(decideNotices(paid, facts({ person: { email: null, name: 'Walk-in', userId: null }, staff: [] }))),
    ).toEqual([]);
    // An owner who is also the van's crew (two memberships, one address): one mail.
    const twice = facts({
      staff: [
        { userId: 'u_o', email: 'Owner@b.example', name: 'Owner', role: 'owner', resourceIds: [] },
        { userId: 'u_o', email: 'owner@b.example', name: 'Owner', role: 'crew', resourceIds: ['van-1'] },
      ],
    });
    expect(decideNotices(paid, twice).filter((n) => n.kind === 'business_new_booking')).toHaveLength(1);
  });

  it('orders: paid and cancelled must go, shipped and delivered may be turned off', () => {
    const order = {
      orderId: 'ord_1',
      businessId: 'biz_1',
      status: 'PAID',
      paymentMethod: 'CARD',
      paymentStatus: 'PAID',
      shippingMethod: 'courier',
      total: { amount: 12000, currency: 'ZAR' },
      tracking: 'TRK123',
      clientName: null,
      bookingId: null,
    };
    const kinds = ['order.paid', 'order.shipped', 'order.delivered'].map(
      (t) => decideNotices(event(t, { order }), facts())[0]!,
    );
    expect(kinds.map((n) => [n.kind, n.optional])).toEqual([
      ['order_paid', false],
      ['order_shipped', true],
      ['order_delivered', true],
    ]);
  });

  it('an event not of its type’s shape or version makes no mail', () => {
    expect(
      readEvent({
        id: 'e',
        type: 'booking.paid',
        version: 1,
        occurredAt: new Date(),
        businessId: null,
        personId: null,
        subjectId: 'x',
        actor: { kind: 'system' },
        data: { nothing: true },
      }),
    ).toBeNull();
    expect(
      readEvent({
        id: 'e',
        type: 'booking.paid',
        version: 9,
        occurredAt: new Date(),
        businessId: null,
        personId: null,
        subjectId: 'x',
        actor: { kind: 'system' },
        data: { booking: booking(), paid: booking().total },
      }),
    ).toBeNull();
  });
});

describe('renderMail', () => {
  it('escapes every value in the HTML part, writes local time and the currency, attaches the .ics', () => {
    const e = event('booking.cancelled', {
      booking: booking({ what: 'Bath for <img src=x onerror=alert(1)>' }),
      by: 'business',
      message: '<script>alert("hi")</script> & sorry',
      refund: booking().total,
    });
    const f = facts({
      business: {
        id: 'biz_1',
        name: 'Paws & <Claws>',
        timeZone: 'Africa/Johannesburg',
        currency: 'ZAR',
        country: 'ZA',
      },
      person: { email: 'a@example.com', name: '</td><b>Evil\r\nBcc: x@example.com', userId: null },
    });
    const [n] = decideNotices(e, f);
    const ctx = renderContext(f, e, 'https://nogpets.example');
    const kind = NOTICE_KINDS[n!.kind]!;
    const mail = renderMail(kind.template(n!.data, ctx), kind, ctx, null);
    expect(mail.html).not.toMatch(/<script|<img|<\/td><b>|<Claws>/);
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;hi&quot;)&lt;/script&gt; &amp; sorry');
    expect(mail.html).toContain('Paws &amp; &lt;Claws&gt;');
    expect(mail.subject).not.toMatch(/[\r\n]/);
    // 07:00 UTC is 09:00 in Johannesburg; rand as South Africa writes it.
    expect(mail.text).toContain('09:00');
    expect(mail.text).toMatch(/R\s?450[,.]00/);
    expect(mail.attachments).toHaveLength(1);
    const ics = mail.attachments[0]!.content;
    expect(ics).toContain('UID:bkg_1@nogpets');
    expect(ics).toContain('STATUS:CANCELLED');
    expect(ics).toContain('DTSTART:20261125T070000Z');
  });

  it('an optional mail carries its unsubscribe link; a link that is not http(s) is never made a link', () => {
    const e = event('booking.paid', { booking: booking(), paid: booking().total });
    const f = facts();
    const n = decideNotices(e, f).find((x) => x.kind === 'business_new_booking')!;
    const ctx = renderContext(f, e, 'javascript:alert(1)//');
    const kind = NOTICE_KINDS[n.kind]!;
    const mail = renderMail(
      kind.template(n.data, ctx),
      kind,
      ctx,
      'https://nogpets.example/unsubscribe?token=abc',
    );
    expect(mail.text).toContain('https://nogpets.example/unsubscribe?token=abc');
    expect(mail.html).toContain('href="https://nogpets.example/unsubscribe?token=abc"');
    expect(mail.html).not.toContain('href="javascript:');
  });
});
