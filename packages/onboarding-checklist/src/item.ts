// Builds a checklist item from what its rules found. Not exported from the package.
import type { ChecklistItem, ChecklistItemId, SignupTool } from './types.js';

/** One thing a rule found: what is needed in plain words, how bad, and the tool that fixes it. */
export interface Finding {
  text: string;
  status: 'MISSING' | 'NEEDS_ATTENTION';
  fixWith: SignupTool;
}

export const TITLES: Record<ChecklistItemId, string> = {
  details: 'Business details',
  services: 'Services and prices',
  area: 'Service area',
  resources: 'Vans, walkers, sitters and hours',
  gateway: 'Card payments (PayFast)',
  payout: 'How the business is paid',
  staff: 'Staff',
  listing: 'Directory listing',
};

/**
 * A required item: MISSING when any finding is, else NEEDS_ATTENTION when there is any, else DONE.
 * Missing things come first (the first one is what `next` asks for), and the item is fixed with
 * the first one's tool.
 */
export function requiredItem(
  id: ChecklistItemId,
  findings: Finding[],
  doneWith: SignupTool,
  note: string | null,
): ChecklistItem {
  const ordered = [
    ...findings.filter((f) => f.status === 'MISSING'),
    ...findings.filter((f) => f.status === 'NEEDS_ATTENTION'),
  ];
  const first = ordered[0];
  return {
    id,
    title: TITLES[id],
    status: first ? first.status : 'DONE',
    required: true,
    missing: ordered.map((f) => f.text),
    fixWith: first ? first.fixWith : doneWith,
    note,
  };
}

/** An item the application can be submitted without. */
export function optionalItem(
  id: ChecklistItemId,
  status: 'DONE' | 'OPTIONAL' | 'NEEDS_ATTENTION',
  missing: string[],
  fixWith: SignupTool,
  note: string | null,
): ChecklistItem {
  return { id, title: TITLES[id], status, required: false, missing, fixWith, note };
}
