import { arrayOf, type Context } from './context.js';
import { requiredItem } from './item.js';
import { count, listNames, nameOf } from './text.js';
import type { ChecklistItem } from './types.js';

const fixWith = 'set_service_area';

/**
 * Area: at least one proposed area. A PENDING area is enough to submit: the operator approves the
 * areas when reviewing the application, and the note says so.
 */
export function checkArea({ data }: Context): ChecklistItem {
  const areas = arrayOf(data.area).filter((a) => a !== null && typeof a === 'object');
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
  const pending = areas.filter((a) => a.status !== 'APPROVED').length;
  const note =
    pending === 0
      ? `Approved: ${listNames(names)}.`
      : `Proposed: ${listNames(names)}; ${pending === areas.length ? (pending === 1 ? 'it waits' : 'they wait') : `${count(pending, 'area')} ${pending === 1 ? 'waits' : 'wait'}`} for the operator, who approves areas when reviewing the application.`;
  return requiredItem('area', [], fixWith, note);
}
