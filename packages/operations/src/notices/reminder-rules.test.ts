import { describe, expect, it } from 'vitest';
import { EVENT_EXAMPLES, type EventType } from '../events/index.js';
import { decideNotices, readEvent } from './decide.js';
import { renderContext } from './dispatch.js';
import { renderMail } from './render.js';
import { NOTICE_KINDS } from './table.js';
import type { NoticeEvent, NoticeFacts, NoticeStaffMember } from './types.js';

const business = {
  id: 'biz_suds',
  name: 'Suds & Tails',
  timeZone: 'Africa/Johannesburg',
  currency: 'ZAR',
  country: 'ZA',
};
const staff: NoticeStaffMember[] = [
  { userId: 'usr_owner', email: 'owner@suds.example', name: 'Olwethu', role: 'owner', resourceIds: [] },
  { userId: 'usr_mgr', email: 'manager@suds.example', name: 'Mpho', role: 'manager', resourceIds: [] },
  { userId: 'usr_crew', email: 'crew@suds.example', name: 'Sipho', role: 'crew', resourceIds: ['res_1'] },
  { userId: 'usr_new', email: 'new@suds.example', name: 'Naledi', role: 'crew', resourceIds: [] },
];
const person = { email: 'ayanda@example.com', name: 'Ayanda', userId: 'usr_ayanda' };

function eventOf<T extends EventType>(type: T, data?: unknown): NoticeEvent {
  const e = readEvent({
    id: `evt_${type}`,
    type,
    version: 1,
    occurredAt: new Date('2026-12-09T16:00:00Z'),
    businessId: business.id,
    personId: person.userId,
    subjectId: 'sub_1',
    actor: { kind: 'system' },
    data: data ?? EVENT_EXAMPLES[type],
  });
  if (!e) throw new Error(`example of ${type} does not read`);
  return e;
}
const facts = (over: Partial<NoticeFacts> = {}): NoticeFacts => ({
  business,
  person,
  staff,
  businessSettings: {},
  ...over,
});
const render = (event: NoticeEvent, f: NoticeFacts) =>
  decideNotices(event, f).map((n) => ({
    notice: n,
    mail: renderMail(
      NOTICE_KINDS[n.kind]!.template(n.data, renderContext(f, event, 'https://nogpets.test')),
      NOTICE_KINDS[n.kind]!,
      renderContext(f, event, 'https://nogpets.test'),
      n.optional ? 'https://nogpets.test/unsubscribe?token=t' : null,
    ),
  }));

describe('mail of the timed events, to the person alone', () => {
  it('the reminder says when, in Johannesburg time, and until when it can still change; it may be turned off', () => {
    const [one, ...more] = render(eventOf('booking.reminder_due'), facts());
    expect(more).toEqual([]);
    expect(one!.notice).toMatchObject({ to: person.email, kind: 'booking_reminder', optional: true });
    expect(one!.mail.subject).toMatch(/^Tomorrow: .* with Suds & Tails, /);
    // changeUntil 2026-12-09T20:00Z is 22:00 in Johannesburg.
    expect(one!.mail.text).toMatch(/move or cancel it yourself until .*22:00 \(Africa\/Johannesburg time\)/);
    expect(one!.mail.html).toContain('Suds &amp; Tails');
    const late = render(
      eventOf('booking.reminder_due', { ...EVENT_EXAMPLES['booking.reminder_due'], changeUntil: null }),
      facts(),
    );
    expect(late[0]!.mail.text).toContain('It is too late to move or cancel it yourself now');
  });

  it('a pay link about to lapse names the deadline in the business zone; nothing without an address', () => {
    const [booking] = render(eventOf('booking.payment_due'), facts());
    expect(booking!.notice.kind).toBe('booking_pay_soon');
    expect(booking!.mail.subject).toMatch(
      /^Pay by .*12:00 \(Africa\/Johannesburg time\) to keep your booking/,
    );
    const [order] = render(eventOf('order.payment_due'), facts());
    expect(order!.notice.kind).toBe('order_pay_soon');
    expect(render(eventOf('order.payment_due'), facts({ person: { ...person, email: null } }))).toEqual([]);
    expect(render(eventOf('booking.payment_due'), facts({ person: null }))).toEqual([]);
  });

  it('a whole payment owed back must go, saying why and how much in rand', () => {
    const [one] = render(eventOf('payment.refund_due'), facts());
    expect(one!.notice).toMatchObject({ kind: 'payment_refund_due', optional: false });
    expect(one!.mail.text).toMatch(
      /A payment of R\s?389[,.]00 is owed back to you: it arrived after your order ord_\w+ had closed/,
    );
  });
});

describe('mail to applicants and staff', () => {
  it('the applicant hears of the application received, approved (how to run it) and rejected (the note)', () => {
    const [sent] = render(eventOf('application.submitted'), facts());
    expect(sent!.notice).toMatchObject({ to: person.email, kind: 'application_submitted', optional: false });
    const [approved, ...others] = render(eventOf('application.approved'), facts());
    expect(others).toEqual([]);
    expect(approved!.mail.text).toContain('Welcome to NogPets!');
    // A business's assistant connects to the business endpoint, which lists the Run tools.
    expect(approved!.mail.text).toContain(
      'add NogPets for businesses (https://nogpets.test/mcp/business) to it as an MCP server',
    );
    const [rejected] = render(eventOf('application.rejected'), facts());
    expect(rejected!.mail.text).toContain('Please add proof of your grooming qualification');
  });

  it('owners and managers hear that someone joined; not crew, not the newcomer; not when the business turned it off', () => {
    const joined = eventOf('invitation.accepted', {
      ...EVENT_EXAMPLES['invitation.accepted'],
      userId: 'usr_new',
    });
    const mails = render(joined, facts());
    expect(mails.map((m) => m.notice.to).sort()).toEqual(['manager@suds.example', 'owner@suds.example']);
    expect(mails[0]!.mail.subject).toBe('Naledi joined Suds & Tails Mobile Grooming as crew');
    expect(render(joined, facts({ businessSettings: { business_staff_joined: false } }))).toEqual([]);
  });
});
