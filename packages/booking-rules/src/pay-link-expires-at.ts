import { HOUR_MS, PAY_LINK_HOURS } from './constants.js';

/**
 * When a pay link made at `now` stops working: the spec's 48 hours later. One link may cover
 * several bookings (a weekly series); each holds its time until then or its start (`holdUntil`).
 *
 * @example payLinkExpiresAt(new Date('2026-05-01T08:00Z')) // 2026-05-03T08:00Z
 */
export function payLinkExpiresAt(now: Date): Date {
  return new Date(now.getTime() + PAY_LINK_HOURS * HOUR_MS);
}
