import { arrayOf, type Context } from './context.js';
import { optionalItem } from './item.js';
import { count, listWords } from './text.js';
import type { ChecklistItem } from './types.js';

const TAKE_EFFECT = 'Invitations take effect once the business is approved.';

/**
 * Staff: optional. Done once someone is invited; until then it says how to invite, and how many
 * people the business said work for it.
 */
export function checkStaff({ data }: Context): ChecklistItem {
  const invites = arrayOf(data.staffInvites).filter((i) => i !== null && typeof i === 'object');
  if (invites.length > 0) {
    const managers = invites.filter((i) => i.role === 'manager').length;
    const crew = invites.filter((i) => i.role === 'crew').length;
    const unknown = invites.length - managers - crew;
    const roles = [
      ...(managers > 0 ? [count(managers, 'manager')] : []),
      ...(crew > 0 ? [`${crew} crew`] : []),
    ];
    if (unknown > 0) {
      return optionalItem(
        'staff',
        'NEEDS_ATTENTION',
        [`a role for ${count(unknown, 'invitation')}: manager or crew`],
        'invite_staff',
        roles.length ? `${listWords(roles)} invited. ${TAKE_EFFECT}` : TAKE_EFFECT,
      );
    }
    return optionalItem('staff', 'DONE', [], 'invite_staff', `${listWords(roles)} invited. ${TAKE_EFFECT}`);
  }
  const said =
    typeof data.staff === 'number' && Number.isFinite(data.staff) && data.staff > 0 ? data.staff : 0;
  const who = said > 1 ? `the ${said} people who work for the business` : 'staff';
  return optionalItem(
    'staff',
    'OPTIONAL',
    [`${who} to invite (optional): each by email or phone, as manager or crew`],
    'invite_staff',
    TAKE_EFFECT,
  );
}
