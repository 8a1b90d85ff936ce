/**
 * How long an unpaid card booking holds its time: until the pay link expires, but never past the
 * start (a time nobody paid for is not kept once it begins).
 *
 * @example holdUntil(new Date('2026-05-03T08:00Z'), new Date('2026-05-02T09:00Z')) // 2026-05-02T09:00Z
 */
export function holdUntil(linkExpiresAt: Date, start: Date): Date {
  return new Date(Math.min(linkExpiresAt.getTime(), start.getTime()));
}
