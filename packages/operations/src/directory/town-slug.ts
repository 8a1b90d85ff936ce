// A town's name as the directory's slug: the `town` filter of find_pet_businesses and the sign-up's
// possible listings read it alike. A leaf: it imports no operation.

/** A town as the directory names it: lowercase letters, digits and hyphens, 2 to 40 (the `town` filter's pattern). */
export const TOWN_SLUG = /^[a-z0-9-]{2,40}$/;

/** A town's name as the directory's slug ('Lisboa' is lisboa, 'Cape Town' cape-town), or null when none fits. */
export function townSlug(town: string): string | null {
  const slug = town
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return TOWN_SLUG.test(slug) ? slug : null;
}
