import { checkArea } from './check-area.js';
import { checkDetails } from './check-details.js';
import { checkListing } from './check-listing.js';
import { checkPayment } from './check-payment.js';
import { checkResources } from './check-resources.js';
import { checkServices } from './check-services.js';
import { checkStaff } from './check-staff.js';
import { contextOf } from './context.js';
import { nextStep } from './next-step.js';
import type { ApplicationData, Checklist, ChecklistItem } from './types.js';

/**
 * What a business application still needs before it can be submitted for review, in plain words.
 * Seven items in the order they are best done: details, services, area, resources, gateway (South
 * Africa) or payout (elsewhere), staff, listing. Each has a status, what is missing one entry at a
 * time, and the sign-up tool that fixes it. `readyToSubmit` is true exactly when the four required
 * items (details, services, area, resources) are DONE; `next` says what to do now in one sentence.
 * Currency and time zone missing from the data count as set when `defaultsFor` can default them.
 * Never throws and never changes `data`.
 *
 * @example
 * const { readyToSubmit, next } = checklist({ businessName: 'Paws', town: 'Lisbon', country: 'PT' });
 * readyToSubmit; // false
 * next;          // 'Ask the person for what the business offers: grooming, walking or sitting, then call start_business_signup (…).'
 */
/** The required items not yet DONE: what stands between an application and its review, in order. */
export function stillNeeded<T extends Pick<ChecklistItem, 'required' | 'status'>>(items: readonly T[]): T[] {
  return items.filter((item) => item.required && item.status !== 'DONE');
}

export function checklist(data: ApplicationData): Checklist {
  const context = contextOf(data ?? {});
  const items = [
    checkDetails(context),
    checkServices(context),
    checkArea(context),
    checkResources(context),
    checkPayment(context),
    checkStaff(context),
    checkListing(context),
  ];
  return {
    items,
    readyToSubmit: stillNeeded(items).length === 0,
    next: nextStep(items),
  };
}
