// The sign-up steps that keep a list on the application (add_business_services, add_resources,
// invite_staff) take one request shape: items to add or change (by id), `removeIds`, or `replace`
// to start over. These are the checks they share and the list they start from. A leaf.
import { badRequest } from '../core/index.js';

type Problem = { field: string; message: string };

/**
 * The request's shared problems: nothing to do (unless `other`, e.g. useTemplate, does something),
 * removeIds with replace, an id to remove or to change that the application does not have, an item
 * both changed and removed. And the list the sent items go into: empty with `replace`, else `before`
 * without the removed ones.
 */
export function listStep<T extends { id: string }>(
  before: readonly T[],
  request: {
    items: readonly { id?: string | undefined; [field: string]: unknown }[];
    removeIds: readonly string[];
    replace: boolean;
    other?: boolean;
  },
  words: {
    /** The input field of the items: 'services', 'resources', 'people'. */
    field: string;
    /** One item: 'service', 'resource', 'invitation'. */
    noun: string;
    /** What to give: 'services, removeIds or replace'. */
    give: string;
    /** What replace does: 'removes every service'. */
    replaceDoes: string;
  },
): { kept: T[]; problems: Problem[] } {
  const { items, removeIds, replace } = request;
  const problems: Problem[] = [];
  if (items.length === 0 && removeIds.length === 0 && !replace && !request.other)
    problems.push({ field: words.field, message: `nothing to do: give ${words.give}` });
  if (replace && removeIds.length)
    problems.push({ field: 'removeIds', message: `not with replace: replace ${words.replaceDoes}` });
  const known = new Set(before.map((b) => b.id));
  removeIds.forEach((id, i) => {
    if (!known.has(id))
      problems.push({ field: `removeIds.${i}`, message: `no ${words.noun} ${id} on this application` });
  });
  items.forEach((item, i) => {
    if (item.id && !known.has(item.id))
      problems.push({
        field: `${words.field}.${i}.id`,
        message: `no ${words.noun} ${item.id} on this application`,
      });
    if (item.id && removeIds.includes(item.id))
      problems.push({ field: `${words.field}.${i}.id`, message: 'both changed and removed' });
  });
  return { kept: replace ? [] : before.filter((b) => !removeIds.includes(b.id)), problems };
}

/** 400 when the list would pass its bound: "an application has at most 100 services; this would make 101". */
export function checkListSize(list: readonly unknown[], max: number, field: string, nouns: string): void {
  if (list.length > max)
    throw badRequest([
      { field, message: `an application has at most ${max} ${nouns}; this would make ${list.length}` },
    ]);
}
