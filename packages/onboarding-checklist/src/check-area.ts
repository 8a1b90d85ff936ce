import { arrayOf, type Context } from './context.js';
import { requiredItem } from './item.js';
import { count, listNames, nameOf } from './text.js';
import type { ChecklistItem } from './types.js';

const fixWith = 'set_service_area';

/**
 * Area: at least one proposed or approved area. A PENDING area is enough to submit: the operator
 * approves the areas when reviewing the application, and the note says so. An area the operator
 * rejected does not count, and is named so the person can propose another.
 */
export function checkArea({ data }: Context): ChecklistItem {
  const all = arrayOf(data.area).filter((a) => a !== null && typeof a === 'object');
  const rejected = all.filter((a) => a.status === 'REJECTED');
  const areas = all.filter((a) => a.status === 'PENDING' || a.status === 'APPROVED');
  if (areas.length === 0 && rejected.length > 0) {
    const names = rejected.map((a, i) => nameOf(a.name, `area ${i + 1}`));
    return requiredItem(
      'area',
      [
        {
          text: `another area: the operator did not approve ${listNames(names)}`,
          status: 'NEEDS_ATTENTION',
          fixWith,
        },
      ],
      fixWith,
      null,
    );
  }
  if (areas.length === 0) {
    return requiredItem(
      'area',
      [
        {
          text: 'the area the business serves: a radius around an address, suburbs with their postal codes, or postal codes',
          status: 'MISSING',
          fixWith,
        },
      ],
      fixWith,
      null,
    );
  }
  const names = areas.map((a, i) => nameOf(a.name, `area ${i + 1}`));
  const pending = areas.filter((a) => a.status === 'PENDING').length;
  const note =
    pending === 0
      ? `Approved: ${listNames(names)}.`
      : `Proposed: ${listNames(names)}; ${pending === areas.length ? (pending === 1 ? 'it waits' : 'they wait') : `${count(pending, 'area')} ${pending === 1 ? 'waits' : 'wait'}`} for the operator, who approves areas when reviewing the application.`;
  return requiredItem('area', [], fixWith, note);
}
