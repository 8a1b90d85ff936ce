import { arrayOf, type Context } from './context.js';
import { type Finding, requiredItem } from './item.js';
import { count, listNames, listWords, nameOf } from './text.js';
import type { ApplicationResource, Category, ChecklistItem, Mode, ResourceKind, Week } from './types.js';

/** The resource each line needs: grooming a VAN (a salon table is one too), walking a WALKER, sitting a SITTER. */
export const KIND_FOR: Record<Category, ResourceKind> = {
  grooming: 'VAN',
  walking: 'WALKER',
  sitting: 'SITTER',
};

function whatToAdd(category: Category, mode: Mode | null | undefined): string {
  if (category === 'walking') return 'a walker for walks';
  if (category === 'sitting') return 'a sitter for sitting';
  if (mode === 'MOBILE') return 'a van for grooming';
  if (mode === 'SALON') return 'a salon table for grooming';
  return 'a van or salon table for grooming';
}

/** "1 sitter", "2 vans and 1 walker": who does the work, counted by kind, in plain words. */
function whoWorks(resources: readonly ApplicationResource[], mode: Mode | null | undefined): string {
  const van =
    mode === 'SALON'
      ? ['salon table', 'salon tables']
      : mode === 'MOBILE'
        ? ['van', 'vans']
        : ['van or table', 'vans or tables'];
  const words: Record<ResourceKind, string[]> = {
    VAN: van,
    WALKER: ['walker', 'walkers'],
    SITTER: ['sitter', 'sitters'],
  };
  const parts = (['VAN', 'WALKER', 'SITTER'] as const)
    .map((kind) => [kind, resources.filter((r) => r.kind === kind).length] as const)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => count(n, words[kind]![0]!, words[kind]![1]!));
  return listWords(parts);
}

/** True when the week has working time on at least one day. */
export function hasWorkingTime(week: Week | null | undefined): boolean {
  if (week === null || typeof week !== 'object') return false;
  return Object.values(week).some((ranges) => Array.isArray(ranges) && ranges.length > 0);
}

/**
 * Resources: each line offered needs at least one resource of its kind (missing otherwise). A
 * resource without a week of its own works the business hours, so those must be set (missing);
 * a resource whose own week has no working time needs attention. Resources of a line not offered
 * are not looked at.
 */
export function checkResources({ data, offered }: Context): ChecklistItem {
  const kinds = offered.map((category) => KIND_FOR[category]);
  const resources = arrayOf(data.resources).filter(
    (r): r is ApplicationResource => r !== null && typeof r === 'object' && kinds.includes(r.kind),
  );
  const findings: Finding[] = [];

  for (const category of offered) {
    if (!resources.some((r) => r.kind === KIND_FOR[category])) {
      findings.push({ text: whatToAdd(category, data.mode), status: 'MISSING', fixWith: 'add_resources' });
    }
  }

  if (offered.length === 0 && arrayOf(data.resources).length === 0) {
    findings.push({
      text: 'the vans, walkers or sitters who do the work, one for each line offered at least',
      status: 'MISSING',
      fixWith: 'add_resources',
    });
  }

  const nameOfResource = (r: ApplicationResource) =>
    nameOf(r.name, `the ${r.kind.toLowerCase()} without a name`);
  const onBusinessHours = resources.filter((r) => r.week === null || r.week === undefined);
  const businessHours = hasWorkingTime(data.businessHours);
  if (onBusinessHours.length > 0 && !businessHours) {
    findings.push({
      text: `working hours for ${listNames(onBusinessHours.map(nameOfResource))}: business hours for all, or a week for each`,
      status: 'MISSING',
      fixWith: 'set_operating_hours',
    });
  }
  for (const resource of resources) {
    if (resource.week !== null && resource.week !== undefined && !hasWorkingTime(resource.week)) {
      findings.push({
        text: `working hours for ${nameOfResource(resource)} (its own week has none)`,
        status: 'NEEDS_ATTENTION',
        fixWith: 'set_operating_hours',
      });
    }
  }

  const own = resources.length - onBusinessHours.length;
  const note =
    resources.length === 0
      ? null
      : `${whoWorks(resources, data.mode)}: ${onBusinessHours.length} on the business hours, ${own} with ${own === 1 ? 'its' : 'their'} own week.`;
  return requiredItem('resources', findings, 'add_resources', note);
}
