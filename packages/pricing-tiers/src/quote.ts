import { PricingError } from './errors.js';
import { formatMoney } from './format-money.js';
import { matchTier } from './match-tier.js';
import type { PetForQuote, Quote, QuoteInput, QuoteItem, Service } from './types.js';

function describeDuration(min: number): string {
  const h = Math.floor(min / 60);
  const m = min % 60;
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

function listInWords(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function itemsFor(pet: PetForQuote, input: QuoteInput, byId: Map<string, Service>): QuoteItem[] {
  const seen = new Set<string>();
  const items: QuoteItem[] = [];
  for (const serviceId of pet.serviceIds) {
    const service = byId.get(serviceId);
    const details = { pet: pet.name, serviceId };
    if (!service) {
      throw new PricingError(
        'UNKNOWN_SERVICE',
        `There is no service "${serviceId}" (asked for ${pet.name}).`,
        details,
      );
    }
    if (service.lineId !== input.line.id) {
      throw new PricingError(
        'WRONG_LINE',
        `"${service.name}" is not part of ${input.line.label} (asked for ${pet.name}); book it separately.`,
        { ...details, lineId: service.lineId },
      );
    }
    if (!service.petTypes.includes(pet.type)) {
      throw new PricingError(
        'WRONG_PET_TYPE',
        `"${service.name}" is not offered for a ${pet.type.toLowerCase()}, so not for ${pet.name}.`,
        { ...details, petType: pet.type },
      );
    }
    if (seen.has(serviceId)) {
      throw new PricingError(
        'DUPLICATE_SERVICE',
        `"${service.name}" is listed twice for ${pet.name}.`,
        details,
      );
    }
    seen.add(serviceId);
    const { priceCents, durationMin } = matchTier(service, pet);
    items.push({ serviceId, name: service.name, kind: service.kind, priceCents, durationMin });
  }
  const primaries = items.filter((i) => i.kind === 'PRIMARY');
  if (primaries.length === 0) {
    throw new PricingError(
      'NO_PRIMARY',
      `${pet.name} needs one main service of ${input.line.label}; extras come with it.`,
      { pet: pet.name },
    );
  }
  if (primaries.length > 1) {
    const names = primaries.map((i) => `"${i.name}"`);
    throw new PricingError(
      'TOO_MANY_PRIMARY',
      `${pet.name} takes one main service per booking, not ${listInWords(names)}.`,
      { pet: pet.name, serviceId: primaries[1]!.serviceId, serviceIds: primaries.map((i) => i.serviceId) },
    );
  }
  // The main service first, then the extras in the order asked: the summary reads naturally.
  return [...primaries, ...items.filter((i) => i.kind === 'EXTRA')];
}

/** Group walks: one walk for everyone, one place per dog, no more dogs than the walk takes. */
function groupPlaces(pets: Quote['pets'], byId: Map<string, Service>): number | undefined {
  const primaries = pets.map((p) => ({ pet: p.name, service: byId.get(p.items[0]!.serviceId)! }));
  const group = primaries.find((p) => p.service.groupSize > 1)?.service;
  if (!group) return undefined;
  const other = primaries.find((p) => p.service.id !== group.id);
  if (other) {
    throw new PricingError(
      'MIXED_GROUP_WALK',
      `Dogs booked together on a group walk all take "${group.name}"; ${other.pet} has "${other.service.name}". Book it separately.`,
      { pet: other.pet, serviceId: other.service.id, groupServiceId: group.id },
    );
  }
  if (pets.length > group.groupSize) {
    throw new PricingError(
      'GROUP_TOO_LARGE',
      `"${group.name}" takes at most ${group.groupSize} dogs; ${pets.length} were named.`,
      { serviceId: group.id, groupSize: group.groupSize, dogs: pets.length },
    );
  }
  return pets.length;
}

/**
 * Prices one booking of one line. Each pet takes exactly one PRIMARY service plus any EXTRAs of
 * the same line, each allowed for its pet type; the first matching tier sets price and duration.
 * Duration: `SUM` lines add every item of every pet (one van, one pet after another); `MAX` lines
 * take the longest pet (walked or sat together). The card fee applies once per booking; cash pays
 * the subtotal. Throws {@link PricingError} naming the pet and the service it refuses.
 *
 * @example
 * quote({ line: grooming, services, serviceFeeCents: 1000, acceptsCash: true, currency: 'ZAR',
 *   pets: [{ name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT', serviceIds: ['groom-dog-bath'] }] });
 * // { subtotalCents: 38000, cardTotalCents: 39000, durationMin: 60,
 * //   summary: 'Grooming for Rex (Dog bath, R380): about 1 h, R380 cash or R390 by card.', ... }
 */
export function quote(input: QuoteInput): Quote {
  if (input.pets.length === 0)
    throw new PricingError('NO_PETS', `Name at least one pet for ${input.line.label}.`);
  const byId = new Map(input.services.map((s) => [s.id, s]));
  const pets = input.pets.map((pet) => ({ name: pet.name, items: itemsFor(pet, input, byId) }));
  const groupSize = groupPlaces(pets, byId);

  const perPetMin = pets.map((p) => sum(p.items.map((i) => i.durationMin)));
  const durationMin = input.line.durationMode === 'SUM' ? sum(perPetMin) : Math.max(...perPetMin);
  const perPetCents = pets.map((p) => sum(p.items.map((i) => i.priceCents)));
  const subtotalCents = sum(perPetCents);
  const cardTotalCents = subtotalCents + input.serviceFeeCents;

  const money = (cents: number) => formatMoney(cents, input.currency, input.locale);
  const what = listInWords(
    pets.map((p, n) => `${p.name} (${p.items.map((i) => i.name).join(' + ')}, ${money(perPetCents[n]!)})`),
  );
  const pay = !input.acceptsCash
    ? `${money(cardTotalCents)} by card`
    : input.serviceFeeCents === 0
      ? `${money(subtotalCents)} cash or card`
      : `${money(subtotalCents)} cash or ${money(cardTotalCents)} by card`;

  return {
    category: input.line.id,
    durationMin,
    pets,
    subtotalCents,
    cardFeeCents: input.serviceFeeCents,
    cardTotalCents,
    cashTotalCents: subtotalCents,
    acceptsCash: input.acceptsCash,
    summary: `${input.line.label} for ${what}: about ${describeDuration(durationMin)}, ${pay}.`,
    ...(groupSize !== undefined ? { groupSize } : {}),
  };
}
