import type { Context } from './context.js';
import { optionalItem } from './item.js';
import { isSet, nameOf } from './text.js';
import type { ChecklistItem } from './types.js';

const fixWith = 'start_business_signup';

/**
 * Listing: when directory listings may be this business and none is claimed, it needs attention,
 * but does not stop the application (claim the one that is, or say none is). Claimed, declined,
 * or with nothing to claim, it is done.
 */
export function checkListing({ data }: Context): ChecklistItem {
  if (isSet(data.claimListingId)) {
    return optionalItem(
      'listing',
      'DONE',
      [],
      fixWith,
      `Claims directory listing ${nameOf(data.claimListingId, '')}.`,
    );
  }
  const raw = data.possibleListingsCount;
  const possible = typeof raw === 'number' && Number.isFinite(raw) && raw > 0 ? Math.floor(raw) : 0;
  if (possible > 0 && data.listingsDeclined !== true) {
    const which =
      possible === 1
        ? 'the directory listing that may be this business: claim it, or say it is not theirs'
        : `the ${possible} directory listings that may be this business: claim the one that is, or say none is`;
    return optionalItem(
      'listing',
      'NEEDS_ATTENTION',
      [`an answer about ${which}`],
      fixWith,
      'Optional: the application can be submitted without an answer.',
    );
  }
  return optionalItem(
    'listing',
    'DONE',
    [],
    fixWith,
    possible > 0
      ? 'None of the possible directory listings is this business.'
      : 'No directory listing looks like this business; its own is made when it is approved.',
  );
}
