import { HOUR_MS, PAY_REMINDER_HOURS } from './constants.js';

/**
 * When to tell the person that an unpaid link is about to lapse (an unpaid card booking's hold, an
 * order's pay link): 6 hours before it does, or null when the link was opened less than 6 hours
 * before that moment (it is new: being told again so soon is noise).
 *
 * @example
 * payReminderAt({
 *   payUntil: new Date('2026-12-03T10:00:00Z'),
 *   openedAt: new Date('2026-12-01T10:00:00Z'),
 * }) // 2026-12-03T04:00:00Z
 */
export function payReminderAt(input: { payUntil: Date; openedAt: Date }): Date | null {
  const until = input.payUntil.getTime();
  const opened = input.openedAt.getTime();
  if (Number.isNaN(until) || Number.isNaN(opened)) {
    throw new RangeError('payReminderAt: payUntil and openedAt must be valid dates.');
  }
  const at = until - PAY_REMINDER_HOURS * HOUR_MS;
  return opened > at - PAY_REMINDER_HOURS * HOUR_MS ? null : new Date(at);
}
