// What the application events (submitted, approved, rejected) say about an application: its own
// file, so submit and review share it without importing each other.
import { defaultsFor } from '@nogpets/onboarding-checklist';
import type { ApplicationRow } from '@nogpets/store';

const LINES = ['grooming', 'walking', 'sitting'] as const;

/**
 * The application's id, name, country (as given, or from the phone as its checklist reads it; `ZZ`
 * when neither tells, which a ready application never is) and what it offers, in line order.
 */
export function applicationFacts(
  row: Pick<ApplicationRow, 'id' | 'name' | 'country' | 'details' | 'services'>,
): { applicationId: string; businessName: string; country: string; category: string[] } {
  const details = row.details as { phone?: unknown; categories?: unknown };
  const country =
    defaultsFor({
      country: row.country,
      phone: typeof details.phone === 'string' ? details.phone : null,
    }).country ?? 'ZZ';
  const offered = new Set<unknown>([
    ...(Array.isArray(details.categories) ? details.categories : []),
    ...(row.services as { category?: unknown }[]).map((s) => s.category),
  ]);
  return {
    applicationId: row.id,
    businessName: row.name,
    country,
    category: LINES.filter((c) => offered.has(c)),
  };
}
