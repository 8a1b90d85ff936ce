/**
 * The rule sets of mail to people, joined: every kind once, and per event type the rules of every
 * set. A new set (applicants and staff, reminders) is its own file added to RULE_SETS.
 */
import type { EventType } from '../events/index.js';
import { APPLICANT_NOTICES } from './applicant-rules.js';
import { BUSINESS_NOTICES } from './business-rules.js';
import { OWNER_NOTICES } from './owner-rules.js';
import { REMINDER_NOTICES } from './reminder-rules.js';
import type { NoticeKind, NoticeRule, NoticeRuleSet } from './types.js';

export const RULE_SETS: readonly NoticeRuleSet[] = [
  OWNER_NOTICES,
  BUSINESS_NOTICES,
  REMINDER_NOTICES,
  APPLICANT_NOTICES,
];

function joinKinds(sets: readonly NoticeRuleSet[]): Record<string, NoticeKind> {
  const kinds: Record<string, NoticeKind> = {};
  for (const set of sets)
    for (const [name, kind] of Object.entries(set.kinds)) {
      if (kinds[name]) throw new Error(`notice kind ${name} is defined twice`);
      kinds[name] = kind;
    }
  return kinds;
}

/** Every kind of mail made from events, by name. */
export const NOTICE_KINDS: Readonly<Record<string, NoticeKind>> = joinKinds(RULE_SETS);

/** The rules of an event type, of every set. */
export function rulesOf(type: EventType, sets: readonly NoticeRuleSet[] = RULE_SETS): NoticeRule[] {
  return sets.flatMap((s) => (s.rules[type] ?? []) as NoticeRule[]);
}

/** The kinds a person may turn off, of an audience (the /account page, the unsubscribe page). */
export function optionalKinds(
  audiences: NoticeKind['audience'][],
): { kind: string; label: string; audience: string }[] {
  return Object.entries(NOTICE_KINDS)
    .filter(([, k]) => k.optional && audiences.includes(k.audience))
    .map(([kind, k]) => ({ kind, label: k.label, audience: k.audience }));
}

/** The kinds a business chooses in its settings. */
export function businessKinds(): { kind: string; label: string }[] {
  return Object.entries(NOTICE_KINDS)
    .filter(([, k]) => k.audience === 'business')
    .map(([kind, k]) => ({ kind, label: k.label }));
}
