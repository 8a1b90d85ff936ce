import type { FeedBookingRow } from '@nogpets/store';
import { describe, expect, it } from 'vitest';
import { feedIcs, summaryOf, whatFor, whereOf } from './calendar.js';

/** A booking as a feed reads it, with defaults. */
const aRow = (over: Partial<FeedBookingRow> = {}): FeedBookingRow => ({
  id: 'bkg_1',
  businessId: 'biz_1',
  businessName: 'Boland Paws',
  resourceId: 'bp-van-1',
  resourceName: 'Van 1 (Johan)',
  lineId: 'grooming',
  status: 'ACCEPTED',
  paymentMethod: 'CASH',
  paymentStatus: 'CASH_DUE',
  start: new Date('2026-03-12T07:00:00Z'),
  end: new Date('2026-03-12T08:30:00Z'),
  totalCents: 52000,
  details: {
    currency: 'ZAR',
    address: '14 Rustenburg Road, Die Boord',
    quote: { pets: [{ name: 'Bongo', items: [{ name: 'Full groom' }, { name: 'Nail clip' }] }] },
  },
  notes: 'Ring twice; semicolons, commas\nand a new line',
  clientName: 'Anele Dlamini',
  clientPhone: '+27 82 555 0101',
  address: null,
  createdAt: new Date('2026-03-01T10:00:00Z'),
  updatedAt: new Date('2026-03-05T10:00:00Z'),
  changes: 2,
  ...over,
});

const settings = {
  scope: 'my_jobs' as const,
  name: 'Boland Paws: my jobs',
  timeZone: 'Africa/Johannesburg',
  publicUrl: 'https://nogpets.example/',
};

describe('feedIcs', () => {
  it('writes one event per booking: UID from the booking id, UTC times, the zone named, SEQUENCE and stamps from the booking', () => {
    const ics = feedIcs([aRow()], settings);
    expect(ics).toMatch(/^BEGIN:VCALENDAR\r\nVERSION:2\.0\r\n/);
    expect(ics).toContain('\r\nX-WR-TIMEZONE:Africa/Johannesburg\r\n');
    expect(ics).toContain('\r\nX-WR-CALNAME:Boland Paws: my jobs\r\n');
    expect(ics).toContain('\r\nUID:bkg_1@nogpets\r\n');
    expect(ics).toContain('\r\nSEQUENCE:2\r\n');
    expect(ics).toContain('\r\nDTSTART:20260312T070000Z\r\n');
    expect(ics).toContain('\r\nDTEND:20260312T083000Z\r\n');
    expect(ics).toContain('\r\nDTSTAMP:20260305T100000Z\r\n');
    expect(ics).toContain('\r\nLAST-MODIFIED:20260305T100000Z\r\n');
    expect(ics).toContain('\r\nSTATUS:CONFIRMED\r\n');
    expect(ics).toContain('\r\nSUMMARY:Full groom\\, Nail clip for Bongo (Anele Dlamini)\r\n');
    expect(ics).toContain('\r\nLOCATION:14 Rustenburg Road\\, Die Boord\r\n');
    // Text is escaped as RFC 5545 wants (commas, semicolons, new lines), lines folded at 75 octets.
    expect(ics.replace(/\r\n /g, '')).toContain('Notes: Ring twice\\; semicolons\\, commas\\nand a new line');
    for (const line of ics.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    // The same rows make the same text (a poll's ETag holds while nothing changes).
    expect(feedIcs([aRow()], settings)).toBe(ics);
  });

  it('marks cancelled and lapsed bookings CANCELLED, pending ones TENTATIVE', () => {
    expect(feedIcs([aRow({ status: 'CANCELLED' })], settings)).toContain('\r\nSTATUS:CANCELLED\r\n');
    expect(feedIcs([aRow({ status: 'EXPIRED' })], settings)).toContain('\r\nSTATUS:CANCELLED\r\n');
    expect(feedIcs([aRow({ status: 'PENDING' })], settings)).toContain('\r\nSTATUS:TENTATIVE\r\n');
    expect(summaryOf(aRow({ status: 'CANCELLED' }), 'business')).toMatch(/^Cancelled: Full groom/);
  });

  it("names the business for a pet owner, links their account page, and leaves the client's phone out", () => {
    const ics = feedIcs([aRow()], { ...settings, scope: 'mine' }).replace(/\r\n /g, '');
    expect(ics).toContain('SUMMARY:Full groom\\, Nail clip for Bongo with Boland Paws');
    expect(ics).toContain('URL;VALUE=URI:https://nogpets.example/account#booking-bkg_1');
    expect(ics).not.toContain('+27 82');
  });

  it('falls back to the line and pet names, and to the saved address when there is one', () => {
    expect(whatFor(aRow({ details: { pets: [{ name: 'Rex' }] } }))).toBe('Grooming for Rex');
    expect(whatFor(aRow({ details: {} }))).toBe('Grooming');
    expect(
      whereOf(aRow({ address: { line1: '3 Dorp St', suburb: 'Die Boord', postalCode: '7600', city: null } })),
    ).toBe('3 Dorp St, Die Boord, 7600');
    expect(whereOf(aRow({ details: {} }))).toBeNull();
  });
});
