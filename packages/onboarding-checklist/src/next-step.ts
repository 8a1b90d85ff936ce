import type { ChecklistItem } from './types.js';

const SUBMIT =
  'show the person the summary, and once they agree call submit_business_for_review with confirm: true';

/**
 * What to do now, in one sentence: the first thing missing from the first required item that is not
 * done, with its tool; or, when nothing required is missing, to submit (asking first about a
 * possible directory listing, when there is one).
 */
export function nextStep(items: readonly ChecklistItem[]): string {
  const blocking = items.find((item) => item.required && item.status !== 'DONE');
  if (blocking) {
    const [first, ...rest] = blocking.missing;
    const more =
      rest.length > 0
        ? ` (${rest.length} more ${rest.length === 1 ? 'thing is' : 'things are'} listed under ${blocking.title})`
        : '';
    return `Ask the person for ${first ?? blocking.title.toLowerCase()}, then call ${blocking.fixWith}${more}.`;
  }
  const listing = items.find((item) => item.id === 'listing' && item.status === 'NEEDS_ATTENTION');
  if (listing) {
    return `Everything needed is there: ask the person for ${listing.missing[0]} (${listing.fixWith} with claimListingId), then ${SUBMIT}.`;
  }
  return `Everything needed is there: ${SUBMIT}.`;
}
